import type { CronEntry } from './schedule';

/** The desired state of the cron loop and its modes' settings: types only, so that the machine and
 * the anacron / CronJob modules all import from here instead of from each other. */

/** anacrontab(5): a job's period in days (or @monthly) and its delay in minutes. */
export interface AnacronJob {
  id: string;
  period: number | '@monthly';
  delayMin: number;
}
/** anacrontab(5) RANDOM_DELAY and START_HOURS_RANGE. */
export interface AnacronSettings {
  randomDelayMin: number;
  startHoursRange: [number, number];
}

export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';
/** batch/v1 CronJobSpec fields; timeZone null: the controller's own zone (UTC here). */
export interface CronJobFields {
  concurrencyPolicy: ConcurrencyPolicy;
  startingDeadlineSeconds: number | null;
  suspend: boolean;
  timeZone: string | null;
}

export interface CronConfig {
  /** The crontab, in file order. */
  entries: CronEntry[];
  /** Wrap every command in `flock -n` (a run is skipped while the previous one holds the lock). */
  flock: boolean;
  /** 'cronie' (default): crond. 'kubernetes': each entry is a CronJob and the loop is its controller.
   * 'anacron': the anacrontab jobs, checked at boot and hourly (cronie's /etc/cron.hourly/0anacron). */
  mode?: 'cronie' | 'kubernetes' | 'anacron';
  cronJobs?: Record<string, CronJobFields>;
  anacrontab?: AnacronJob[];
  anacron?: AnacronSettings;
}
