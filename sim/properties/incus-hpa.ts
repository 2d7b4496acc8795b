import type { HpaConfig, HpaContext, HpaAction, InstanceStatus } from '../../machines/incus-hpa';
import { backoffDelay, isModulePolicy } from '../../machines/incus-hpa';
import type { CheckProperty, CheckView, EnvMove, LoopCheck, CheckState } from '../check/model';
import { opPositions, writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
import { ContentDigests, writeSnapshot } from '../check/snapshot-key';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { TimelineEntry } from '../runner';
import { InputError } from '../scenario/errors';
import { formatBytes } from '../units';
import type { HpaFault, HpaWorld, SimInstance } from '../worlds/incus-hpa';
import { longestOpMs, settle } from '../worlds/incus-hpa';
import { nameNextText } from '../worlds/incus-hpa-names';
import { nameChoiceApplies, nameChoicePending, nameChoices } from './incus-hpa-name-choice';

type View = CheckView<HpaWorld, HpaConfig, HpaContext>;
type Property = CheckProperty<HpaWorld, HpaConfig, HpaContext>;
type Entry = TimelineEntry<HpaFault, HpaConfig>;

const ctxOf = (v: View) => v.snapshot.context;
/** The world as it is at the view's instant (status changes already due are applied). */
const worldAt = (v: View) => settle(v.world, v.t);
/** The instances the controller owns at the view's instant; the last answer is kept (several properties read one state's). */
const ownedOf = (v: View): SimInstance[] => {
  const world = worldAt(v);
  const name = ctxOf(v).config.name;
  if (lastOwned === undefined || lastOwned.world !== world || lastOwned.name !== name)
    lastOwned = { world, name, owned: world.instances.filter((i) => i.owner === name) };
  return lastOwned.owned;
};
let lastOwned: { world: HpaWorld; name: string; owned: SimInstance[] } | undefined;
const countStatus = (list: SimInstance[], ...statuses: InstanceStatus[]) => list.filter((i) => statuses.includes(i.status)).length;

// ---- what is claimed ------------------------------------------------------------------------

export const neverTouchesUnowned: Property = {
  name: 'never-touches-unowned',
  kind: 'always',
  claim: 'never stops or deletes an instance without its owner key (world.unownedTouched = 0)',
  holds: (v) => v.world.unownedTouched === 0,
};

/** Checked while a create is in flight: the world then already holds the new Starting instance.
 * (An initial world above max is allowed; the claim is that the loop never creates past max.) */
export const atMostMax: Property = {
  name: 'at-most-max',
  kind: 'always',
  claim: 'while it creates, owned Starting + Running instances ≤ maxPods (it never creates past max)',
  holds: (v) => v.snapshot.children.createPod === undefined || countStatus(ownedOf(v), 'Starting', 'Running') <= ctxOf(v).config.maxPods,
};

export const oneOperationAtATime: Property = {
  name: 'one-operation-at-a-time',
  kind: 'always',
  claim: 'the controller has at most one API operation in flight (it acts sequentially)',
  holds: (v) => Object.keys(v.snapshot.children).length <= 1,
};

const scalesToMax: Property = {
  name: 'scales-to-max',
  kind: 'sometimes',
  claim: 'some run reaches maxPods owned Running instances (the bounds let it scale out)',
  holds: (v) => countStatus(ownedOf(v), 'Running') === ctxOf(v).config.maxPods,
};

const backsOff: Property = {
  name: 'backs-off',
  kind: 'sometimes',
  claim: 'some run reaches the error (backoff) phase',
  holds: (v) => v.snapshot.hasTag('error'),
};

/** Count in range and settled: nothing starting or stopping, so the count holds still. */
export function countSettled(v: View): boolean {
  const owned = ownedOf(v);
  const { minPods, maxPods } = ctxOf(v).config;
  const running = countStatus(owned, 'Running');
  return countStatus(owned, 'Starting', 'Stopping') === 0 && running >= minPods && running <= maxPods;
}

export const noLeftovers = (v: View) => countStatus(ownedOf(v), 'Stopped', 'Error') === 0;

/** API failures the environment may leave queued (the `failApi` calls), and the longest one call takes. */
export interface QueuedFailures {
  failures: number;
  longestOpMs: number;
}
const NO_QUEUED_FAILURES: QueuedFailures = { failures: 0, longestOpMs: 0 };

/** The failures a timeline's `failApi` entries queue, at most (each entry counted once): a scenario's
 * faults, or a generated schedule's (test/check), which name the same `failApi` fault. */
export const queuedFailures = (faults: readonly { kind: string; calls?: number }[], world: HpaWorld): QueuedFailures => ({
  failures: faults.reduce((n, f) => n + (f.kind === 'failApi' ? (f.calls ?? 0) : 0), 0),
  longestOpMs: longestOpMs(world),
});

/**
 * K, the convergence bound, in periods of virtual time after the last fault:
 *   1 period to the next observe + ceil(backoff.max / period) for a failed call to be retried
 *   + (max − min) scale steps (fixed and seed take one step a period) + 1 period for the last
 *   step's operations (create + start, stop + delete: seconds each);
 *   kubernetes adds ceil(window / period): a scale-down waits out its stabilisation window;
 *   each API failure queued beyond the first (`failApi: N`) adds ceil((backoff.max + the longest
 *   operation) / period): a fault that fails the next N calls stops only when they have failed.
 * The seed is held to fixed's bound: it promises nothing, the table shows what it misses.
 */
export function convergencePeriods(config: HpaConfig, queued: QueuedFailures = NO_QUEUED_FAILURES): number {
  // Each further API failure still queued when the environment stops (`failApi: N` fails the next N
  // calls, whenever they come) costs one more retry: the failed call and a backoff of up to its maximum.
  const retries = Math.max(0, queued.failures - 1) * Math.ceil((config.backoffMaxMs + queued.longestOpMs) / config.periodMs);
  const base = 2 + Math.ceil(config.backoffMaxMs / config.periodMs) + (config.maxPods - config.minPods) + retries;
  return config.policy === 'kubernetes' ? base + Math.ceil(config.downscaleStabilizationMs / config.periodMs) : base;
}

const PROMISES: Record<'seed' | 'kubernetes' | 'fixed' | 'module', readonly string[]> = {
  // fixed.ts: owner key only, Starting counts, clamped to [min, max], leftovers removed.
  fixed: ['never-touches-unowned', 'at-most-max', 'one-operation-at-a-time', 'converges', 'no-leftovers'],
  // kubernetes.ts: owner key only, current = Starting + Running, bounded by [min, max]; it ignores
  // Stopped/Error pods like upstream ignores Failed ones (garbage collection is not the HPA's job).
  kubernetes: ['never-touches-unowned', 'at-most-max', 'one-operation-at-a-time', 'converges'],
  // seed.ts: the talk's rule as written; only the machine's own structure is promised.
  seed: ['one-operation-at-a-time'],
  // A user's policy module (policy: { module }) is held to what the kubernetes policy promises,
  // and to answering: a Decision for every observation, never a throw, a hang or a wrong shape.
  module: ['never-touches-unowned', 'at-most-max', 'one-operation-at-a-time', 'converges', 'policy-decides'],
};

export const promisesOf = (config: HpaConfig): readonly string[] => PROMISES[isModulePolicy(config.policy) ? 'module' : config.policy];

/** Module policies only: a failure fails the period (machine.ts decide); the explorer finds the shortest way to one. */
const policyDecides: Property = {
  name: 'policy-decides',
  kind: 'always',
  claim: 'the policy module returns a valid Decision for every observation (it never throws, hangs or answers another shape)',
  holds: (v) => !ctxOf(v).policyFailed,
};

export function hpaProperties(
  config: HpaConfig,
  alphabet: readonly EnvMove<HpaFault, HpaConfig>[],
  withinPeriods?: number,
  world?: HpaWorld,
): Property[] {
  const faults = alphabet.flatMap((m) => ('fault' in m.entry ? [m.entry.fault] : []));
  const periods = withinPeriods ?? convergencePeriods(config, world ? queuedFailures(faults, world) : NO_QUEUED_FAILURES);
  const withinMs = periods * config.periodMs;
  const within = `${periods} periods (${withinMs / 1000}s)`;
  const out: Property[] = [
    neverTouchesUnowned,
    atMostMax,
    oneOperationAtATime,
    {
      name: 'converges',
      kind: 'eventually',
      withinMs,
      within,
      claim: `once faults stop, within ${within}: owned Running count in [min, max], none starting or stopping, and it stays so`,
      holds: countSettled,
    },
    {
      name: 'no-leftovers',
      kind: 'eventually',
      withinMs,
      within,
      claim: `once faults stop, within ${within}: no owned instance is left Stopped or in Error, and none appears again`,
      holds: noLeftovers,
    },
    scalesToMax,
  ];
  if (isModulePolicy(config.policy)) out.splice(3, 0, policyDecides);
  const fails = alphabet.some((m) => 'fault' in m.entry && m.entry.fault.kind === 'failApi');
  if (fails) out.push(backsOff);
  return out;
}

// ---- what the environment may do ------------------------------------------------------------

function hpaLabel(entry: Entry): string {
  if ('config' in entry) return `config ${JSON.stringify(entry.config)}`;
  const f = entry.fault;
  switch (f.kind) {
    case 'demand':
      return `demand ${formatBytes(f.bytes)}`;
    case 'stress':
      return `stress ${f.instance} ${formatBytes(f.bytes)}`;
    case 'kill':
      return `kill ${f.instance}`;
    case 'failApi':
      return `fail next ${f.calls} API call${f.calls > 1 ? 's' : ''}`;
    case 'slowApi':
      return `API ${f.factor}× slower for ${f.forMs / 1000}s`;
    case 'addInstance':
      return `someone creates ${f.name}${f.owner ? '' : ' (unowned)'}`;
    case 'deleteInstance':
      return `someone deletes ${f.instance}`;
    case 'restartController':
      return 'controller restart';
    case 'nameNext':
      return nameNextText(f.rank);
  }
}

function applicable(state: CheckState<HpaWorld, HpaConfig, HpaContext>, entry: Entry): boolean {
  const world = settle(state.world, state.t);
  if (nameChoicePending(state, world)) return false;
  if ('config' in entry) return true;
  const f = entry.fault;
  const find = (name: string) => world.instances.find((i) => i.name === name);
  switch (f.kind) {
    case 'demand':
      return world.demandBytes !== f.bytes;
    case 'stress':
      return find(f.instance) !== undefined && find(f.instance)!.stressBytes !== f.bytes;
    case 'kill': {
      const i = find(f.instance);
      return i !== undefined && i.status !== 'Stopped';
    }
    case 'deleteInstance':
      return find(f.instance) !== undefined;
    case 'addInstance':
      return find(f.name) === undefined;
    case 'nameNext':
      return nameChoiceApplies(state, world, f.rank);
    default:
      return true;
  }
}

function validate(scenario: LoadedScenario<HpaWorld, HpaFault, HpaConfig>): void {
  if (scenario.world.params.failureProbability > 0) {
    throw new InputError(
      scenario.file,
      'world.failureProbability',
      'expected 0 for check: the explorer branches on API failures itself (list failApi entries in the timeline)',
    );
  }
  if (scenario.timeline.length > 24) {
    throw new InputError(
      scenario.file,
      'timeline',
      `expected at most 24 entries for check (each is a move the environment may make at any instant), got ${scenario.timeline.length}`,
    );
  }
  if (scenario.timeline.some((e) => 'config' in e)) {
    throw new InputError(scenario.file, 'timeline', 'expected no config changes for check: the properties compare against one config');
  }
}

// ---- which parts of a state matter for its future ------------------------------------------

const STATUS_CODE: Record<InstanceStatus, number> = { Starting: 0, Running: 1, Stopping: 2, Stopped: 3, Frozen: 4, Error: 5 };

/**
 * The canonical key: everything the future depends on, with times relative to now.
 * - instance names: kept when the scenario names them; a created name (prefix + random hex) is
 *   replaced by its position in Incus's name-ordered list — its order is all that matters. The
 *   name generator's state is left out: where the next name sorts is the environment's choice
 *   (incus-hpa-name-choice.ts), so every place is searched whatever the generator would draw.
 * - createdAt → its rank among the instances (policies only compare creation times).
 * - context.observation / decision / lastError / periods are not read again once the decision is
 *   taken (only by notes), so they are left out; consecutiveErrors is capped where the backoff
 *   stops growing; kubernetes recommendations older than the window are never read again.
 * - a policy module's memory is kept whole (recommendations relative to now, its state as is):
 *   like the built-ins, a module must read times only as differences (documented in its API).
 * - world counters: apiCalls and op ids are left out, unownedTouched is capped at 1.
 */
function canonicalizer(start: { config: HpaConfig; world: HpaWorld }, alphabet: readonly EnvMove<HpaFault, HpaConfig>[]) {
  const named = new Set(start.world.instances.map((i) => i.name));
  for (const m of alphabet) {
    if ('config' in m.entry) continue;
    const f = m.entry.fault;
    if ('instance' in f) named.add(f.instance);
    if (f.kind === 'addInstance') named.add(f.name);
  }
  const configs = new ContentDigests();
  let errorCap = -1;

  return (state: CheckState<HpaWorld, HpaConfig, HpaContext>, key: KeyWriter): void => {
    const { t } = state;
    const w = settle(state.world, t);
    const ctx = state.snapshot.context;
    if (errorCap < 0) {
      errorCap = 1;
      while (backoffDelay(ctx.config, errorCap) < ctx.config.backoffMaxMs && errorCap < 64) errorCap++;
    }
    const writeName = (name: string) => {
      if (named.has(name) || name === '') return key.str(name);
      // -1: an instance that is gone (named by an operation still in flight)
      key.num(w.instances.findIndex((i) => i.name === name));
    };
    const created = [...new Set(w.instances.map((i) => i.createdAt))].sort((a, b) => a - b);
    const ownerName = ctx.config.name;

    writeSnapshot(state.snapshot, key);
    key.list(ctx.pending.length);
    for (const a of ctx.pending as readonly HpaAction[]) {
      if (a.kind === 'create') key.num(0);
      else {
        key.num(a.waitForStop ? 2 : 1);
        writeName(a.name);
      }
    }
    key.num(Math.min(ctx.consecutiveErrors, errorCap));
    const recommendations = ctx.policyMemory.recommendations;
    key.flag(recommendations.length > 0);
    if (recommendations.length) {
      // A policy module may read any of its recommendations: only the kubernetes policy's expire.
      const live = isModulePolicy(ctx.config.policy)
        ? recommendations
        : recommendations.filter((r) => r.at >= t - ctx.config.downscaleStabilizationMs);
      key.list(live.length);
      for (const r of [...live].sort((a, b) => a.at - b.at || a.replicas - b.replicas)) {
        key.num(r.at - t);
        key.num(r.replicas);
      }
    }
    // A policy module's own state is opaque: all of it matters (its times are not made relative).
    key.flag(ctx.policyMemory.state !== undefined);
    if (ctx.policyMemory.state !== undefined) key.str(JSON.stringify(ctx.policyMemory.state));
    key.flag(ctx.policyFailed);
    key.num(w.nextNameRank ?? -1);
    configs.write(ctx.config, key);
    key.flag(state.config === ctx.config);
    if (state.config !== ctx.config) configs.write(state.config, key);
    key.num(w.demandBytes);
    key.num(w.failNext);
    key.flag(w.slowUntil > t);
    if (w.slowUntil > t) {
      key.num(w.slowFactor);
      key.num(w.slowUntil - t);
    }
    key.flag(w.unownedTouched > 0);
    key.list(w.instances.length);
    for (const i of w.instances) {
      writeName(i.name);
      if (i.owner === ownerName) key.num(0);
      else if (i.owner === null) key.num(1);
      else key.str(i.owner);
      key.num(STATUS_CODE[i.status]);
      key.num(i.limitBytes);
      key.num(i.stressBytes);
      key.flag(i.serves);
      key.num(created.indexOf(i.createdAt));
      key.flag(i.until !== undefined);
      if (i.until) {
        key.num(i.until.at - t);
        key.num(STATUS_CODE[i.until.status]);
      }
    }
    key.list(w.ops.length);
    for (const o of w.ops) {
      key.str(o.kind);
      key.num(o.doneAt - t);
      key.flag(Boolean(o.error));
      key.flag('name' in o);
      if ('name' in o) writeName(o.name);
    }
    writeQueue(state, key, opPositions(w.ops));
  };
}

export const hpaCheck: LoopCheck<HpaWorld, HpaFault, HpaConfig, HpaContext> = {
  loop: 'incus-hpa',
  validate,
  label: hpaLabel,
  applicable,
  choices: nameChoices,
  canonicalizer,
  // Symmetry (sim/check/symmetry.ts): the order of created names is read, so they are not interchangeable;
  // the canonical key already keeps only that order (a created name becomes its position).
  symmetry: {
    none: 'Incus lists instances by name and the policies read that order (the seed deletes the last one, fixed removes leftovers in name order, kubernetes sorts stably over it); the key already keeps only the order of created names',
  },
  properties: hpaProperties,
  promises: promisesOf,
};
