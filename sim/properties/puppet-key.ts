import type { PuppetContext, Ref, Resource, ResourceStatus, RunReport, Transaction } from '../../machines/puppet';
import { refOf, refreshTargets } from '../../machines/puppet';
import type { EnvMove, CheckState } from '../check/model';
import type { PuppetLoopConfig } from '../loops/puppet';
import { opPositions, writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
import { writeData } from '../check/data-key';
import { writeSnapshot } from '../check/snapshot-key';
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
 * - objects (catalogs, values, the host) are written with their members by name: the order an
 *   update left their keys in is not part of the state.
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

  // A resource's status without its message (notes only); its fields by name, as every object here.
  const writeStatus = ({ message: _m, ...s }: ResourceStatus, key: KeyWriter) => writeData(s, key, true);
  const writeStatuses = (list: readonly ResourceStatus[], key: KeyWriter) => {
    key.list(list.length);
    for (const s of list) writeStatus(s, key);
  };
  const writeTx = (tx: Transaction, key: KeyWriter) => {
    key.num(tx.catalogVersion);
    key.flag(tx.noop);
    writeData(tx.catalog, key, true);
    key.num(tx.cursor);
    key.str(tx.stage);
    writeData(tx.observed, key, true);
    const refs = Object.keys(tx.statuses).sort();
    key.list(refs.length);
    for (const r of refs) writeStatus(tx.statuses[r]!, key);
    writeData(tx.queued, key, true);
    writeData(tx.store, key, true);
    writeData(tx.newStore, key, true);
  };
  const writeReport = (r: RunReport, t: number, key: KeyWriter) => {
    key.num(r.catalogVersion);
    key.flag(r.noop);
    key.str(r.status);
    key.num(r.exitCode);
    key.num(r.changes);
    key.flag(r.corrective);
    key.flag(r.noopPending);
    writeData(r.resources, key, true);
    writeData(r.order, key, true);
    writeStatuses(r.statuses, key);
    key.num(r.time - t);
  };

  return (state: CheckState<PuppetWorld, PuppetLoopConfig, PuppetContext>, key: KeyWriter): void => {
    const { t, world: w } = state;
    const ctx = state.snapshot.context;
    const live = RUN_LIVE.has(String(state.snapshot.value));

    writeSnapshot(state.snapshot, key);
    writeData(state.config, key, true);
    writeData(ctx.config, key, true);
    key.num(ctx.catalogVersion);
    key.num(ctx.splayMs ?? Number.NaN);
    key.num(live && ctx.lastRunStart !== null ? ctx.lastRunStart - t : Number.NaN);
    key.flag(ctx.tx !== null);
    if (ctx.tx) writeTx(ctx.tx, key);
    writeData(ctx.step, key, true);
    writeData(ctx.store, key, true);
    writeData(w.host, key, true);
    writeData(w.repo, key, true);
    writeData(w.installFailures, key, true);

    // The last two reports (their count says which follow) and when each arrived.
    const [a, b] = w.reports.slice(-2);
    const reportedAt = w.reportedAt.slice(-2);
    key.num(Math.min(w.reports.length, 2));
    if (a) {
      writeReport(a, t, key);
      key.num(reportedAt[0]! - t);
    }
    if (b) {
      writeReport(b, t, key);
      key.num(reportedAt.at(-1)! - t);
    }
    const lastFault = w.faults.at(-1)?.t;
    key.flag(lastFault !== undefined);
    if (lastFault !== undefined) {
      const atOrAfter = (x: number | undefined) => key.flag(x !== undefined && lastFault >= x);
      atOrAfter(w.reports.length >= 2 ? a!.time : undefined);
      atOrAfter(b?.time ?? a?.time);
      atOrAfter(live ? (ctx.lastRunStart ?? undefined) : undefined);
      atOrAfter(t);
    }

    const services = Object.keys(w.startedWith).sort();
    key.list(services.length);
    for (const name of services) {
      const loaded = w.startedWith[name]!;
      const refs = sources.get(name) ?? [];
      key.str(name);
      key.list(refs.length);
      for (const ref of refs) writeData(currentValues(w, loaded, ref).current, key, true);
    }

    key.list(w.ops.length);
    for (const o of w.ops) {
      key.str(o.kind);
      key.flag(o.result.ok);
      if (!o.result.ok) key.str(o.result.error);
      else if (o.kind === 'clock') key.num(Number(o.result.output) - t);
      else writeData(o.result.output, key, true);
      key.flag(Boolean(o.sync));
      if (o.sync) {
        const { run: _run, ...sync } = o.sync;
        writeData(sync, key, true);
      }
      key.flag(Boolean(o.ref));
      if (o.ref) key.str(o.ref);
      key.flag(Boolean(o.refs));
      if (o.refs) writeData(o.refs, key, true);
      key.flag(Boolean(o.report));
      if (o.report) writeReport(o.report, t, key);
    }
    writeQueue(state, key, opPositions(w.ops));
  };
}
