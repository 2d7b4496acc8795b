import type { ResourceConfig, TerraformContext } from '../../machines/terraform';
import { SCHEMAS, dependenciesOf, hasChanges, plan } from '../../machines/terraform';
import type { CheckProperty, CheckView, EnvMove, LoopCheck } from '../check/model';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { TerraformLoopConfig } from '../loops/terraform';
import type { TimelineEntry } from '../runner';
import { InputError } from '../scenario/errors';
import type { StepState } from '../step';
import type { TerraformFault, TerraformWorld } from '../worlds/terraform';
import { BACKEND_MS, DEFAULT_TIMINGS, READ_MS, objectAt } from '../worlds/terraform';
import { terraformCanonicalizer } from './terraform-key';

type View = CheckView<TerraformWorld, TerraformLoopConfig, TerraformContext>;
type Property = CheckProperty<TerraformWorld, TerraformLoopConfig, TerraformContext>;
type Entry = TimelineEntry<TerraformFault, TerraformLoopConfig>;
type Move = EnvMove<TerraformFault, TerraformLoopConfig>;

const ctxOf = (v: View) => v.snapshot.context;
/** The configuration the running terraform read when its run started (what it plans and applies). */
const runConfigOf = (v: View) => ctxOf(v).runConfig.resources;

// ---- the configuration's graph (memoised: a configuration is one shared object) -------------

const directCache = new WeakMap<ResourceConfig[], Map<string, string[]>>();
const closureCache = new WeakMap<ResourceConfig[], Map<string, Set<string>>>();

function direct(config: ResourceConfig[]): Map<string, string[]> {
  let hit = directCache.get(config);
  if (!hit) {
    hit = new Map(config.map((r) => [r.address, dependenciesOf(r)]));
    directCache.set(config, hit);
  }
  return hit;
}

/** Everything each resource depends on, transitively. */
function upstream(config: ResourceConfig[]): Map<string, Set<string>> {
  let hit = closureCache.get(config);
  if (hit) return hit;
  const deps = direct(config);
  hit = new Map();
  for (const a of deps.keys()) {
    const seen = new Set<string>();
    const stack = [...(deps.get(a) ?? [])];
    while (stack.length) {
      const d = stack.pop()!;
      if (!seen.has(d)) {
        seen.add(d);
        stack.push(...(deps.get(d) ?? []));
      }
    }
    hit.set(a, seen);
  }
  closureCache.set(config, hit);
  return hit;
}

// ---- who holds the lock --------------------------------------------------------------------

/**
 * The lock the running terraform process holds or is being granted; null when none. While it
 * locks, its request is the latest lock call in flight: a restarted process asks at once, so an
 * earlier request still in flight belongs to the process that was killed.
 */
function liveLockId(v: View): string | null {
  const ctx = ctxOf(v);
  if (ctx.lockId) return ctx.lockId;
  if (v.snapshot.value !== 'locking') return null;
  const request = v.world.ops.filter((o) => o.kind === 'lock').at(-1);
  return request?.kind === 'lock' && request.result.ok ? String(request.result.output) : null;
}

/** A lock no running process holds: only `terraform force-unlock` removes it. */
export const staleLock = (v: View): boolean => v.world.lock !== null && v.world.lock.id !== liveLockId(v);

const sameAttrs = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);

/**
 * Converged: no stale lock; every object in the state exists, untainted, with the attributes the
 * state records (refresh would find no drift); and a plan of the configuration against that state
 * has no change and no error — the next run would make no cloud call and write nothing.
 */
export function converged(v: View): boolean {
  if (staleLock(v)) return false;
  const state = v.world.state.resources;
  for (const s of Object.values(state)) {
    const o = v.world.cloud[s.id];
    if (!o || s.tainted || !sameAttrs(o.attrs, s.attrs)) return false;
  }
  const p = plan(v.config.resources, state);
  return p.errors.length === 0 && !hasChanges(p);
}

/** Every object in the cloud is one the state file points at (Terraform knows what it created). */
function noOrphans(v: View): boolean {
  const known = new Set(Object.values(v.world.state.resources).map((s) => s.id));
  return Object.keys(v.world.cloud).every((id) => known.has(id));
}

// ---- always: checked in every state; the world's monitor holds the current run's calls -------

/**
 * The apply graph (graph_builder_apply.go): a create/update begins only once the creates/updates
 * of its dependencies in the same run have returned; a delete only once the deletes of its
 * dependents have returned.
 */
export const applyRespectsDependencies: Property = {
  name: 'apply-respects-dependencies',
  kind: 'always',
  claim:
    "in a run, a create/update starts after its dependencies' creates/updates returned; a delete after its dependents' deletes returned",
  holds: (v) => {
    const deps = direct(runConfigOf(v));
    const run = v.world.monitor.run;
    // `later` began after c, or was still in flight when c began: it had not returned.
    const notBefore = (i: number, j: number) => j > i || run[i]!.busy.includes(run[j]!.address);
    return run.every((c, i) =>
      run.every((o, j) => {
        if (c.kind === 'delete') return !(o.kind === 'delete' && (deps.get(o.address) ?? []).includes(c.address) && notBefore(i, j));
        return !(o.kind !== 'delete' && (deps.get(c.address) ?? []).includes(o.address) && notBefore(i, j));
      }),
    );
  },
};

/** A failed create/update blocks what depends on it (transitively) for the rest of the run. */
export const failureStopsDependents: Property = {
  name: 'failure-stops-dependents',
  kind: 'always',
  claim: 'after a create/update failed, nothing downstream of it is created or updated in that run',
  holds: (v) => {
    const up = upstream(runConfigOf(v));
    const run = v.world.monitor.run;
    return run.every(
      (f, i) =>
        f.ok !== false ||
        f.kind === 'delete' ||
        run.every((c, j) => !(j > i && !c.busy.includes(f.address) && c.kind !== 'delete' && up.get(c.address)?.has(f.address))),
    );
  },
};

/**
 * lifecycle.prevent_destroy, against the configuration the run read (the docs: it does not
 * protect a resource whose block was removed; an edit made during a run counts from the next).
 */
export const preventDestroyHonoured: Property = {
  name: 'prevent-destroy-honoured',
  kind: 'always',
  claim: 'no run makes a delete call for a resource its configuration marks lifecycle.prevent_destroy',
  holds: (v) =>
    v.world.monitor.run.every(
      (c) => !(c.kind === 'delete' && runConfigOf(v).some((r) => r.address === c.address && r.lifecycle.preventDestroy)),
    ),
};

/** statemgr.Locker: writes happen under the lock; the serial grows with each write. */
export const stateWritesLockedAndOrdered: Property = {
  name: 'state-writes-locked-and-ordered',
  kind: 'always',
  claim: 'every state write is made by the holder of the lock, with a serial above the previous one',
  holds: (v) => v.world.monitor.unlockedWrites === 0 && v.world.monitor.serialRegressions === 0,
};

/** create_before_destroy and the resources it propagates to (what a marked resource depends on), as in plan.ts. */
function createBeforeDestroy(config: ResourceConfig[]): Set<string> {
  const byAddress = new Map(config.map((r) => [r.address, r]));
  const out = new Set<string>();
  const mark = (a: string) => {
    if (out.has(a) || !byAddress.has(a)) return;
    out.add(a);
    dependenciesOf(byAddress.get(a)!).forEach(mark);
  };
  config.filter((r) => r.lifecycle.createBeforeDestroy).forEach((r) => mark(r.address));
  return out;
}

/**
 * lifecycle.create_before_destroy: "the new replacement object is created first, and the prior
 * object is destroyed after the replacement is created". Checked while a delete is in flight: the
 * object deleted is not the one the state points at for that address (a deposed object's address
 * is its resource's) — the -/+ order deletes the current object first. (Whether the replacement
 * still exists is not Terraform's doing: someone may have deleted it meanwhile.)
 */
export const createBeforeDestroyHonoured: Property = {
  name: 'create-before-destroy-honoured',
  kind: 'always',
  claim:
    'a create_before_destroy resource never has its current object deleted: only a prior one, once the state points at its replacement',
  holds: (v) => {
    const cbd = createBeforeDestroy(runConfigOf(v));
    return v.world.ops.every((o) => {
      if (o.kind !== 'apply' || o.input.op.kind !== 'delete') return true;
      const address = v.world.state.resources[o.input.op.address]?.deposedOf ?? o.input.op.address;
      if (!cbd.has(address)) return true;
      return v.world.state.resources[address]?.id !== o.input.op.objectId;
    });
  },
};

const neverDestroysData: Property = {
  name: 'never-destroys-data',
  kind: 'always',
  claim: 'Terraform never deletes an object that holds data (a database, a bucket with objects)',
  holds: (v) => v.world.monitor.destroyedDataGb === 0,
};

// ---- sometimes: the bounds let the interesting thing happen ------------------------------------

const reachesConverged: Property = {
  name: 'reaches-converged',
  kind: 'sometimes',
  claim: 'some run reaches a converged state (the bounds let it apply the configuration)',
  holds: converged,
};

/** The bounds let a create_before_destroy replacement happen: the prior object is deposed in the state. */
const replacedCreateFirst: Property = {
  name: 'replaced-create-first',
  kind: 'sometimes',
  claim: 'some run replaces an object create-first (the prior object is deposed in the state)',
  holds: (v) => Object.values(v.world.state.resources).some((s) => s.deposedOf !== undefined),
};

const planRefused: Property = {
  name: 'plan-refused',
  kind: 'sometimes',
  claim: 'some plan is refused ("Instance cannot be destroyed": prevent_destroy)',
  holds: (v) => (ctxOf(v).plan?.errors.length ?? 0) > 0,
};

const createFailed: Property = {
  name: 'create-failed',
  kind: 'sometimes',
  claim: 'some run has a create that failed (what failure-stops-dependents is about)',
  holds: (v) => v.world.monitor.run.some((c) => c.ok === false && c.kind === 'create'),
};

const lockErrorReached: Property = {
  name: 'lock-error',
  kind: 'sometimes',
  claim: 'some run fails with "Error acquiring the state lock"',
  holds: (v) => v.snapshot.value === 'failed',
};

// ---- the bound K ---------------------------------------------------------------------------

/** Every resource the configuration or an edit in the alphabet names (a removed one is deleted). */
function allResources(config: TerraformLoopConfig, alphabet: readonly Move[]): ResourceConfig[] {
  const byAddress = new Map(config.resources.map((r) => [r.address, r]));
  for (const m of alphabet)
    if ('config' in m.entry) for (const r of m.entry.config.resources ?? []) if (!byAddress.has(r.address)) byAddress.set(r.address, r);
  return [...byAddress.values()];
}

/**
 * The longest one run can take: lock, refresh (one read per object), then per resource at most a
 * replacement (create + delete) or an update, a state write after each call, the last write, unlock.
 */
function runBoundMs(resources: readonly ResourceConfig[]): number {
  const n = resources.length;
  const calls = resources.reduce((sum, r) => {
    const [create, update, del] = DEFAULT_TIMINGS[r.type] ?? [1000, 1000, 1000];
    return sum + Math.max(create + del, update);
  }, 0);
  return BACKEND_MS * (3 + 2 * n) + READ_MS * Math.max(1, n) + calls;
}

/**
 * K, in periods of the schedule (`run.every`), after the environment's last move:
 *   the run in progress ends (≤ one run bound R), then 1 + F more runs, each at most a period
 *   after the one before plus R: one that repairs what the last move broke, plus one per create
 *   failure the alphabet can still have pending (F: the sum of failCreate times; a tainted
 *   object is replaced by the run after the one that failed). K = R + (1 + F)(period + R).
 */
function convergencePeriods(config: TerraformLoopConfig, alphabet: readonly Move[]): number {
  const period = config.everyMs ?? 3_600_000;
  const r = runBoundMs(allResources(config, alphabet));
  const failures = alphabet.reduce(
    (sum, m) => sum + ('fault' in m.entry && m.entry.fault.kind === 'failCreate' ? Math.max(0, m.entry.fault.times) : 0),
    0,
  );
  return Math.ceil((r + (1 + failures) * (period + r)) / period);
}

// ---- what is claimed, and what each configuration promises ------------------------------------

export function terraformProperties(config: TerraformLoopConfig, alphabet: readonly Move[], withinPeriods?: number): Property[] {
  const periods = withinPeriods ?? convergencePeriods(config, alphabet);
  const withinMs = periods * (config.everyMs ?? 3_600_000);
  const within = `${periods} runs of the schedule (${withinMs / 1000}s)`;
  const has = (kind: TerraformFault['kind']) => alphabet.some((m) => 'fault' in m.entry && m.entry.fault.kind === kind);
  const out: Property[] = [
    stateWritesLockedAndOrdered,
    applyRespectsDependencies,
    failureStopsDependents,
    preventDestroyHonoured,
    createBeforeDestroyHonoured,
    {
      name: 'converges',
      kind: 'eventually',
      withinMs,
      within,
      holds: converged,
      claim: `once the environment stops, within ${within}: no stale lock, the state matches the cloud and a plan has no changes, and it stays so`,
    },
    {
      name: 'no-orphans',
      kind: 'eventually',
      withinMs,
      within,
      holds: noOrphans,
      claim: `once the environment stops, within ${within}: every object in the cloud is in the state, and it stays so`,
    },
    reachesConverged,
  ];
  if (has('forceUnlock')) {
    out.push({
      name: 'converges-after-force-unlock',
      kind: 'eventually',
      withinMs,
      within,
      holds: (v) => converged(v) || staleLock(v),
      claim: `once the environment stops with no stale lock left (force-unlocked), within ${within}: the next run repairs the partial state — converged, and it stays so`,
    });
  }
  if (has('crash')) out.push(lockErrorReached);
  // A kill can leave an orphan whose name makes the next creates fail.
  if (has('failCreate') || has('crash')) out.push(createFailed);
  const everywhere = allResources(config, alphabet);
  if (everywhere.some((r) => r.lifecycle.createBeforeDestroy)) out.push(replacedCreateFirst);
  if (everywhere.some((r) => r.lifecycle.preventDestroy)) out.push(planRefused);
  if (config.resources.some((r) => SCHEMAS[r.type]?.holdsData) || has('writeData')) out.push(neverDestroysData);
  return out;
}

/**
 * What a configuration promises. Always: locked, ordered state writes; the apply graph; a failure
 * stops its dependents; prevent_destroy. create_before_destroy and convergence only without
 * create_before_destroy on a type whose name is unique (lifecycle docs: "many remote object types
 * have unique name requirements"): the new object cannot be created beside the old one, and once
 * the old one is gone the new one takes its name, which is the id the planned delete then removes.
 * Convergence only for a scheduled apply (run once, it is a tool, not a loop; plan and
 * -refresh-only never change the cloud) and without prevent_destroy (a plan that would replace
 * the resource is refused: "Instance cannot be destroyed"). The repair after a force-unlock, only without such types at all: an object
 * a killed run created holds its name, and every later create fails ("DBInstanceAlreadyExists",
 * "BucketAlreadyOwnedByYou") until someone runs `terraform import`.
 * Never promised: no orphans — a process killed during a create loses the object (hashicorp/
 * terraform#1200: "partial state won't be saved for things in-progress"); never-destroys-data — a
 * replacement (-/+) destroys the old object with its data, prevent_destroy is how to forbid it.
 */
export function terraformPromises(config: TerraformLoopConfig): string[] {
  const out = ['state-writes-locked-and-ordered', 'apply-respects-dependencies', 'failure-stops-dependents', 'prevent-destroy-honoured'];
  const byAddress = new Map(config.resources.map((r) => [r.address, r]));
  const uniqueReplaced = [...createBeforeDestroy(config.resources)].some((a) => SCHEMAS[byAddress.get(a)!.type]?.uniqueBy);
  if (!uniqueReplaced) out.push('create-before-destroy-honoured');
  if (config.mode === 'apply' && config.everyMs !== null && !config.resources.some((r) => r.lifecycle.preventDestroy) && !uniqueReplaced) {
    out.push('converges');
    if (!config.resources.some((r) => SCHEMAS[r.type]?.uniqueBy)) out.push('converges-after-force-unlock');
  }
  return out;
}

// ---- what the environment may do ----------------------------------------------------------

const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function terraformLabel(entry: Entry): string {
  if ('config' in entry) {
    const c = entry.config;
    if (c.request === 'run') return 'terraform apply by hand';
    if (c.mode) return `mode ${c.mode}`;
    const lc = (r: ResourceConfig) =>
      `${r.lifecycle.preventDestroy ? ' prevent_destroy' : ''}${r.lifecycle.createBeforeDestroy ? ' create_before_destroy' : ''}`;
    return `edit configuration: ${(c.resources ?? [])
      .map(
        (r) =>
          `${r.address}{${Object.entries(r.attrs)
            .map(([k, x]) => `${k}=${value(x)}`)
            .join(',')}${lc(r)}}`,
      )
      .join(' ')}`;
  }
  const f = entry.fault;
  switch (f.kind) {
    case 'crash':
      return 'kill terraform';
    case 'forceUnlock':
      return 'terraform force-unlock';
    case 'drift':
      return `console edit ${f.address} ${Object.entries(f.set)
        .map(([k, x]) => `${k}=${value(x)}`)
        .join(',')}`;
    case 'deleteOutside':
      return `delete ${f.address} outside Terraform`;
    case 'failCreate':
      return `cloud fails the next ${f.times < 0 ? 'every' : f.times} create${f.times === 1 ? '' : 's'} of ${f.address}${f.tainted ? ' (tainted)' : ''}`;
    case 'writeData':
      return `write ${f.gb} GB to ${f.address}`;
  }
}

const view = (s: StepState<TerraformWorld, TerraformLoopConfig>): View => ({
  t: s.t,
  snapshot: s.snapshot,
  world: s.world,
  config: s.config,
});

/**
 * A kill needs a running terraform process (a run in progress). Force-unlock is the operator's
 * move, made as documented: with the LOCK_ID from an "Error acquiring the state lock" message
 * (the scheduled run has just failed on it), for a lock no running process holds — "only to
 * unlock your own lock in the situation where automatic unlocking failed"
 * (developer.hashicorp.com/terraform/language/state/locking). Unlocking a live run's lock gives a
 * second writer: test/terraform/machine.test.ts shows it with the Runner.
 */
function applicable(state: StepState<TerraformWorld, TerraformLoopConfig>, entry: Entry): boolean {
  if ('config' in entry) return true;
  const f = entry.fault;
  switch (f.kind) {
    case 'crash':
      return state.snapshot.value !== 'idle' && state.snapshot.value !== 'failed';
    case 'forceUnlock':
      return state.snapshot.value === 'failed' && staleLock(view(state));
    case 'drift': {
      const o = objectAt(state.world, f.address);
      return o !== undefined && Object.entries(f.set).some(([k, x]) => o.attrs[k] !== x);
    }
    case 'deleteOutside':
    case 'writeData':
      return objectAt(state.world, f.address) !== undefined;
    case 'failCreate':
      return true;
  }
}

const MAX_MOVES = 8;
const MAX_RESOURCES = 4;

function validate(scenario: LoadedScenario<TerraformWorld, TerraformFault, TerraformLoopConfig>): void {
  const { file, timeline, config } = scenario;
  if (config.resources.length > MAX_RESOURCES) {
    throw new InputError(
      file,
      'resources',
      `expected at most ${MAX_RESOURCES} resources for check (each adds objects, calls and orderings), got ${config.resources.length}`,
    );
  }
  if (timeline.length > MAX_MOVES) {
    throw new InputError(
      file,
      'timeline',
      `expected at most ${MAX_MOVES} entries for check (each is a move the environment may make at any instant), got ${timeline.length}`,
    );
  }
  timeline.forEach((e, i) => {
    if ('config' in e && e.config.mode !== undefined) {
      throw new InputError(
        file,
        `timeline[${i}].mode`,
        'expected no mode change for check: what a configuration promises depends on its mode',
      );
    }
    if ('fault' in e && e.fault.kind === 'failCreate' && e.fault.times < 0) {
      throw new InputError(
        file,
        `timeline[${i}].failCreate.times`,
        'expected a number for check, not "always": the bound K counts the runs each failure costs',
      );
    }
  });
}

export const terraformCheck: LoopCheck<TerraformWorld, TerraformFault, TerraformLoopConfig, TerraformContext> = {
  loop: 'terraform',
  validate,
  label: terraformLabel,
  applicable,
  canonicalizer: () => terraformCanonicalizer(),
  // Symmetry (sim/check/symmetry.ts): resources are addressed by the configuration.
  symmetry: { none: 'every resource has its own address, attributes and dependencies in the configuration' },
  properties: terraformProperties,
  promises: terraformPromises,
};
