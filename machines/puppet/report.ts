import type { ReportStatus, ResourceStatus, RunReport } from './types';

/**
 * Report#compute_status (lib/puppet/transaction/report.rb): 'failed' when a resource failed or
 * failed to restart (or the catalog could not be applied), else 'changed' when anything changed,
 * else 'unchanged'. Noop events are not changes.
 */
export function reportStatus(failed: number, failedToRestart: number, changes: number, completed = true): ReportStatus {
  if (!completed || failed > 0 || failedToRestart > 0) return 'failed';
  return changes > 0 ? 'changed' : 'unchanged';
}

/**
 * Report#exit_status, what `--detailed-exitcodes` returns: a bit mask, 2 = there were changes,
 * 4 = there were failures; so 0, 2, 4 or 6.
 */
export function detailedExitCode(changes: number, failed: number, failedToRestart: number): number {
  return (changes > 0 ? 2 : 0) | (failed > 0 || failedToRestart > 0 ? 4 : 0);
}

/** Report#finalize_report: the metrics, status and exit code of a run from its resource statuses. */
export function buildReport(
  run: number,
  time: number,
  catalogVersion: number,
  noop: boolean,
  order: string[],
  statuses: ResourceStatus[],
  completed = true,
): RunReport {
  const count = (f: (s: ResourceStatus) => boolean) => statuses.filter(f).length;
  const changes = statuses.reduce((n, s) => n + (s.changed ? s.outOfSync.length : 0), 0);
  const resources = {
    total: statuses.length,
    changed: count((s) => s.changed),
    failed: count((s) => s.failed),
    skipped: count((s) => s.skipped),
    outOfSync: count((s) => s.outOfSync.length > 0),
    restarted: count((s) => s.restarted && !s.noop),
    failedToRestart: count((s) => s.failedToRestart),
    corrective: count((s) => s.corrective),
  };
  return {
    run,
    time,
    catalogVersion,
    noop,
    status: reportStatus(resources.failed, resources.failedToRestart, changes, completed),
    exitCode: completed ? detailedExitCode(changes, resources.failed, resources.failedToRestart) : 1,
    changes,
    corrective: resources.corrective > 0,
    noopPending: statuses.some((s) => s.noop),
    resources,
    statuses,
    order,
  };
}
