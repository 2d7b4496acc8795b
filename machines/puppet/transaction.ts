import { dependenciesOf, refreshTargets } from './graph';
import { isCorrective, newSystemValue, outOfSync, targetValue } from './sync';
import type { Observation, Ref, Resource, ResourceStatus, Values } from './types';
import { refOf } from './types';

/** One catalog run in progress, as the agent's transaction holds it. */
export interface Transaction {
  run: number;
  catalogVersion: number;
  /** Global noop (the `noop` setting) for this run. */
  noop: boolean;
  catalog: Resource[];
  order: Ref[];
  cursor: number;
  /** evaluate the resource at the cursor, then process its queued refresh events. */
  stage: 'evaluate' | 'refresh';
  observed: Record<Ref, Observation>;
  statuses: Record<Ref, ResourceStatus>;
  /** EventManager's queue: refresh events waiting for a resource; noop = every event was noop. */
  queued: Record<Ref, { events: number; noop: boolean }>;
  /** The transaction store: system values at the end of the last run, and those of this run. */
  store: Record<Ref, Values>;
  newStore: Record<Ref, Values>;
}

export type Step =
  | { kind: 'done' }
  | { kind: 'skip'; ref: Ref; failedDependencies: Ref[] }
  | { kind: 'insync'; ref: Ref }
  | { kind: 'noop'; ref: Ref; properties: string[] }
  | { kind: 'sync'; ref: Ref; properties: string[]; values: Values }
  | { kind: 'refresh'; ref: Ref; events: number }
  | { kind: 'wouldRefresh'; ref: Ref; events: number }
  | { kind: 'next'; ref: Ref; why: string };

export function newTransaction(
  run: number,
  catalogVersion: number,
  noop: boolean,
  catalog: Resource[],
  order: Ref[],
  store: Record<Ref, Values>,
): Transaction {
  return {
    run,
    catalogVersion,
    noop,
    catalog,
    order,
    cursor: 0,
    stage: 'evaluate',
    observed: {},
    statuses: {},
    queued: {},
    store,
    newStore: {},
  };
}

const resourceAt = (tx: Transaction, ref: Ref) => tx.catalog.find((r) => refOf(r.type, r.title) === ref)!;
const emptyStatus = (ref: Ref): ResourceStatus => ({
  ref,
  outOfSync: [],
  changed: false,
  failed: false,
  skipped: false,
  noop: false,
  corrective: false,
  failedDependencies: [],
  restarted: false,
  failedToRestart: false,
  message: '',
});

/**
 * Transaction#propagate_failure: a resource's failed dependencies are its direct dependencies
 * that failed (or failed to restart) plus the failed dependencies of its direct dependencies —
 * so a failure skips everything downstream of it, transitively.
 */
function failedDependencies(tx: Transaction, ref: Ref): Ref[] {
  const out = new Set<Ref>();
  for (const d of dependenciesOf(tx.catalog).get(ref) ?? []) {
    const s = tx.statuses[d];
    if (!s) continue;
    for (const f of s.failedDependencies) out.add(f);
    if (s.failed || s.failedToRestart) out.add(d);
  }
  return [...out];
}

/**
 * What the transaction does next (Transaction#eval_resource, then EventManager#process_events):
 * skip a resource with failed dependencies ("Skipping because of failed dependencies"), leave an
 * in-sync one alone, record what a noop one would change, or sync it; then, for a service with
 * queued events, restart it ("Triggered 'refresh'") — or, in noop, "Would have triggered".
 */
export function nextStep(tx: Transaction): Step {
  const ref = tx.order[tx.cursor];
  if (ref === undefined) return { kind: 'done' };
  const res = resourceAt(tx, ref);
  const noop = tx.noop || res.noop;
  if (tx.stage === 'evaluate') {
    const failed = failedDependencies(tx, ref);
    if (failed.length) return { kind: 'skip', ref, failedDependencies: failed };
    const obs = tx.observed[ref] ?? { current: {}, latest: null };
    const properties = outOfSync(res.type, res.should, obs);
    if (!properties.length) return { kind: 'insync', ref };
    if (noop) return { kind: 'noop', ref, properties };
    const values = Object.fromEntries(properties.map((p) => [p, targetValue(res.type, p, res.should[p]!, obs.latest)]));
    return { kind: 'sync', ref, properties, values };
  }
  const q = tx.queued[ref];
  const status = tx.statuses[ref];
  if (!q || q.events === 0) return { kind: 'next', ref, why: 'no events' };
  // Only services are refreshable here (type/service.rb #refresh); a failed resource is not refreshed.
  if (res.type !== 'service') return { kind: 'next', ref, why: `${res.type} is not refreshable` };
  if (status?.failed) return { kind: 'next', ref, why: 'failed' };
  if (noop || q.noop) return { kind: 'wouldRefresh', ref, events: q.events };
  // service.rb #refresh: "Only restart if we're actually running".
  if (tx.observed[ref]?.current.ensure !== 'running') return { kind: 'next', ref, why: 'Skipping restart; service is not running' };
  return { kind: 'refresh', ref, events: q.events };
}

function queueEvents(tx: Transaction, ref: Ref, events: number, noop: boolean): Transaction['queued'] {
  const queued = { ...tx.queued };
  for (const t of refreshTargets(tx.catalog, ref)) {
    const q = queued[t];
    queued[t] = { events: (q?.events ?? 0) + events, noop: (q ? q.noop : true) && noop };
  }
  return queued;
}

function storeFor(tx: Transaction, res: Resource, current: Values, events: Record<string, 'success' | 'noop' | 'failure'>): Values {
  const old = tx.store[refOf(res.type, res.title)] ?? {};
  const out: Values = {};
  for (const [p, should] of Object.entries(res.should)) {
    const v = newSystemValue(events[p] ?? null, should, current[p], old[p]);
    if (v !== undefined) out[p] = v;
  }
  return out;
}

function corrective(tx: Transaction, res: Resource, properties: string[], obs: Observation): boolean {
  const old = tx.store[refOf(res.type, res.title)] ?? {};
  return properties.some((p) => isCorrective(res.type, p, old[p], obs.current[p], obs.latest));
}

export type StepResult = { ok: true; current?: Values } | { ok: false; error: string };

/** Records the outcome of a step and moves the transaction on. Pure. */
export function applyStep(tx: Transaction, step: Step, result: StepResult = { ok: true }): Transaction {
  if (step.kind === 'done') return tx;
  const ref = step.ref;
  const res = resourceAt(tx, ref);
  const obs = tx.observed[ref] ?? { current: {}, latest: null };
  const status = tx.statuses[ref] ?? emptyStatus(ref);
  const next = { ...tx, stage: 'refresh' as const };
  switch (step.kind) {
    case 'skip': {
      // "Resource is being skipped, unscheduling all events"; the store keeps its old values (copy_skipped).
      const { [ref]: _dropped, ...queued } = tx.queued;
      const kept = tx.store[ref];
      return {
        ...tx,
        cursor: tx.cursor + 1,
        stage: 'evaluate',
        queued,
        statuses: {
          ...tx.statuses,
          [ref]: {
            ...status,
            skipped: true,
            failedDependencies: step.failedDependencies,
            message: 'Skipping because of failed dependencies',
          },
        },
        newStore: kept ? { ...tx.newStore, [ref]: kept } : tx.newStore,
      };
    }
    case 'insync':
      return {
        ...next,
        statuses: { ...tx.statuses, [ref]: status },
        newStore: { ...tx.newStore, [ref]: storeFor(tx, res, obs.current, {}) },
      };
    case 'noop': {
      const events = Object.fromEntries(step.properties.map((p) => [p, 'noop' as const]));
      return {
        ...next,
        queued: queueEvents(tx, ref, step.properties.length, true),
        statuses: {
          ...tx.statuses,
          [ref]: {
            ...status,
            outOfSync: step.properties,
            noop: true,
            corrective: corrective(tx, res, step.properties, obs),
            message: describeChange(res, step.properties, obs, true),
          },
        },
        newStore: { ...tx.newStore, [ref]: storeFor(tx, res, obs.current, events) },
      };
    }
    case 'sync': {
      const isCorr = corrective(tx, res, step.properties, obs);
      if (!result.ok) {
        const events = Object.fromEntries(step.properties.map((p) => [p, 'failure' as const]));
        return {
          ...next,
          statuses: {
            ...tx.statuses,
            [ref]: { ...status, outOfSync: step.properties, failed: true, corrective: isCorr, message: result.error },
          },
          newStore: { ...tx.newStore, [ref]: storeFor(tx, res, obs.current, events) },
        };
      }
      const current = { ...obs.current, ...(result.current ?? step.values) };
      const events = Object.fromEntries(step.properties.map((p) => [p, 'success' as const]));
      return {
        ...next,
        queued: queueEvents(tx, ref, step.properties.length, false),
        observed: { ...tx.observed, [ref]: { ...obs, current } },
        statuses: {
          ...tx.statuses,
          [ref]: {
            ...status,
            outOfSync: step.properties,
            changed: true,
            corrective: isCorr,
            message: describeChange(res, step.properties, obs, false),
          },
        },
        newStore: { ...tx.newStore, [ref]: storeFor(tx, res, current, events) },
      };
    }
    case 'refresh':
    case 'wouldRefresh': {
      const { [ref]: _done, ...queued } = tx.queued;
      const failed = step.kind === 'refresh' && !result.ok;
      const message =
        step.kind === 'wouldRefresh'
          ? `Would have triggered 'refresh' from ${step.events} event${step.events > 1 ? 's' : ''}`
          : failed
            ? `Failed to call refresh: ${(result as { error: string }).error}` // cast: failed is true only when result.ok is false
            : `Triggered 'refresh' from ${step.events} event${step.events > 1 ? 's' : ''}`;
      // event_manager.rb process_callback: "Triggered '%{callback}' from %{count} events".
      return {
        ...tx,
        cursor: tx.cursor + 1,
        stage: 'evaluate',
        queued,
        statuses: {
          ...tx.statuses,
          [ref]: {
            ...status,
            restarted: step.kind === 'refresh' && !failed,
            failedToRestart: failed,
            noop: status.noop || step.kind === 'wouldRefresh',
            message: status.message ? `${status.message}; ${message}` : message,
          },
        },
      };
    }
    case 'next': {
      const { [ref]: _done, ...queued } = tx.queued;
      return { ...tx, cursor: tx.cursor + 1, stage: 'evaluate', queued };
    }
  }
}

/** "ensure changed 'purged' to '1.24.0'", "content changed …", with "(noop)" for noop. */
function describeChange(res: Resource, properties: string[], obs: Observation, noop: boolean): string {
  return properties
    .map((p) => {
      const to = targetValue(res.type, p, res.should[p]!, obs.latest);
      const from = obs.current[p] ?? 'absent';
      return noop ? `${p}: current_value '${from}', should be '${to}' (noop)` : `${p} changed '${from}' to '${to}'`;
    })
    .join('; ');
}
