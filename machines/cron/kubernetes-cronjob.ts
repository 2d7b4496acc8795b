import type { ConcurrencyPolicy, CronConfig, CronJobFields } from './config';
export type { ConcurrencyPolicy, CronJobFields } from './config';
import type { CronEntry, DueRun } from './schedule';
import { entryMatches, minuteOf } from './schedule';

/**
 * The Kubernetes CronJob controller (v2, pkg/controller/cronjob/cronjob_controllerv2.go and
 * utils.go), as pure functions over minutes. Times are ms since the epoch (UTC).
 */

export interface CronJobSpec {
  name: string;
  entry: CronEntry;
  concurrencyPolicy: ConcurrencyPolicy;
  /** .spec.startingDeadlineSeconds (null: no deadline). */
  startingDeadlineSeconds: number | null;
  suspend: boolean;
}

export interface CronJobStatus { lastScheduleTime: number | null; active: string[] }

/** schedule.Next(t): the first scheduled minute strictly after t. */
export function nextSchedule(entry: CronEntry, afterMs: number, limitMs = afterMs + 366 * 86_400_000): number | null {
  for (let m = minuteOf(afterMs) + 1; m * 60_000 <= limitMs; m++) if (entryMatches(entry, m)) return m * 60_000;
  return null;
}

export interface MostRecent { earliest: number; scheduled: number | null; missed: number; tooMany: boolean }

/**
 * mostRecentScheduleTime(): from the last schedule time (or the creation time), pulled forward to
 * now − startingDeadlineSeconds when that is later, find the most recent scheduled time ≤ now and
 * how many were missed. More than 100 missed only warns (TooManyMissedTimes) in the v2 controller.
 */
export function mostRecentScheduleTime(spec: CronJobSpec, status: CronJobStatus, createdAt: number, now: number, includeDeadline = true): MostRecent {
  let earliest = status.lastScheduleTime ?? createdAt;
  if (includeDeadline && spec.startingDeadlineSeconds !== null) earliest = Math.max(earliest, now - spec.startingDeadlineSeconds * 1000);
  let scheduled: number | null = null;
  let missed = 0;
  for (let t = nextSchedule(spec.entry, earliest, now); t !== null && t <= now; t = nextSchedule(spec.entry, t, now)) { scheduled = t; missed++; }
  return { earliest, scheduled, missed, tooMany: missed > 100 };
}

/** getJobName(): "<cronjob>-<scheduled time in minutes since the epoch>". */
export const jobName = (spec: CronJobSpec, scheduled: number) => `${spec.name}-${Math.floor(scheduled / 60_000)}`;

/** nextScheduleTimeDuration(): requeue at the next schedule time plus 100 ms (nextScheduleDelta). */
export function requeueAfter(spec: CronJobSpec, status: CronJobStatus, createdAt: number, now: number): number | null {
  const { earliest, scheduled } = mostRecentScheduleTime(spec, status, createdAt, now, false);
  const next = nextSchedule(spec.entry, scheduled ?? earliest);
  return next === null ? null : next + 100 - now;
}

export type CronJobDecision =
  | { action: 'none'; reason: 'suspended' | 'no unmet start time' | 'already processed'; warning?: string }
  | { action: 'skip'; reason: 'MissSchedule' | 'JobAlreadyActive'; scheduled: number; warning?: string }
  | { action: 'create'; scheduled: number; job: string; deleteActive: string[]; missed: number; warning?: string };

/**
 * syncCronJob(): suspended → nothing; no unmet time → nothing; the most recent one is past its
 * starting deadline → MissSchedule; already started → nothing; Forbid with an active job →
 * JobAlreadyActive (lastScheduleTime is not moved, so it starts once the active one finished, if
 * still in time); Replace deletes the active jobs; then the Job for that one time is created —
 * only the most recent missed time, never one per missed time.
 */
export function decideCronJob(spec: CronJobSpec, status: CronJobStatus, createdAt: number, now: number): CronJobDecision {
  if (spec.suspend) return { action: 'none', reason: 'suspended' };
  const m = mostRecentScheduleTime(spec, status, createdAt, now);
  const warning = m.tooMany ? `TooManyMissedTimes: too many missed start times (${m.missed}). Set or decrease .spec.startingDeadlineSeconds or check clock skew` : undefined;
  const extra = warning ? { warning } : {};
  if (m.scheduled === null) return { action: 'none', reason: 'no unmet start time', ...extra };
  const scheduled = m.scheduled;
  if (spec.startingDeadlineSeconds !== null && scheduled + spec.startingDeadlineSeconds * 1000 < now) return { action: 'skip', reason: 'MissSchedule', scheduled, ...extra };
  const job = jobName(spec, scheduled);
  if (status.active.includes(job) || status.lastScheduleTime === scheduled) return { action: 'none', reason: 'already processed', ...extra };
  if (spec.concurrencyPolicy === 'Forbid' && status.active.length > 0) return { action: 'skip', reason: 'JobAlreadyActive', scheduled, ...extra };
  return { action: 'create', scheduled, job, deleteActive: spec.concurrencyPolicy === 'Replace' ? [...status.active] : [], missed: m.missed, ...extra };
}

/** Per-entry CronJob fields for mode 'kubernetes' (batch/v1 CronJobSpec). */
export const DEFAULT_CRONJOB: CronJobFields = { concurrencyPolicy: 'Allow', startingDeadlineSeconds: null, suspend: false };

/** The CronJob controller's view: creation time and each CronJob's status (kept in the API, so it survives restarts). */
export interface CronJobsState { createdAt: number | null; status: Record<string, { lastScheduleTime: number | null }>; events: string[] }

/**
 * One sync of every CronJob (syncCronJob per CronJob): which Job to create, which active ones to
 * delete (Replace), and the events to record. Jobs are named <cronjob>-<scheduled minute>.
 */
export function syncCronJobs(config: CronConfig, k8s: CronJobsState, nowMs: number, active: DueRun[]): { k8s: CronJobsState; runs: DueRun[]; kill: DueRun[] } {
  const createdAt = k8s.createdAt ?? nowMs;
  const status = { ...k8s.status };
  const runs: DueRun[] = [];
  const kill: DueRun[] = [];
  const events: string[] = [];
  for (const entry of config.entries.filter((e) => !e.reboot)) {
    const fields = config.cronJobs?.[entry.name] ?? DEFAULT_CRONJOB;
    const spec = { name: entry.name, entry, ...fields };
    const mine = active.filter((a) => a.job === entry.name);
    const st: CronJobStatus = { lastScheduleTime: status[entry.name]?.lastScheduleTime ?? null, active: mine.map((a) => jobName(spec, a.minute * 60_000)) };
    const d = decideCronJob(spec, st, createdAt, nowMs);
    if (d.warning) events.push(`${entry.name}: Warning ${d.warning}`);
    // The real controller syncs at each schedule time (and when a Job changes), not every minute:
    // report a skip once, at the time it concerns.
    if (d.action === 'skip' && Math.floor(d.scheduled / 60_000) === Math.floor(nowMs / 60_000)) events.push(`${entry.name}: ${d.reason === 'JobAlreadyActive' ? 'JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid' : 'MissSchedule: Missed scheduled time to start a job'}`);
    if (d.action !== 'create') continue;
    const minute = Math.floor(d.scheduled / 60_000);
    if (d.deleteActive.length) {
      kill.push(...mine);
      events.push(`${entry.name}: deleting ${d.deleteActive.join(', ')} (concurrencyPolicy Replace)`);
    }
    runs.push({ job: entry.name, minute });
    if (d.missed > 1) events.push(`${entry.name}: ${d.missed} start times missed, only the most recent (${d.job}) is started`);
    status[entry.name] = { lastScheduleTime: d.scheduled };
  }
  return { k8s: { createdAt, status, events }, runs, kill };
}
