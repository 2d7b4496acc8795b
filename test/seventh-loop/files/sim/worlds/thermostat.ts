import type { ThermostatWorldSummary } from '../loops/thermostat-world-schema';
import type { OpResult, WorldModel } from '../model';

/**
 * A room with a heater, in whole degrees: the room warms by one degree per `stepMs` while the
 * heater is on, and cools by one per `stepMs` towards the outside temperature while it is off.
 * `since` is when the current trend began, so the temperature at any instant is read from it.
 */
export interface ThermostatWorld {
  temperatureC: number;
  since: number;
  heaterOn: boolean;
  outsideC: number;
  maxC: number;
  stepMs: number;
  /** How long a reading and a switch take. */
  readMs: number;
  switchMs: number;
  nextOpId: number;
  ops: ThermostatOp[];
  /** Heater switches so far (the summary's counter). */
  switches: number;
}

type ThermostatOp = { id: number; kind: 'read' } | { id: number; kind: 'switch'; on: boolean };

/** A window opened for a moment (the room loses `dropC` at once) or a new outside temperature. */
export type ThermostatFault = { kind: 'draught'; dropC: number } | { kind: 'outside'; temperatureC: number };

export interface ThermostatTimings {
  stepMs: number;
  readMs: number;
  switchMs: number;
  maxC: number;
}

export function createThermostatWorld(temperatureC: number, outsideC: number, timings: ThermostatTimings): ThermostatWorld {
  return { temperatureC, since: 0, heaterOn: false, outsideC, ...timings, nextOpId: 1, ops: [], switches: 0 };
}

/** The room's temperature at `t`: the trend since `since`, in whole steps, bounded by the outside and the heater's maximum. */
export function roomAt(world: ThermostatWorld, t: number): number {
  const steps = Math.floor((t - world.since) / world.stepMs);
  if (world.heaterOn) return Math.min(world.maxC, world.temperatureC + steps);
  return world.temperatureC <= world.outsideC ? world.temperatureC : Math.max(world.outsideC, world.temperatureC - steps);
}

/** The world with its temperature settled at `t`: a new trend starts from here. */
function settled(world: ThermostatWorld, t: number): ThermostatWorld {
  return { ...world, temperatureC: roomAt(world, t), since: t };
}

function begin(world: ThermostatWorld, src: string, input: unknown, t: number) {
  const id = world.nextOpId;
  const base = { ...world, nextOpId: id + 1 };
  if (src === 'readTemperature')
    return { world: { ...base, ops: [...base.ops, { id, kind: 'read' as const }] }, opId: id, doneAt: t + world.readMs };
  if (src === 'setHeater') {
    const on = typeof input === 'object' && input !== null && 'on' in input && input.on === true;
    return { world: { ...base, ops: [...base.ops, { id, kind: 'switch' as const, on }] }, opId: id, doneAt: t + world.switchMs };
  }
  throw new Error(`thermostat world has no actor "${src}"`);
}

function complete(world0: ThermostatWorld, opId: number, t: number): { world: ThermostatWorld; result: OpResult } {
  const op = world0.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  const world = { ...world0, ops: world0.ops.filter((o) => o.id !== opId) };
  if (op.kind === 'read') return { world, result: { ok: true, output: roomAt(world, t) } };
  const switched = op.on === world.heaterOn ? world : { ...settled(world, t), heaterOn: op.on, switches: world.switches + 1 };
  return { world: switched, result: { ok: true, output: op.on } };
}

function inject(world: ThermostatWorld, fault: ThermostatFault, t: number): { world: ThermostatWorld; note: string } {
  const now = settled(world, t);
  if (fault.kind === 'draught') {
    const temperatureC = Math.max(now.outsideC, now.temperatureC - fault.dropC);
    return { world: { ...now, temperatureC }, note: `a draught: the room drops to ${temperatureC} °C` };
  }
  return { world: { ...now, outsideC: fault.temperatureC }, note: `outside now ${fault.temperatureC} °C` };
}

export const thermostatWorldModel: WorldModel<ThermostatWorld, ThermostatFault, ThermostatWorldSummary> = {
  begin,
  complete,
  inject,
  summary: (w, t) => ({ temperatureC: roomAt(w, t), outsideC: w.outsideC, heaterOn: w.heaterOn, switches: w.switches }),
};
