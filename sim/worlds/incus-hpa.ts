import type { InstanceStatus, Observation, ObservedInstance } from '../../machines/incus-hpa';
import type { CreateInput, DeleteInput } from '../../machines/incus-hpa';
import type { OpResult, WorldModel } from '../model';
import type { RngState } from '../random';
import { drawFloat, drawHex, seedRng } from '../random';
import { formatBytes } from '../units';
import { nameAtRank, nameNextText } from './incus-hpa-names';
import type { HpaWorldSummary } from '../loops/incus-hpa-world-schema';

/** One simulated Incus instance. */
export interface SimInstance {
  name: string;
  /** Value of user.loopscope.hpa, or null for instances the HPA does not own. */
  owner: string | null;
  status: InstanceStatus;
  /** limits.memory in bytes; 0 = no limit (Incus then reports the host's RAM as total). */
  limitBytes: number;
  /** Fixed usage, like the lab's stress-ng in `pod`. */
  stressBytes: number;
  /** Whether the service's shared demand is spread onto this instance. */
  serves: boolean;
  createdAt: number;
  /** A status change already under way (a stop that was not waited for). */
  until?: { at: number; status: InstanceStatus };
}

export interface LatencyMs {
  list: number;
  create: number;
  start: number;
  stop: number;
  delete: number;
}

export interface HpaWorldParams {
  hostMemoryBytes: number;
  /** Memory every running instance uses doing nothing. */
  baselineBytes: number;
  latency: LatencyMs;
  /** Probability that any API call fails on its own. */
  failureProbability: number;
}

type PendingOp =
  | { id: number; kind: 'observe'; doneAt: number; error: string | null }
  | { id: number; kind: 'create'; doneAt: number; error: string | null; name: string }
  | { id: number; kind: 'delete'; doneAt: number; error: string | null; name: string };

export interface HpaWorld {
  rng: RngState;
  params: HpaWorldParams;
  instances: SimInstance[];
  /** The service's demand, shared across its running instances. */
  demandBytes: number;
  /** The next N API calls fail (fault "failApi"). */
  failNext: number;
  /** API latency multiplier and until when it applies (fault "slowApi"). */
  slowFactor: number;
  slowUntil: number;
  nextOpId: number;
  ops: PendingOp[];
  /** Counters the checker and the lab read. */
  apiCalls: number;
  unownedTouched: number;
  /**
   * Where the next created name sorts (how many instances sort before it), when the environment
   * chose it (fault "nameNext", made by the model checker: incus-hpa-names.ts); otherwise the seeded
   * generator's name sorts where it falls.
   */
  nextNameRank?: number;
}

export type HpaFault =
  | { kind: 'demand'; bytes: number }
  | { kind: 'stress'; instance: string; bytes: number }
  | { kind: 'kill'; instance: string }
  | { kind: 'failApi'; calls: number }
  | { kind: 'slowApi'; factor: number; forMs: number }
  | { kind: 'addInstance'; name: string; owner: string | null; limitBytes: number; stressBytes: number; serves: boolean }
  | { kind: 'deleteInstance'; instance: string }
  | { kind: 'restartController' }
  | { kind: 'nameNext'; rank: number };

export function createHpaWorld(seed: number, params: HpaWorldParams, instances: SimInstance[], demandBytes = 0): HpaWorld {
  return {
    rng: seedRng(seed),
    params,
    instances: sortByName(instances),
    demandBytes,
    failNext: 0,
    slowFactor: 1,
    slowUntil: 0,
    nextOpId: 1,
    ops: [],
    apiCalls: 0,
    unownedTouched: 0,
  };
}

// Incus lists instances ordered by name; the seed's "delete the last one" depends on it.
const sortByName = (list: SimInstance[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * Applies status changes that were due by time t (lazy: only state at read time matters). The last
 * answer is kept: the model checker asks for one state's settled world once per move, for its key
 * and for each property, and a world is never changed in place.
 */
export function settle(world: HpaWorld, t: number): HpaWorld {
  if (lastSettled !== undefined && world === lastSettled.world && t === lastSettled.t) return lastSettled.settled;
  const settled = settleNow(world, t);
  lastSettled = { world, t, settled };
  return settled;
}
let lastSettled: { world: HpaWorld; t: number; settled: HpaWorld } | undefined;

function settleNow(world: HpaWorld, t: number): HpaWorld {
  if (!world.instances.some((i) => i.until && i.until.at <= t)) return world;
  return {
    ...world,
    instances: world.instances.map((i) => {
      if (!i.until || i.until.at > t) return i;
      const { until, ...rest } = i;
      return { ...rest, status: until.status };
    }),
  };
}

/** Memory use of each instance: baseline + its share of the demand + its stress, capped at total. */
function memoryOf(world: HpaWorld): Map<string, { usage: number; total: number }> {
  const serving = world.instances.filter((i) => i.status === 'Running' && i.serves).length;
  const share = serving > 0 ? world.demandBytes / serving : 0;
  const out = new Map<string, { usage: number; total: number }>();
  for (const i of world.instances) {
    const total = i.limitBytes > 0 ? i.limitBytes : world.params.hostMemoryBytes;
    if (i.status !== 'Running') {
      out.set(i.name, { usage: 0, total: i.status === 'Starting' ? total : 0 });
      continue;
    }
    // Usage above the limit is capped: the kernel reclaims or OOM-kills; we keep it simple.
    const usage = Math.min(total, Math.round(world.params.baselineBytes + (i.serves ? share : 0) + i.stressBytes));
    out.set(i.name, { usage, total });
  }
  return out;
}

export function observe(world: HpaWorld, t: number): Observation {
  const mem = memoryOf(world);
  const instances: ObservedInstance[] = world.instances.map((i) => ({
    name: i.name,
    status: i.status,
    owner: i.owner,
    memoryUsage: mem.get(i.name)?.usage ?? 0,
    memoryTotal: mem.get(i.name)?.total ?? 0,
    createdAt: i.createdAt,
  }));
  return { at: t, instances };
}

/** The longest one API operation takes at normal speed (a create with its start, a stop with its delete). */
export function longestOpMs(world: HpaWorld): number {
  const l = world.params.latency;
  return Math.max(l.list, l.create + l.start, l.stop + l.delete);
}

function latency(world: HpaWorld, base: number, t: number): number {
  return Math.round(base * (t < world.slowUntil ? world.slowFactor : 1));
}

/** Decides whether this API call fails (failNext first, then the failure probability). */
function callFails(world: HpaWorld): { world: HpaWorld; failed: boolean } {
  const w = { ...world, apiCalls: world.apiCalls + 1 };
  if (w.failNext > 0) return { world: { ...w, failNext: w.failNext - 1 }, failed: true };
  if (w.params.failureProbability <= 0) return { world: w, failed: false };
  const [x, rng] = drawFloat(w.rng);
  return { world: { ...w, rng }, failed: x < w.params.failureProbability };
}

const API_DOWN = 'Incus API unavailable (injected failure)';

function begin(world0: HpaWorld, src: string, input: unknown, t: number) {
  let world = settle(world0, t);
  const id = world.nextOpId;
  world = { ...world, nextOpId: id + 1 };
  const { latency: lat } = world.params;
  const fail = callFails(world);
  world = fail.world;
  const error = fail.failed ? API_DOWN : null;

  if (src === 'observe') {
    const doneAt = t + latency(world, lat.list, t);
    return { world: { ...world, ops: [...world.ops, { id, kind: 'observe' as const, doneAt, error }] }, opId: id, doneAt };
  }
  if (src === 'createPod') {
    const { config } = input as CreateInput; // cast: setup() types createPod's input as CreateInput
    const doneAt = t + latency(world, lat.create + lat.start, t);
    if (error)
      return { world: { ...world, ops: [...world.ops, { id, kind: 'create' as const, doneAt, error, name: '' }] }, opId: id, doneAt };
    const [hex, rng] = drawHex(world.rng, 8);
    const { nextNameRank: rank, ...rest } = world;
    // A rank the environment chose wins over the generator's draw (still drawn: later names stay the seed's).
    const ranked =
      rank === undefined
        ? undefined
        : nameAtRank(
            config.namePrefix,
            world.instances.map((i) => i.name),
            rank,
          );
    world = rest;
    const name = ranked ?? `${config.namePrefix}${hex}`;
    const instance: SimInstance = {
      name,
      owner: config.name,
      status: 'Starting',
      limitBytes: config.limitsMemoryBytes,
      stressBytes: 0,
      serves: true,
      createdAt: t,
    };
    return {
      world: {
        ...world,
        rng,
        instances: sortByName([...world.instances, instance]),
        ops: [...world.ops, { id, kind: 'create' as const, doneAt, error, name }],
      },
      opId: id,
      doneAt,
    };
  }
  if (src === 'deletePod') {
    const { name, waitForStop, config } = input as DeleteInput; // cast: setup() types deletePod's input as DeleteInput
    const target = world.instances.find((i) => i.name === name);
    if (target && target.owner !== config.name) world = { ...world, unownedTouched: world.unownedTouched + 1 };
    if (error || !target) {
      const doneAt = t + latency(world, lat.list, t);
      return {
        world: {
          ...world,
          ops: [...world.ops, { id, kind: 'delete' as const, doneAt, error: error ?? `Instance not found: ${name}`, name }],
        },
        opId: id,
        doneAt,
      };
    }
    if (target.status === 'Stopped' || target.status === 'Error') {
      const doneAt = t + latency(world, lat.delete, t);
      return { world: { ...world, ops: [...world.ops, { id, kind: 'delete' as const, doneAt, error: null, name }] }, opId: id, doneAt };
    }
    const stopDone = t + latency(world, lat.stop, t);
    const stopping = world.instances.map((i) =>
      i.name === name ? { ...i, status: 'Stopping' as const, until: { at: stopDone, status: 'Stopped' as const } } : i,
    );
    world = { ...world, instances: stopping };
    if (!waitForStop) {
      // The seed fires the stop and sends DELETE at once: Incus answers 400 "Instance is running".
      const doneAt = t + latency(world, lat.list, t);
      return {
        world: {
          ...world,
          apiCalls: world.apiCalls + 1,
          ops: [...world.ops, { id, kind: 'delete' as const, doneAt, error: 'Instance is running', name }],
        },
        opId: id,
        doneAt,
      };
    }
    const doneAt = stopDone + latency(world, lat.delete, t);
    return {
      world: { ...world, apiCalls: world.apiCalls + 1, ops: [...world.ops, { id, kind: 'delete' as const, doneAt, error: null, name }] },
      opId: id,
      doneAt,
    };
  }
  throw new Error(`incus-hpa world has no actor "${src}"`);
}

function complete(world0: HpaWorld, opId: number, t: number): { world: HpaWorld; result: OpResult } {
  let world = settle(world0, t);
  const op = world.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  world = { ...world, ops: world.ops.filter((o) => o.id !== opId) };
  if (op.kind === 'observe') {
    return { world, result: op.error ? { ok: false, error: op.error } : { ok: true, output: observe(world, t) } };
  }
  if (op.error) return { world, result: { ok: false, error: op.error } };
  if (op.kind === 'create') {
    const exists = world.instances.some((i) => i.name === op.name);
    // Killed or deleted while starting: the start operation fails.
    if (!exists) return { world, result: { ok: false, error: `Instance not found: ${op.name}` } };
    const instances = world.instances.map((i) =>
      i.name === op.name && i.status === 'Starting' ? { ...i, status: 'Running' as const } : i,
    );
    return { world: { ...world, instances }, result: { ok: true, output: { name: op.name } } };
  }
  const exists = world.instances.some((i) => i.name === op.name);
  if (!exists) return { world, result: { ok: false, error: `Instance not found: ${op.name}` } };
  return { world: { ...world, instances: world.instances.filter((i) => i.name !== op.name) }, result: { ok: true } };
}

function inject(world0: HpaWorld, fault: HpaFault, t: number): { world: HpaWorld; note: string } {
  const world = settle(world0, t);
  const map = (name: string, f: (i: SimInstance) => SimInstance) => world.instances.map((i) => (i.name === name ? f(i) : i));
  // A fault aimed at an instance that is already gone (scaled in, deleted) changes nothing.
  const gone = (name: string) => !world.instances.some((i) => i.name === name);
  const missing = (what: string, name: string) => ({ world, note: `${what} ${name}: no such instance (already gone)` });
  switch (fault.kind) {
    case 'demand':
      return { world: { ...world, demandBytes: fault.bytes }, note: `demand → ${formatBytes(fault.bytes)}` };
    case 'stress':
      if (gone(fault.instance)) return missing('stress', fault.instance);
      return {
        world: { ...world, instances: map(fault.instance, (i) => ({ ...i, stressBytes: fault.bytes })) },
        note: `stress ${fault.instance} → ${formatBytes(fault.bytes)}`,
      };
    case 'kill':
      if (gone(fault.instance)) return missing('kill', fault.instance);
      // An instance whose init dies is Stopped (what Incus reports after a crash or OOM kill).
      return {
        world: { ...world, instances: map(fault.instance, ({ until: _u, ...i }) => ({ ...i, status: 'Stopped' as const })) },
        note: `killed ${fault.instance}`,
      };
    case 'failApi':
      return { world: { ...world, failNext: world.failNext + fault.calls }, note: `next ${fault.calls} API calls fail` };
    case 'slowApi':
      return {
        world: { ...world, slowFactor: fault.factor, slowUntil: t + fault.forMs },
        note: `API ${fault.factor}× slower for ${fault.forMs / 1000}s`,
      };
    case 'addInstance': {
      // Incus refuses a second instance of a name (POST /1.0/instances: "Instance … already exists"): nothing changes.
      if (world.instances.some((i) => i.name === fault.name))
        return { world, note: `create ${fault.name}: an instance of that name already exists` };
      const inst: SimInstance = {
        name: fault.name,
        owner: fault.owner,
        status: 'Running',
        limitBytes: fault.limitBytes,
        stressBytes: fault.stressBytes,
        serves: fault.serves,
        createdAt: t,
      };
      return {
        world: { ...world, instances: sortByName([...world.instances, inst]) },
        note: `someone created ${fault.name}${fault.owner ? '' : ' (not owned by the HPA)'}`,
      };
    }
    case 'deleteInstance':
      if (gone(fault.instance)) return missing('delete', fault.instance);
      return {
        world: { ...world, instances: world.instances.filter((i) => i.name !== fault.instance) },
        note: `someone deleted ${fault.instance}`,
      };
    case 'restartController':
      return { world, note: 'controller restart' }; // handled by the runner
    case 'nameNext':
      return {
        world: { ...world, nextNameRank: fault.rank },
        note: nameNextText(fault.rank),
      };
  }
}

function summary(world0: HpaWorld, t: number): HpaWorldSummary {
  const world = settle(world0, t);
  const mem = memoryOf(world);
  return {
    demand: world.demandBytes,
    pods: world.instances.map((i) => {
      const m = mem.get(i.name) ?? { usage: 0, total: 0 };
      return {
        name: i.name,
        status: i.status,
        owned: i.owner !== null,
        usage: m.usage,
        total: m.total,
        pct: m.total > 0 && i.status === 'Running' ? Math.floor((m.usage * 100) / m.total) : null,
      };
    }),
    apiCalls: world.apiCalls,
    unownedTouched: world.unownedTouched,
  };
}

export const hpaWorldModel: WorldModel<HpaWorld, HpaFault, HpaWorldSummary> = { begin, complete, inject, summary };
