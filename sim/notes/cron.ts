// crond's, anacron's and the Kubernetes CronJob controller's narration (sim/loops/cron.ts,
// sim/worlds/cron.ts). Kubernetes events and anacron's and crond's own log lines are quoted verbatim.
import type { CronJobEvent, WakeupKind } from '../../machines/cron';
import type { MessageOf, NoteCatalog } from './catalog';
import { messagesOf, verbatim } from './catalog';

/** A Job the CronJob controller created, and the scheduled time (HH:MM) it is for. */
export type CreatedJob = { job: string; for: string };
/** How crond classified a wake-up other than the normal one minute later (cronie's cron.c). */
export type LateWakeup = Exclude<WakeupKind, 'normal'>;

const WAKEUPS: Record<LateWakeup, string> = {
  small: 'woke late: every missed minute runs',
  medium: 'clock jumped forward (DST starts?): wildcard jobs once, fixed-time jobs for each skipped minute',
  negative: 'clock went back (DST ends?): wildcard jobs only, fixed-time jobs are not repeated',
  large: 'clock jumped more than 3 h: treated as a correction, virtual time reset',
};

const cronJobEvent = (e: CronJobEvent) => {
  switch (e.kind) {
    case 'event':
      return `${e.cronJob}: ${verbatim(e.text)}`;
    case 'deleting':
      return `${e.cronJob}: deleting ${e.jobs.join(', ')} (${verbatim('concurrencyPolicy Replace')})`;
    case 'missed':
      return `${e.cronJob}: missed start times (estimated ${e.estimate}), only the most recent (${e.started}) is started`;
    case 'anacron':
      return verbatim(e.line);
  }
};

export const CRON_NOTES = {
  /** One sync of the CronJob controller at `at` (kubectl describe cronjob): the Jobs it created and its events. */
  'cron.cronJobSync': ({ at, created, events }: { at: string; created: CreatedJob[]; events: CronJobEvent[] }) =>
    `${at}: ${[...(created.length ? [`${verbatim('SuccessfulCreate')}: ${created.map((c) => `${c.job} (for ${c.for})`).join(', ')}`] : []), ...events.map(cronJobEvent)].join('; ')}`,
  'cron.anacron': ({ at, lines }: { at: string; lines: string[] }) => `${at} ${verbatim(`anacron -s: ${lines.join('; ')}`)}`,
  /** `reboot`: the @reboot jobs started; `randomDelay`: crond's RANDOM_DELAY line, empty without one. */
  'cron.started': ({ at, reboot, randomDelay }: { at: string; reboot: string; randomDelay: string }) =>
    `crond started at ${at}: missed runs are not made up${reboot ? `; ${verbatim(`@reboot: ${reboot}`)}` : ''}${randomDelay ? `; ${verbatim(randomDelay)}` : ''}`,
  'cron.due': ({ at, runs }: { at: string; runs: string }) => `${at}: due ${runs}`,
  'cron.wokeUp': ({ at, diff, kind, runs }: { at: string; diff: number; kind: LateWakeup; runs: string }) =>
    `${at}: timeDiff ${diff > 0 ? '+' : ''}${diff} min — ${WAKEUPS[kind]}${runs ? `; run ${runs}` : '; nothing due'}`,
  'cron.crontabReloaded': ({ entries, flock }: { entries: number; flock: boolean }) =>
    `crontab reloaded: ${entries} entries${flock ? `, ${verbatim('flock -n')}` : ''}`,
  /** `by`: signed minutes as the note prints them ("+60", "−60"). */
  'cron.clockJumps': ({ by, to }: { by: string; to: string }) => `clock jumps ${by} min → ${to}`,
  'cron.overrun': ({ job, minutes }: { job: string; minutes: number }) => `${job} overruns: its run takes ${minutes} min longer`,
  'cron.controllerDown': ({ minutes }: { minutes: number }) =>
    `${verbatim('kube-controller-manager')} down for ${minutes} min (running Jobs continue)`,
  'cron.hostDown': ({ minutes }: { minutes: number }) => `host down for ${minutes} min`,
} satisfies NoteCatalog;

export const cronNote = messagesOf<typeof CRON_NOTES>();
export type CronNote = MessageOf<typeof CRON_NOTES>;
