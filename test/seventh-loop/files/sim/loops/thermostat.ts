import { z } from 'zod';
import type { ThermostatConfig } from '../../machines/thermostat/machine';
import { thermostatMachine } from '../../machines/thermostat/machine';
import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { headerOf, headerShape } from '../scenario/header';
import type { ThermostatFault, ThermostatWorld } from '../worlds/thermostat';
import type { ThermostatWorldSummary } from './thermostat-world-schema';
import { createThermostatWorld, thermostatWorldModel } from '../worlds/thermostat';
import type { ThermostatController } from './thermostat-controller-schema';

export const thermostatBinding: LoopBinding<
  ThermostatWorld,
  ThermostatFault,
  ThermostatConfig,
  ThermostatController,
  typeof thermostatMachine,
  ThermostatWorldSummary
> = {
  loop: 'thermostat',
  machine: thermostatMachine,
  world: thermostatWorldModel,
  machineInput: (config) => ({ config }),
  configEvent: (config) => ({ type: 'CONFIG.UPDATE', config }),
  controller: (ctx) => ({
    loop: 'thermostat',
    readingC: ctx.readingC,
    band: { lowC: ctx.config.setpointC - ctx.config.hysteresisC, highC: ctx.config.setpointC + ctx.config.hysteresisC },
    heating: ctx.heating,
    wantHeating: ctx.wantHeating,
    lastError: ctx.lastError,
  }),
};

// ---- scenario format ----

const celsius = z.number({ error: 'expected a temperature in °C (a number)' }).int({ error: 'expected whole degrees' });

const thermostatSchema = z.strictObject({
  setpoint: celsius,
  hysteresis: z
    .number({ error: 'expected a number of degrees ≥ 0' })
    .int({ error: 'expected whole degrees' })
    .min(0, { error: 'expected a number of degrees ≥ 0' }),
  period: durationField,
});

const roomSchema = z.strictObject({
  temperature: celsius,
  outside: celsius,
  max: celsius.optional(),
  step: durationField.optional(),
  read: durationField.optional(),
  switch: durationField.optional(),
});

const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    draught: z.number({ error: 'expected the degrees the room loses' }).int().min(1, { error: 'expected at least 1 degree' }).optional(),
    outside: celsius.optional(),
    setpoint: celsius.optional(),
  })
  .refine((e) => Object.keys(e).length === 2, { error: 'expected "at" and exactly one change (draught, outside or setpoint)' });

const scenarioSchema = z.strictObject({
  ...headerShape('thermostat'),
  thermostat: thermostatSchema,
  room: roomSchema,
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

export interface ThermostatScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: ThermostatConfig;
  world: ThermostatWorld;
  timeline: TimelineEntry<ThermostatFault, ThermostatConfig>[];
}

export function parseThermostatScenario(file: string, name: string, doc: unknown, seedOverride?: number): ThermostatScenario {
  const parsed = scenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  if (s.thermostat.period <= 0) throw new InputError(file, 'thermostat.period', 'expected a duration > 0');
  const stepMs = s.room.step ?? 60_000;
  if (stepMs <= 0) throw new InputError(file, 'room.step', 'expected a duration > 0');
  const timeline = (s.timeline ?? []).map((e): TimelineEntry<ThermostatFault, ThermostatConfig> => {
    if (e.draught !== undefined) return { at: e.at, fault: { kind: 'draught', dropC: e.draught } };
    if (e.outside !== undefined) return { at: e.at, fault: { kind: 'outside', temperatureC: e.outside } };
    return { at: e.at, config: { setpointC: e.setpoint } };
  });
  return {
    ...headerOf(file, name, s, seedOverride, 3_600_000),
    config: { setpointC: s.thermostat.setpoint, hysteresisC: s.thermostat.hysteresis, periodMs: s.thermostat.period },
    world: createThermostatWorld(s.room.temperature, s.room.outside, {
      stepMs,
      readMs: s.room.read ?? 1_000,
      switchMs: s.room.switch ?? 2_000,
      maxC: s.room.max ?? 35,
    }),
    timeline,
  };
}
