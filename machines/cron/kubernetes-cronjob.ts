import type { ConcurrencyPolicy, CronConfig, CronJobFields } from './config';
export type { ConcurrencyPolicy, CronJobFields } from './config';
import type { CronJobSchedule } from './cronjob-schedule';
import { matchesIn, scheduleNext } from './cronjob-schedule';
import type { CronEntry, DueRun } from './schedule';
import { entryMatches, minuteOf } from './schedule';

/**
 * The Kubernetes CronJob controller as pure functions, following Kubernetes 1.35
 * (pkg/controller/cronjob/cronjob_controllerv2.go syncCronJob and utils.go, schedules by
 * robfig/cron v3: ./cronjob-schedule.ts). Times are ms since the epoch (UTC).
 */

export interface CronJobSpec {
  name: string;
  entry: CronEntry;
  concurrencyPolicy: ConcurrencyPolicy;
  /** .spec.startingDeadlineSeconds (null: no deadline). */
  startingDeadlineSeconds: number | null;
  suspend: boolean;
  /** .spec.timeZone (null: the controller's own zone, UTC here). */
  timeZone?: string | null;
}

export interface CronJobStatus {
  lastScheduleTime: number | null;
  active: string[];
}

/** The robfig schedule of a CronJob: @every, or its five fields read in its time zone. */
const scheduleOf = (spec: Pick<CronJobSpec, 'entry' | 'timeZone'>): CronJobSchedule =>
  spec.entry.everyMs !== undefined
    ? { kind: 'every', delayMs: spec.entry.everyMs }
    : { kind: 'cron', entry: spec.entry, timeZone: spec.timeZone ?? null };

/** Whether a whole minute is a scheduled time of a five-field CronJob schedule (its zone's wall clock). */
export const cronJobMatches = (spec: Pick<CronJobSpec, 'entry' | 'timeZone'>, minute: number) =>
  matchesIn(spec.entry, minute, spec.timeZone ?? null);

/** schedule.Next(t) (null: robfig's zero time, no time within five years). */
export const cronJobNext = (spec: Pick<CronJobSpec, 'entry' | 'timeZone'>, afterMs: number) => scheduleNext(scheduleOf(spec), afterMs);

/** The first minute strictly after t where a crontab line matches (cronie's rule, UTC wall clock), up to a limit. */
export function nextSchedule(entry: CronEntry, afterMs: number, limitMs = afterMs + 366 * 86_400_000): number | null {
  for (let m = minuteOf(afterMs) + 1; m * 60_000 <= limitMs; m++) if (entryMatches(entry, m)) return m * 60_000;
  return null;
}

export type MissedSchedules = 'none' | 'few' | 'many';

export interface MostRecent {
  earliest: number;
  /** The most recent time a Job should be created, or null. */
  scheduled: number | null;
  /** missedSchedulesType: from the estimate, not from a count. */
  missed: MissedSchedules;
  /** numberOfMissedSchedules = (now − t1) / (t2 − t1) + 1, in whole seconds (0 when not estimated). */
  estimate: number;
  /** The edge case of a schedule that never comes (e.g. "59 23 31 2 *"). */
  error?: string;
}

/**
 * utils.go mostRecentScheduleTime(), as written: earliest = lastScheduleTime or the creation time,
 * pulled forward to now − startingDeadlineSeconds when asked; t1 = Next(earliest), t2 = Next(t1).
 * now < t1: nothing; now < t2: t1 (none missed). Otherwise the number of missed times is
 * estimated as (now − t1)/(t2 − t1) + 1 in whole seconds (exact only for regular schedules), and
 * the most recent time is searched from t1 + (estimate − 2)·(t2 − t1) on: for an irregular
 * schedule (e.g. "30 10,11,12 * * 1-5") it may find nothing although times were missed, and then
 * nothing starts. More than 100 estimated → "many".
 */
export function mostRecentScheduleTime(
  spec: CronJobSpec,
  status: CronJobStatus,
  createdAt: number,
  now: number,
  includeDeadline = true,
): MostRecent {
  const schedule = scheduleOf(spec);
  let earliest = status.lastScheduleTime ?? createdAt;
  if (includeDeadline && spec.startingDeadlineSeconds !== null) earliest = Math.max(earliest, now - spec.startingDeadlineSeconds * 1000);
  const t1 = scheduleNext(schedule, earliest);
  const t2 = t1 === null ? null : scheduleNext(schedule, t1);
  if (t1 !== null && now < t1) return { earliest, scheduled: null, missed: 'none', estimate: 0 };
  if (t1 !== null && t2 !== null && now < t2) return { earliest, scheduled: t1, missed: 'none', estimate: 0 };
  // int64(t2.Sub(t1).Round(time.Second).Seconds()); the zero time gives 0.
  const between = t1 === null || t2 === null ? 0 : Math.round((t2 - t1) / 1000);
  if (between < 1)
    return { earliest, scheduled: null, missed: 'none', estimate: 0, error: 'time difference between two schedules is less than 1 second' };
  const elapsed = Math.trunc((now - t1!) / 1000); // int64(now.Sub(t1).Seconds())
  const estimate = Math.trunc(elapsed / between) + 1;
  const potentialEarliest = t1! + (estimate - 1 - 1) * between * 1000;
  let scheduled: number | null = null;
  for (let t = scheduleNext(schedule, potentialEarliest); t !== null && t <= now; t = scheduleNext(schedule, t)) scheduled = t;
  const missed: MissedSchedules = estimate > 100 ? 'many' : estimate > 0 ? 'few' : 'none';
  return { earliest, scheduled, missed, estimate };
}

/** getJobName(): "<cronjob>-<scheduled time in minutes since the epoch>". */
export const jobName = (spec: CronJobSpec, scheduled: number) => `${spec.name}-${Math.floor(scheduled / 60_000)}`;

/**
 * nextScheduleTimeDuration(): requeue at Next(most recent time) + 100 ms (nextScheduleDelta); with
 * no most recent time, from earliest if none were missed, else from now; on the error, from now.
 */
export function requeueAfter(spec: CronJobSpec, status: CronJobStatus, createdAt: number, now: number): number | null {
  const m = mostRecentScheduleTime(spec, status, createdAt, now, false);
  const from = m.error !== undefined ? now : (m.scheduled ?? (m.missed === 'none' ? m.earliest : now));
  const next = scheduleNext(scheduleOf(spec), from);
  return next === null ? null : next + 100 - now;
}

export type CronJobDecision =
  | {
      action: 'none';
      reason: 'suspended' | 'no unmet start time' | 'already processed' | 'InvalidSchedule';
      warning?: string;
      missed?: MissedSchedules;
    }
  | { action: 'skip'; reason: 'MissSchedule' | 'JobAlreadyActive'; scheduled: number; warning?: string }
  | {
      action: 'create';
      scheduled: number;
      job: string;
      deleteActive: string[];
      missed: MissedSchedules;
      estimate: number;
      warning?: string;
    };

/**
 * syncCronJob(): suspended → nothing; nextScheduleTime() (the most recent time, with the
 * starting deadline; its error → an InvalidSchedule event, nothing else); no time → nothing; the
 * time is past its starting deadline → MissSchedule; already started → nothing; Forbid with an
 * active job → JobAlreadyActive (lastScheduleTime is not moved, so it starts once the active one
 * finished, if still in time); Replace deletes the active jobs; then the Job for that one time is
 * created — only the most recent missed time, never one per missed time.
 */
export function decideCronJob(spec: CronJobSpec, status: CronJobStatus, createdAt: number, now: number): CronJobDecision {
  if (spec.suspend) return { action: 'none', reason: 'suspended' };
  const m = mostRecentScheduleTime(spec, status, createdAt, now);
  if (m.error !== undefined)
    return { action: 'none', reason: 'InvalidSchedule', warning: `InvalidSchedule: invalid schedule: ${spec.entry.schedule} : ${m.error}` };
  if (m.scheduled === null) return { action: 'none', reason: 'no unmet start time', missed: m.missed };
  // nextScheduleTime(): the TooManyMissedTimes event comes with a time to start.
  const extra =
    m.missed === 'many'
      ? { warning: 'TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew' }
      : {};
  const scheduled = m.scheduled;
  if (spec.startingDeadlineSeconds !== null && scheduled + spec.startingDeadlineSeconds * 1000 < now)
    return { action: 'skip', reason: 'MissSchedule', scheduled, ...extra };
  const job = jobName(spec, scheduled);
  if (status.active.includes(job) || status.lastScheduleTime === scheduled)
    return { action: 'none', reason: 'already processed', ...extra };
  if (spec.concurrencyPolicy === 'Forbid' && status.active.length > 0)
    return { action: 'skip', reason: 'JobAlreadyActive', scheduled, ...extra };
  return {
    action: 'create',
    scheduled,
    job,
    deleteActive: spec.concurrencyPolicy === 'Replace' ? [...status.active] : [],
    missed: m.missed,
    estimate: m.estimate,
    ...extra,
  };
}

/** Per-entry CronJob fields for mode 'kubernetes' (batch/v1 CronJobSpec). */
export const DEFAULT_CRONJOB: CronJobFields = { concurrencyPolicy: 'Allow', startingDeadlineSeconds: null, suspend: false, timeZone: null };

/**
 * What a sync recorded, as data (the simulator's note words it): a CronJob's Kubernetes event (its
 * reason and message as the API has them), the Jobs it deletes (concurrencyPolicy Replace), its missed
 * start times; or, in mode anacron, a line of anacron's own log.
 */
export type CronJobEvent =
  | { kind: 'event'; cronJob: string; text: string }
  | { kind: 'deleting'; cronJob: string; jobs: string[] }
  | { kind: 'missed'; cronJob: string; estimate: number; started: string }
  | { kind: 'anacron'; line: string };

/** The CronJob controller's view: creation time and each CronJob's status (kept in the API, so it survives restarts). */
export interface CronJobsState {
  createdAt: number | null;
  status: Record<string, { lastScheduleTime: number | null }>;
  events: CronJobEvent[];
}

/**
 * One sync of every CronJob (syncCronJob per CronJob): which Job to create, which active ones to
 * delete (Replace), and the events to record. Jobs are named <cronjob>-<scheduled minute>.
 */
export function syncCronJobs(
  config: CronConfig,
  k8s: CronJobsState,
  nowMs: number,
  active: DueRun[],
): { k8s: CronJobsState; runs: DueRun[]; kill: DueRun[] } {
  const createdAt = k8s.createdAt ?? nowMs;
  const status = { ...k8s.status };
  const runs: DueRun[] = [];
  const kill: DueRun[] = [];
  const events: CronJobEvent[] = [];
  for (const entry of config.entries.filter((e) => !e.reboot)) {
    const fields = config.cronJobs?.[entry.name] ?? DEFAULT_CRONJOB;
    const spec = { name: entry.name, entry, ...fields };
    const mine = active.filter((a) => a.job === entry.name);
    const st: CronJobStatus = {
      lastScheduleTime: status[entry.name]?.lastScheduleTime ?? null,
      active: mine.map((a) => jobName(spec, a.minute * 60_000)),
    };
    const d = decideCronJob(spec, st, createdAt, nowMs);
    // An invalid schedule is reported once, at the first sync (the controller does not requeue
    // it); other warnings come with each sync that found a time to start.
    if (d.warning && (d.action !== 'none' || d.reason !== 'InvalidSchedule' || k8s.createdAt === null))
      events.push({ kind: 'event', cronJob: entry.name, text: `Warning ${d.warning}` });
    // The real controller syncs at each schedule time (and when a Job changes), not every minute:
    // report a skip once, at the time it concerns.
    if (d.action === 'skip' && Math.floor(d.scheduled / 60_000) === Math.floor(nowMs / 60_000))
      events.push({
        kind: 'event',
        cronJob: entry.name,
        text:
          d.reason === 'JobAlreadyActive'
            ? 'JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid'
            : 'MissSchedule: Missed scheduled time to start a job',
      });
    if (d.action !== 'create') continue;
    const minute = Math.floor(d.scheduled / 60_000);
    if (d.deleteActive.length) {
      kill.push(...mine);
      events.push({ kind: 'deleting', cronJob: entry.name, jobs: d.deleteActive });
    }
    runs.push({ job: entry.name, minute });
    if (d.missed !== 'none') events.push({ kind: 'missed', cronJob: entry.name, estimate: d.estimate, started: d.job });
    status[entry.name] = { lastScheduleTime: d.scheduled };
  }
  return { k8s: { createdAt, status, events }, runs, kill };
}
