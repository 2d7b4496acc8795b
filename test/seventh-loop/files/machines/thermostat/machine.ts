/**
 * A room thermostat: the smallest observe → compare → act loop. Every period it reads the room's
 * temperature, compares it with the set point and a dead band (hysteresis), and switches the heater
 * when the reading leaves the band: on below `setpoint − hysteresis`, off above
 * `setpoint + hysteresis`, unchanged inside it — a bimetal thermostat's two-position control.
 */
import { assign, setup } from 'xstate';
import { errorMessage, namedActor } from '../named-actor';

export interface ThermostatConfig {
  setpointC: number;
  hysteresisC: number;
  periodMs: number;
}

export interface ThermostatContext {
  config: ThermostatConfig;
  /** The last reading, °C; null before the first. */
  readingC: number | null;
  /** Whether the heater is on, as the thermostat last set it. */
  heating: boolean;
  /** What the last comparison asked for. */
  wantHeating: boolean;
  lastError: string | null;
}

export type ThermostatEvent = { type: 'CONFIG.UPDATE'; config: Partial<ThermostatConfig> };

/** Two-position control with a dead band: inside the band the heater keeps what it was doing. */
export function wantsHeat(readingC: number, heating: boolean, config: ThermostatConfig): boolean {
  if (readingC < config.setpointC - config.hysteresisC) return true;
  if (readingC > config.setpointC + config.hysteresisC) return false;
  return heating;
}

export const thermostatMachine = setup({
  types: {
    context: {} as ThermostatContext,
    events: {} as ThermostatEvent,
    input: {} as { config: ThermostatConfig },
  },
  actors: {
    readTemperature: namedActor<number, Record<string, never>>('readTemperature'),
    setHeater: namedActor<boolean, { on: boolean }>('setHeater'),
  },
  delays: {
    period: ({ context }) => context.config.periodMs,
  },
  guards: {
    switchNeeded: ({ context }) => context.wantHeating !== context.heating,
  },
}).createMachine({
  id: 'thermostat',
  context: ({ input }) => ({ config: input.config, readingC: null, heating: false, wantHeating: false, lastError: null }),
  on: {
    'CONFIG.UPDATE': { actions: assign({ config: ({ context, event }) => ({ ...context.config, ...event.config }) }) },
  },
  initial: 'observing',
  states: {
    observing: {
      tags: ['observe'],
      invoke: {
        id: 'readTemperature',
        src: 'readTemperature',
        input: () => ({}),
        onDone: { target: 'comparing', actions: assign({ readingC: ({ event }) => event.output, lastError: null }) },
        onError: { target: 'waiting', actions: assign({ lastError: ({ event }) => errorMessage(event.error) }) },
      },
    },
    comparing: {
      tags: ['compare'],
      entry: assign({
        wantHeating: ({ context }) =>
          context.readingC === null ? context.heating : wantsHeat(context.readingC, context.heating, context.config),
      }),
      always: [{ guard: 'switchNeeded', target: 'acting' }, { target: 'waiting' }],
    },
    acting: {
      tags: ['act'],
      invoke: {
        id: 'setHeater',
        src: 'setHeater',
        input: ({ context }) => ({ on: context.wantHeating }),
        onDone: { target: 'waiting', actions: assign({ heating: ({ event }) => event.output }) },
        onError: { target: 'waiting', actions: assign({ lastError: ({ event }) => errorMessage(event.error) }) },
      },
    },
    waiting: {
      tags: ['wait'],
      after: { period: 'observing' },
    },
  },
});
