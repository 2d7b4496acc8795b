import type { PuppetContext, Ref, Resource, ResourceStatus, RunReport, Transaction } from '../../machines/puppet';
import { refOf, refreshTargets } from '../../machines/puppet';
import type { EnvMove, CheckState } from '../check/model';
import type { PuppetLoopConfig } from '../loops/puppet';
import { opPositions, writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
import type { PuppetFault, PuppetWorld } from '../worlds/puppet';
import { currentValues } from '../worlds/puppet';

/** The resources whose change sends `service` a refresh (its subscribe list, the notify lists naming it). */
export function refreshSources(catalog: Resource[], service: Ref): Ref[] {
  return catalog.map((r) => refOf(r.type, r.title)).filter((ref) => ref !== service && refreshTargets(catalog, ref).includes(service));
}

/** Machine states in which context.lastRunStart is still read (scheduleNext, the report's time). */
const RUN_LIVE = new Set(['retrieving', 'evaluating', 'syncing', 'refreshing', 'reporting', 'finishing']);

/**
 * The canonical key of a puppet state: everything its future (and the claims) depends on, with
 * times relative to now.
 * - kept: machine state, config (desired catalog, puppet.conf), catalogVersion, the transaction
 *   (catalog, noop, cursor, stage, observed values, statuses, queued events, stores), the step,
 *   the transaction store; the host, repository and pending install failures; operations in
 *   flight; the queue.
 * - dropped: run numbers (ctx.runs, tx.run, report.run, sync.run), messages (notes only),
 *   lastReport / nextDelayMs / lastError / applied (read only in the macrostep that set them, or
 *   by notes), op ids and nextOpId (ops by position), the rng (validate: no splay, no install
 *   jitter), timings (constant), the history arrays world.applied/drifts/restarts (summary only).
 * - reports: only the last two (what idempotent and runs-follow-runinterval read), their times
 *   relative to now; the last fault only as which of those instants it is at or after (the only
 *   comparisons any claim makes now or later: later reports begin at lastRunStart or after now).
 * - startedWith: for each running service, the values it loaded of the resources that notify it
 *   in any catalog the scenario may switch to (all that no-stale-service compares).
 */
export function puppetCanonicalizer(
  start: { config: PuppetLoopConfig; world: PuppetWorld },
  alphabet: readonly EnvMove<PuppetFault, PuppetLoopConfig>[],
) {
  const catalogs = [
    start.config.catalog,
    ...alphabet.flatMap((m) => ('config' in m.entry && m.entry.config.catalog ? [m.entry.config.catalog] : [])),
  ];
  const sources = new Map<string, Ref[]>();
  for (const c of catalogs)
    for (const r of c) {
      if (r.type !== 'service') continue;
      sources.set(r.title, [...new Set([...(sources.get(r.title) ?? []), ...refreshSources(c, refOf(r.type, r.title))])].sort());
    }

  // States share most objects with their parent (immutable updates), so serialise each once.
  const memo = new WeakMap<object, string>();
  const stable = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return v === undefined ? '~' : JSON.stringify(v);
    const hit = memo.get(v);
    if (hit !== undefined) return hit;
    const out = Array.isArray(v)
      ? `[${v.map(stable).join(',')}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${k}:${stable((v as Record<string, unknown>)[k])}`) // cast: a plain object here, only read by key
          .join(',')}}`;
    memo.set(v, out);
    return out;
  };
  const statusKey = ({ message: _m, ...s }: ResourceStatus) => stable(s);
  const statusesKey = (list: readonly ResourceStatus[]) => list.map(statusKey).join(';');
  const txKey = (tx: Transaction) =>
    [
      tx.catalogVersion,
      tx.noop ? 1 : 0,
      stable(tx.catalog),
      tx.cursor,
      tx.stage,
      stable(tx.observed),
      statusesKey(
        Object.keys(tx.statuses)
          .sort()
          .map((r) => tx.statuses[r]!),
      ),
      stable(tx.queued),
      stable(tx.store),
      stable(tx.newStore),
    ].join('/');
  const reportKey = (r: RunReport, t: number) =>
    [
      r.catalogVersion,
      r.noop ? 1 : 0,
      r.status,
      r.exitCode,
      r.changes,
      r.corrective ? 1 : 0,
      r.noopPending ? 1 : 0,
      stable(r.resources),
      stable(r.order),
      statusesKey(r.statuses),
      r.time - t,
    ].join('/');

  return (state: CheckState<PuppetWorld, PuppetLoopConfig, PuppetContext>, out: KeyWriter): void => {
    const { t, world: w } = state;
    const ctx = state.snapshot.context;
    const value = String(state.snapshot.value);
    const live = RUN_LIVE.has(value);

    let key = `${value}|${Object.keys(state.snapshot.children).join(',')}`;
    key += `|${stable(state.config)}|${stable(ctx.config)}|v${ctx.catalogVersion}|${ctx.splayMs ?? '-'}`;
    key += `|${live && ctx.lastRunStart !== null ? ctx.lastRunStart - t : '-'}`;
    key += `|tx ${ctx.tx ? txKey(ctx.tx) : '-'}|step ${stable(ctx.step)}|store ${stable(ctx.store)}`;
    key += `|host ${stable(w.host)}|repo ${stable(w.repo)}|fail ${stable(w.installFailures)}`;

    const [a, b] = w.reports.slice(-2);
    const reportedAt = w.reportedAt.slice(-2);
    key += `|reports ${Math.min(w.reports.length, 2)}`;
    if (a) key += `|${reportKey(a, t)}@${reportedAt[0]! - t}`;
    if (b) key += `|${reportKey(b, t)}@${reportedAt.at(-1)! - t}`;
    const lastFault = w.faults.at(-1)?.t;
    if (lastFault !== undefined) {
      const atOrAfter = (x: number | undefined) => (x !== undefined && lastFault >= x ? 1 : 0);
      key += `|fault ${atOrAfter(w.reports.length >= 2 ? a!.time : undefined)}${atOrAfter(b?.time ?? a?.time)}${atOrAfter(live ? (ctx.lastRunStart ?? undefined) : undefined)}${atOrAfter(t)}`;
    }

    key += '|loaded';
    for (const name of Object.keys(w.startedWith).sort()) {
      const loaded = w.startedWith[name]!;
      key += `|${name}:${(sources.get(name) ?? []).map((ref) => stable(currentValues(w, loaded, ref).current)).join(',')}`;
    }

    key += '|ops';
    for (const o of w.ops) {
      key += `|${o.kind}:${o.result.ok ? (o.kind === 'clock' ? Number(o.result.output) - t : stable(o.result.output)) : `!${o.result.error}`}`;
      if (o.sync) {
        const { run: _run, ...sync } = o.sync;
        key += `:${stable(sync)}`;
      }
      if (o.ref) key += `:${o.ref}`;
      if (o.refs) key += `:${stable(o.refs)}`;
      if (o.report) key += `:${reportKey(o.report, t)}`;
    }
    out.str(key);
    writeQueue(state, out, opPositions(w.ops));
  };
}
