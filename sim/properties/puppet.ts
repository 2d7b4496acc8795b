import type { Ref, Resource, RunReport } from '../../machines/puppet';
import { dependenciesOf, refOf } from '../../machines/puppet';
import type { PuppetWorld } from '../worlds/puppet';
import type { Violation } from './systemd-restart';

export type { Violation };

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

const v = (report: RunReport, property: string, message: string): Violation => ({ frame: -1, t: report.time, property, message: `run ${report.run}: ${message}` });

/** transaction.rb: resources are evaluated after everything they depend on (require/before/notify/subscribe). */
export function orderRespectsRelationships(report: RunReport, catalog: Resource[]): Violation[] {
  const deps = dependenciesOf(catalog);
  const pos = new Map(report.order.map((r, i) => [r, i]));
  const out: Violation[] = [];
  for (const [ref, list] of deps) for (const d of list) {
    if ((pos.get(d) ?? Infinity) > (pos.get(ref) ?? -1)) out.push(v(report, 'orderRespectsRelationships', `${ref} evaluated before its dependency ${d}`));
  }
  return out;
}

/**
 * "Skipping because of failed dependencies": a resource with a failed resource anywhere upstream
 * is skipped and not changed; a skipped resource has one.
 */
export function failuresSkipDependents(report: RunReport, catalog: Resource[]): Violation[] {
  const deps = dependenciesOf(catalog);
  const byRef = new Map(report.statuses.map((s) => [s.ref, s]));
  const out: Violation[] = [];
  for (const s of report.statuses) {
    const failedUpstream = [...ancestors(deps, s.ref)].filter((a) => byRef.get(a)?.failed || byRef.get(a)?.failedToRestart);
    if (failedUpstream.length && !s.skipped) out.push(v(report, 'failuresSkipDependents', `${s.ref} was not skipped although ${failedUpstream.join(', ')} failed`));
    if (failedUpstream.length && (s.changed || s.restarted)) out.push(v(report, 'failuresSkipDependents', `${s.ref} changed although ${failedUpstream.join(', ')} failed`));
    if (!failedUpstream.length && s.skipped) out.push(v(report, 'failuresSkipDependents', `${s.ref} was skipped without a failed dependency`));
  }
  return out;
}

/** Report#compute_status and #exit_status agree: failed ⇔ bit 4, changes ⇔ bit 2. */
export function exitCodeMatchesReport(report: RunReport): Violation[] {
  const failed = report.status === 'failed';
  const ok = ((report.exitCode & 4) !== 0) === failed && ((report.exitCode & 2) !== 0) === report.changes > 0
    && (report.status !== 'unchanged' || report.exitCode === 0) && (report.status !== 'changed' || report.exitCode === 2);
  return ok ? [] : [v(report, 'exitCodeMatchesReport', `status ${report.status} with exit code ${report.exitCode} and ${report.changes} changes`)];
}

/** noop (the setting or the metaparameter) changes nothing on the host. */
export function noopChangesNothing(world: PuppetWorld, catalogOf: (version: number) => Resource[]): Violation[] {
  const out: Violation[] = [];
  for (const r of world.reports) {
    const noopRefs = new Set(catalogOf(r.catalogVersion).filter((x) => x.noop).map((x) => refOf(x.type, x.title)));
    for (const a of world.applied.filter((x) => x.run === r.run)) {
      if (r.noop || noopRefs.has(a.ref)) out.push(v(r, 'noopChangesNothing', `${a.ref} changed in noop`));
    }
  }
  return out;
}

/**
 * Idempotence: after a run that failed nothing and was not noop, a run of the same catalog with
 * nothing changed outside Puppet in between changes nothing.
 */
export function convergedRunsChangeNothing(world: PuppetWorld): Violation[] {
  const out: Violation[] = [];
  for (let i = 1; i < world.reports.length; i++) {
    const a = world.reports[i - 1]!;
    const b = world.reports[i]!;
    const end = world.reportedAt[i]!;
    if (a.status === 'failed' || a.noop || a.noopPending || b.noop || a.catalogVersion !== b.catalogVersion) continue;
    if (world.faults.some((f) => f.t >= a.time && f.t <= end)) continue;
    if (b.changes > 0 || b.resources.outOfSync > 0) out.push(v(b, 'convergedRunsChangeNothing', `${b.changes} changes after a converged run with no drift`));
  }
  return out;
}

/** Scheduler: the first run waits the splay (≤ splaylimit), then each run starts runinterval after the last began (or at once if it overran). */
export function runsFollowRuninterval(world: PuppetWorld, runintervalMs: number, splaylimitMs: number | null): Violation[] {
  const out: Violation[] = [];
  const first = world.reports[0];
  if (first && first.time > (splaylimitMs ?? 0)) out.push(v(first, 'runsFollowRuninterval', `first run at ${first.time}ms, after the splay limit ${splaylimitMs ?? 0}ms`));
  for (let i = 1; i < world.reports.length; i++) {
    const expected = Math.max(world.reports[i - 1]!.time + runintervalMs, world.reportedAt[i - 1]!);
    const got = world.reports[i]!.time;
    if (got !== expected) out.push(v(world.reports[i]!, 'runsFollowRuninterval', `started at ${got}ms, expected ${expected}ms`));
  }
  return out;
}

/** All per-run invariants, for a world whose catalog did not change during the run. */
export function puppetViolations(world: PuppetWorld, catalogOf: (version: number) => Resource[]): Violation[] {
  return [
    ...world.reports.flatMap((r) => [...orderRespectsRelationships(r, catalogOf(r.catalogVersion)), ...failuresSkipDependents(r, catalogOf(r.catalogVersion)), ...exitCodeMatchesReport(r)]),
    ...noopChangesNothing(world, catalogOf),
    ...convergedRunsChangeNothing(world),
  ];
}
