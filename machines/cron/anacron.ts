import type { AnacronJob, AnacronSettings, CronConfig } from './config';
export type { AnacronJob, AnacronSettings } from './config';
import type { DueRun } from './schedule';
import { minuteOf } from './schedule';

/**
 * anacron (anacron(8), anacrontab(5); cronie's anacron/main.c consider_job): a job runs when its
 * timestamp (the date it last ran, in /var/spool/anacron/<job-id>) is at least `period` days old,
 * or missing, or in the future (a clock skew); @monthly when it has not run this calendar month.
 * It starts `delay` minutes (plus up to RANDOM_DELAY) after anacron starts, and only inside
 * START_HOURS_RANGE. Only dates count, never times: a host that is down simply runs the job late.
 */

/** cronie's /etc/anacrontab: RANDOM_DELAY=45, START_HOURS_RANGE=3-22. */
export const CRONIE_ANACRONTAB: AnacronSettings = { randomDelayMin: 45, startHoursRange: [3, 22] };

/** Days since the epoch of a UTC date ("day_num"). */
export const dayOf = (ms: number) => Math.floor(ms / 86_400_000);

export function anacronDue(job: AnacronJob, lastRunDay: number | null, today: number): boolean {
  if (lastRunDay === null) return true;
  if (job.period === '@monthly') {
    const a = new Date(lastRunDay * 86_400_000);
    const b = new Date(today * 86_400_000);
    return a.getUTCFullYear() !== b.getUTCFullYear() || a.getUTCMonth() !== b.getUTCMonth();
  }
  const delta = today - lastRunDay;
  // "if day_delta is negative, we assume there was a clock skew and re-run any affected jobs"
  return delta < 0 || delta >= job.period;
}

/** START_HOURS_RANGE: jobs start only when the hour is in [from, to). */
export function inStartHours(settings: AnacronSettings, ms: number): boolean {
  const h = new Date(ms).getUTCHours();
  return h >= settings.startHoursRange[0] && h < settings.startHoursRange[1];
}

/** anacron: wait `delayMs` plus a random part of up to `randomDelayMs`, then run; -s runs them one after another. */
export interface AnacronStart {
  delayMs: number;
  randomDelayMs: number;
  serialize: boolean;
}

/**
 * One `anacron -s` invocation: the jobs whose timestamp is old enough, not locked by a running
 * anacron, inside START_HOURS_RANGE. Returns the runs and a line per job for the log.
 */
export function anacronPass(
  config: CronConfig,
  nowMs: number,
  stamps: Record<string, number>,
  active: DueRun[],
): { runs: DueRun[]; starts: AnacronStart[]; events: string[] } {
  const settings = config.anacron ?? CRONIE_ANACRONTAB;
  const today = dayOf(nowMs);
  const runs: DueRun[] = [];
  const starts: AnacronStart[] = [];
  const events: string[] = [];
  if (!inStartHours(settings, nowMs)) {
    const due = (config.anacrontab ?? []).filter((j) => anacronDue(j, stamps[j.id] ?? null, today)).map((j) => j.id);
    return {
      runs,
      starts,
      events: due.length ? [`outside START_HOURS_RANGE=${settings.startHoursRange.join('-')}: not starting ${due.join(', ')}`] : [],
    };
  }
  for (const job of config.anacrontab ?? []) {
    if (!anacronDue(job, stamps[job.id] ?? null, today)) continue;
    if (active.some((a) => a.job === job.id)) {
      events.push(`Job \`${job.id}' locked by another anacron - skipping`);
      continue;
    }
    runs.push({ job: job.id, minute: minuteOf(nowMs) });
    starts.push({ delayMs: job.delayMin * 60_000, randomDelayMs: settings.randomDelayMin * 60_000, serialize: true });
    events.push(`Will run job \`${job.id}' in ${job.delayMin} min. (+ up to RANDOM_DELAY=${settings.randomDelayMin})`);
  }
  return { runs, starts, events };
}
