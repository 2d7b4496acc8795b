import type { PuppetContext, Ref, Resource, RunReport, Transaction } from '../../machines/puppet';
import { dependenciesOf, refOf, splaylimitOf } from '../../machines/puppet';
import type { CheckProperty, CheckView, EnvMove, LoopCheck } from '../check/model';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { PuppetLoopConfig } from '../loops/puppet';
import type { TimelineEntry } from '../runner';
import { InputError } from '../scenario/errors';
import type { StepState } from '../step';
import type { Host, PuppetFault, PuppetWorld } from '../worlds/puppet';
import { currentValues } from '../worlds/puppet';
import { puppetCanonicalizer, refreshSources } from './puppet-key';

type View = CheckView<PuppetWorld, PuppetLoopConfig, PuppetContext>;
type Property = CheckProperty<PuppetWorld, PuppetLoopConfig, PuppetContext>;
type Entry = TimelineEntry<PuppetFault, PuppetLoopConfig>;

const ctxOf = (v: View) => v.snapshot.context;

const depsCache = new WeakMap<Resource[], Map<Ref, Ref[]>>();
/** The relationship graph of a catalog (catalogs are never mutated, so it is cached per object). */
function depsOf(catalog: Resource[]): Map<Ref, Ref[]> {
  let deps = depsCache.get(catalog);
  if (!deps) {
    deps = dependenciesOf(catalog);
    depsCache.set(catalog, deps);
  }
  return deps;
}

/** Every resource `ref` depends on, directly or through others. */
function ancestors(deps: Map<Ref, Ref[]>, ref: Ref): Set<Ref> {
  const out = new Set<Ref>();
  const stack = [...(deps.get(ref) ?? [])];
  while (stack.length) {
    const d = stack.pop()!;
    if (out.has(d)) continue;
    out.add(d);
    stack.push(...(deps.get(d) ?? []));
  }
  return out;
}

// ---- what is claimed ------------------------------------------------------------------------
// Per-run claims are read off the transaction while it runs (every step of it is a state) and
// off the last report; the claims across runs read the last two reports, the time of the last
// change made outside Puppet (world.faults) and the repository, all of which the canonical key keeps.

/** transaction.rb: resources are evaluated after everything they depend on (require/before/notify/subscribe). */
function orderRespects(order: readonly Ref[], catalog: Resource[]): boolean {
  const pos = new Map(order.map((r, i) => [r, i]));
  for (const [ref, list] of depsOf(catalog)) for (const d of list) if ((pos.get(d) ?? Infinity) > (pos.get(ref) ?? -1)) return false;
  return true;
}

/**
 * Transaction#propagate_failure, "Skipping because of failed dependencies": a resource with a
 * failed (or failed-to-restart) resource anywhere upstream is skipped and neither changed nor
 * restarted; a skipped resource has one.
 */
function skipsRespected(tx: Transaction): boolean {
  const deps = depsOf(tx.catalog);
  for (const s of Object.values(tx.statuses)) {
    const failedUpstream = [...ancestors(deps, s.ref)].some((a) => tx.statuses[a]?.failed || tx.statuses[a]?.failedToRestart);
    if (failedUpstream && (!s.skipped || s.changed || s.restarted)) return false;
    if (!failedUpstream && s.skipped) return false;
  }
  return true;
}

/** Report#compute_status and #exit_status agree: failed ⇔ bit 4, changes ⇔ bit 2. */
function exitCodeAgrees(r: RunReport): boolean {
  const failed = r.status === 'failed';
  return (
    ((r.exitCode & 4) !== 0) === failed &&
    ((r.exitCode & 2) !== 0) === r.changes > 0 &&
    (r.status !== 'unchanged' || r.exitCode === 0) &&
    (r.status !== 'changed' || r.exitCode === 2)
  );
}

export const orderRespectsRelationships: Property = {
  name: 'order-respects-relationships',
  kind: 'always',
  claim: 'a run evaluates each resource after everything it depends on (require, before, notify, subscribe)',
  holds: (v) => {
    const tx = ctxOf(v).tx;
    return tx === null || orderRespects(tx.order, tx.catalog);
  },
};

export const failuresSkipDependents: Property = {
  name: 'failures-skip-dependents',
  kind: 'always',
  claim: 'in a run, a resource with a failed resource upstream is skipped, not changed, not restarted; only those are skipped',
  holds: (v) => {
    const tx = ctxOf(v).tx;
    return tx === null || skipsRespected(tx);
  },
};

export const exitCodeMatchesReport: Property = {
  name: 'exit-code-matches-report',
  kind: 'always',
  claim: "the last report's detailed exit code agrees with its status: bit 4 ⇔ failed, bit 2 ⇔ changes",
  holds: (v) => {
    const r = v.world.reports.at(-1);
    return r === undefined || exitCodeAgrees(r);
  },
};

/** The noop setting (for the whole run) or the noop metaparameter (for one resource). */
const isNoop = (tx: Transaction, ref: Ref | undefined) => tx.noop || tx.catalog.some((r) => r.noop && refOf(r.type, r.title) === ref);

export const noopChangesNothing: Property = {
  name: 'noop-changes-nothing',
  kind: 'always',
  claim: 'in noop (the setting or the metaparameter) the agent never begins a change or a restart on the host',
  holds: (v) => {
    const tx = ctxOf(v).tx;
    return tx === null || v.world.ops.every((op) => (op.kind !== 'sync' && op.kind !== 'refresh') || !isNoop(tx, op.sync?.ref ?? op.ref));
  },
};

/**
 * The resources that run `a` itself may have undone after evaluating them: a service evaluated
 * before the package that ships its unit, when `a` changed that package. Removing a package
 * removes its unit (sim/worlds/puppet.ts), so the service `a` started is gone, and the next run
 * finds it out of sync and cannot start it ("Unit … not found"). Puppet does not see this: it
 * orders and relates resources only through relationships and autorequires, and
 * lib/puppet/type/service.rb autorequires nothing (no Package), so `service { 'a': ensure =>
 * running }` and `package { 'a': ensure => absent }` compile and fight. Idempotence is a promise
 * of each resource's provider, not of a catalog whose resources undo each other. Read off the
 * report (its order and statuses) and the repository's package → unit map, which stay the same
 * while `a` is the last report but one.
 */
function undoneBy(a: RunReport, repo: PuppetWorld['repo']): Set<Ref> {
  const out = new Set<Ref>();
  for (const s of a.statuses) {
    const pkg = /^Package\[(.*)\]$/.exec(s.ref)?.[1];
    const unit = pkg === undefined || !s.changed ? undefined : repo[pkg]?.service;
    if (unit === undefined) continue;
    const svc = refOf('service', unit);
    const at = a.order.indexOf(svc);
    if (at >= 0 && at < a.order.indexOf(s.ref)) out.add(svc);
  }
  return out;
}

/**
 * Idempotence. `a` converged (nothing failed, not noop); `b` is the next run, of the same catalog.
 * Unless something changed outside Puppet since `a` began, `b` changes nothing and finds
 * nothing out of sync, but for what `a` undid itself (undoneBy: a service whose package `a`
 * removed after starting it; `b` finds it out of sync and fails it, changing nothing). Checked
 * in the state where `b` arrives (every fault so far is ≤ now); a later fault only makes it
 * skip, never fail.
 */
export const idempotent: Property = {
  name: 'idempotent',
  kind: 'always',
  claim:
    'after a converged run, the next run of the same catalog changes nothing unless the host was changed outside Puppet since; it finds nothing out of sync but a service whose package the converged run removed after starting it',
  holds: (v) => {
    const [a, b] = v.world.reports.slice(-2);
    if (!a || !b || a.status === 'failed' || a.noop || a.noopPending || b.noop || a.catalogVersion !== b.catalogVersion) return true;
    const lastFault = v.world.faults.at(-1);
    if (lastFault && lastFault.t >= a.time) return true;
    if (b.changes !== 0) return false;
    if (b.resources.outOfSync === 0) return true;
    const undone = undoneBy(a, v.world.repo);
    return b.statuses.every((s) => s.outOfSync.length === 0 || undone.has(s.ref));
  },
};

/**
 * Puppet::Scheduler: the first run waits the splay (≤ splaylimit; none without splay), then each
 * run starts runinterval after the previous one began, or at once when that one overran.
 */
export const runsFollowRuninterval: Property = {
  name: 'runs-follow-runinterval',
  kind: 'always',
  claim: 'the first run starts within the splay limit; each next one runinterval after the previous began (at once if it overran)',
  holds: (v) => {
    const { reports, reportedAt } = v.world;
    const b = reports.at(-1);
    if (!b) return true;
    if (reports.length === 1) return b.time <= (ctxOf(v).splayMs === null ? 0 : splaylimitOf(v.config.settings));
    const a = reports.at(-2)!;
    return b.time === Math.max(a.time + v.config.settings.runintervalMs, reportedAt.at(-2)!);
  },
};

/** Converged: the last report is of the current catalog, changed nothing, failed nothing, and nothing is left pending in noop. */
export function converged(v: View): boolean {
  const r = v.world.reports.at(-1);
  return r !== undefined && r.status === 'unchanged' && !r.noopPending && r.catalogVersion === ctxOf(v).catalogVersion;
}

const valuesOf = (w: PuppetWorld, host: Host, ref: Ref) => JSON.stringify(currentValues(w, host, ref).current);

/**
 * Whether a running service has loaded the current value of every resource that notifies it
 * (or that it subscribes to): the promise notify/subscribe makes. world.startedWith holds the
 * host as the service found it at its last (re)start.
 */
export function noStaleService(v: View): boolean {
  const { host, startedWith } = v.world;
  for (const r of v.config.catalog) {
    if (r.type !== 'service') continue;
    const loaded = startedWith[r.title];
    if (!loaded || !host.services[r.title]?.running) continue;
    for (const src of refreshSources(v.config.catalog, refOf(r.type, r.title))) {
      if (valuesOf(v.world, host, src) !== valuesOf(v.world, loaded, src)) return false;
    }
  }
  return true;
}

const skipsADependent: Property = {
  name: 'skips-a-dependent',
  kind: 'sometimes',
  claim: 'some run skips a resource because of a failed dependency (the failure path is reachable)',
  holds: (v) => (v.world.reports.at(-1)?.resources.skipped ?? 0) > 0,
};

const restartsAService: Property = {
  name: 'restarts-a-service',
  kind: 'sometimes',
  claim: 'some run restarts a service in answer to notify/subscribe (refresh is reachable)',
  holds: (v) => (v.world.reports.at(-1)?.resources.restarted ?? 0) > 0,
};

/** The always-claims: what the fast-check tests evaluate at every step of generated runs. */
export const PUPPET_INVARIANTS: readonly Property[] = [
  orderRespectsRelationships,
  failuresSkipDependents,
  exitCodeMatchesReport,
  noopChangesNothing,
  idempotent,
  runsFollowRuninterval,
];

/**
 * K, the convergence bound, in runintervals after the environment's last move:
 *   the run in progress when it stops may have missed the change (≤ 1), the next run fixes it (1),
 *   the one after reports unchanged (1) and must also end (a run takes seconds, far less than a
 *   runinterval: +1 covers its duration with room), and every install the environment made fail
 *   costs one more run (failInstall: times; "always" never heals, so it adds nothing here).
 */
export function convergenceRuns(alphabet: readonly EnvMove<PuppetFault, PuppetLoopConfig>[]): number {
  const failures = alphabet.reduce(
    (n, m) => n + ('fault' in m.entry && m.entry.fault.kind === 'failInstall' && m.entry.fault.times > 0 ? m.entry.fault.times : 0),
    0,
  );
  return 3 + failures;
}

function puppetProperties(
  config: PuppetLoopConfig,
  alphabet: readonly EnvMove<PuppetFault, PuppetLoopConfig>[],
  withinPeriods?: number,
): Property[] {
  const runs = withinPeriods ?? convergenceRuns(alphabet);
  const withinMs = runs * config.settings.runintervalMs;
  const within = `${runs} runintervals (${withinMs / 60_000} min)`;
  const out: Property[] = [
    ...PUPPET_INVARIANTS,
    {
      name: 'converges',
      kind: 'eventually',
      withinMs,
      within,
      holds: converged,
      claim: `once the environment stops, within ${within}: the last report is of the current catalog, unchanged (exit 0), nothing pending in noop, and it stays so`,
    },
    {
      name: 'no-stale-service',
      kind: 'eventually',
      withinMs,
      within,
      holds: noStaleService,
      claim: `once the environment stops, within ${within}: every running service has loaded (at its last start or restart) the current value of each resource that notifies it`,
    },
  ];
  const catalogs = [
    config.catalog,
    ...alphabet.flatMap((m) => ('config' in m.entry && m.entry.config.catalog ? [m.entry.config.catalog] : [])),
  ];
  if (alphabet.some((m) => 'fault' in m.entry && m.entry.fault.kind === 'failInstall')) out.push(skipsADependent);
  if (catalogs.some((c) => c.some((r) => r.notify.length || r.subscribe.length))) out.push(restartsAService);
  return out;
}

/**
 * What Puppet promises. Everything per run and idempotence, always; convergence unless noop is on
 * (noop only reports). Never that a notified service is restarted across runs: a skipped resource
 * drops its queued refresh events ("Unscheduling all events", PUP-1106, puppetlabs/puppet#3090) and
 * events live only in the run's EventManager, so a lost refresh is a finding, not a bug.
 */
function puppetPromises(config: PuppetLoopConfig): readonly string[] {
  const base = PUPPET_INVARIANTS.map((p) => p.name);
  const noop = config.settings.noop || config.catalog.some((r) => r.noop);
  return noop ? base : [...base, 'converges'];
}

// ---- what the environment may do ------------------------------------------------------------

/** FNV-1a, 6 hex digits: tells apart what a label shortens (equal labels are interchangeable moves). */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0').slice(0, 6);
}
const short = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n - 1)}…#${digest(s)}` : s);

export function puppetLabel(entry: Entry): string {
  if ('config' in entry) {
    const c = entry.config;
    // Relationships are not shown, so the digest of the whole catalog keeps two catalogs apart.
    if (c.catalog)
      return `new catalog #${digest(JSON.stringify(c.catalog))}: ${c.catalog.map((r) => `${refOf(r.type, r.title)}=${short(r.should.content ?? r.should.ensure ?? '')}`).join(', ')}`;
    if (c.request === 'run') return 'SIGUSR1 (run now)';
    return `agent settings ${JSON.stringify(c.settings ?? {})}`;
  }
  const f = entry.fault;
  switch (f.kind) {
    case 'drift':
      return `drift ${f.ref} ${Object.entries(f.values)
        .map(([k, v]) => `${k}=${short(v)}`)
        .join(' ')}`;
    case 'failInstall':
      return f.times < 0
        ? `every install of ${f.package} fails`
        : `next ${f.times} install${f.times === 1 ? '' : 's'} of ${f.package} fail${f.times === 1 ? 's' : ''}`;
    case 'publish':
      return `publish ${f.package} ${f.version}`;
  }
}

/** A move that would change nothing (the drift already holds, the version is out) is left out. */
function applicable(state: StepState<PuppetWorld, PuppetLoopConfig>, entry: Entry): boolean {
  const w = state.world;
  if ('config' in entry)
    return entry.config.catalog === undefined || JSON.stringify(entry.config.catalog) !== JSON.stringify(state.config.catalog);
  const f = entry.fault;
  switch (f.kind) {
    case 'drift': {
      const now = currentValues(w, w.host, f.ref).current;
      return Object.entries(f.values).some(([k, v]) => now[k] !== v);
    }
    case 'failInstall':
      return (w.installFailures[f.package] ?? 0) !== f.times;
    case 'publish':
      return !(w.repo[f.package]?.versions.includes(f.version) ?? false);
  }
}

const MAX_MOVES = 8;
const MAX_FAILURES = 3;

function validate(scenario: LoadedScenario<PuppetWorld, PuppetFault, PuppetLoopConfig>): void {
  const { file, config, world, timeline } = scenario;
  if (config.settings.splay)
    throw new InputError(file, 'agent.splay', 'expected false for check: the explorer does not branch on the random splay');
  if (world.timings.installJitterMs !== 0)
    throw new InputError(file, 'timings.installJitter', 'expected 0s for check: the explorer does not branch on random install times');
  if (timeline.length > MAX_MOVES)
    throw new InputError(
      file,
      'timeline',
      `expected at most ${MAX_MOVES} entries for check (each is a move the environment may make at any instant), got ${timeline.length}`,
    );
  timeline.forEach((e, i) => {
    if ('config' in e && e.config.catalog === undefined) {
      throw new InputError(
        file,
        `timeline[${i}]`,
        `expected drift, failInstall, publish or catalog for check, got ${e.config.request === 'run' ? 'run' : 'agent'}: runs-follow-runinterval and K assume one puppet.conf and the scheduler alone starting runs`,
      );
    }
    if ('fault' in e && e.fault.kind === 'failInstall' && e.fault.times > MAX_FAILURES) {
      throw new InputError(
        file,
        `timeline[${i}].failInstall.times`,
        `expected at most ${MAX_FAILURES} (or always) for check, got ${e.fault.times}`,
      );
    }
  });
}

export const puppetCheck: LoopCheck<PuppetWorld, PuppetFault, PuppetLoopConfig, PuppetContext> = {
  loop: 'puppet',
  validate,
  label: puppetLabel,
  applicable,
  canonicalizer: puppetCanonicalizer,
  // Symmetry (sim/check/symmetry.ts): no two resources are interchangeable.
  symmetry: { none: 'every resource is its own (type, title), with its own content and relationships' },
  properties: puppetProperties,
  promises: puppetPromises,
};
