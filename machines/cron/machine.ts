import { assign, setup } from 'xstate';
import { namedActor } from '../named-actor';
export type { CronConfig } from './config';
import type { AnacronStart } from './anacron';
import { anacronPass } from './anacron';
import type { CronJobEvent, CronJobsState } from './kubernetes-cronjob';
import { syncCronJobs } from './kubernetes-cronjob';
import type { CronConfig } from './config';
import type { DueRun, Wakeup } from './schedule';
import { cronieWakeup, dueRuns, minuteOf } from './schedule';

/** The clock; in kubernetes mode also the CronJobs' Jobs still running (the Job informer's view). */
/** randomScale: what this boot's crond drew for RANDOM_DELAY (cron.c RandomScale, in [0, 1]). */
export interface ClockReading {
  wallMs: number;
  bootId: number;
  active?: DueRun[];
  stamps?: Record<string, number>;
  randomScale?: number;
}

export interface CronContext {
  config: CronConfig;
  /** cron.c: the minute crond has processed up to (virtualTime) and the clock's minute (timeRunning). */
  virtualTime: number | null;
  timeRunning: number | null;
  lastWallMs: number | null;
  bootId: number | null;
  wakeup: Wakeup | null;
  pending: DueRun[];
  /** @reboot jobs are due (crond's first start after boot). */
  rebooted: boolean;
  /** Mode 'kubernetes': the controller's state and the Jobs to delete (concurrencyPolicy Replace). */
  k8s: CronJobsState;
  kill: DueRun[];
  /** Mode 'anacron': how the pending runs start. */
  anacronStarts: AnacronStart[];
  /** cron.c RandomScale of this crond (set at its start). */
  randomScale: number;
}

export type CronEvent = { type: 'CONFIG.UPDATE'; config: Partial<CronConfig> };
export interface RunJobsInput {
  runs: DueRun[];
  flock: boolean;
  kill?: DueRun[];
  anacron?: AnacronStart[];
}

/** ms until the next wall-clock minute (cron_sleep(timeRunning + 1)); at least 1 ms. */
function untilNextMinute(wallMs: number | null): number {
  if (wallMs === null) return 0;
  return 60_000 - (((wallMs % 60_000) + 60_000) % 60_000) || 60_000;
}

/**
 * cronie's crond, following cronie 1.7 (src/cron.c main loop and find_jobs, RANDOM_DELAY; the
 * `kubernetes` mode follows the Kubernetes 1.35 CronJob controller, the `anacron` mode cronie's anacron):
 * wait for the next minute → observe the wall clock → compare it with the
 * virtual clock and the crontab (cron.c's clock-jump cases) → act: fork the due jobs (crond
 * does not wait for them). A new boot id means crond (re)started: virtual time = now, missed
 * runs are not made up, @reboot jobs run.
 */
export const cronMachine = setup({
  types: {
    context: {} as CronContext, // cast: setup()'s types are declarations only, XState never reads these values
    events: {} as CronEvent, // cast: setup()'s types are declarations only, XState never reads these values
    input: {} as { config?: Partial<CronConfig> } | undefined, // cast: setup()'s types are declarations only, XState never reads these values
  },
  actors: {
    readClock: namedActor<ClockReading, void>('readClock'),
    runJobs: namedActor<void, RunJobsInput>('runJobs'),
  },
  delays: {
    untilNextMinute: ({ context }) => untilNextMinute(context.lastWallMs),
    compareTime: 0,
  },
  guards: {
    sameMinute: ({ context, event }) => {
      const r = (event as { output?: ClockReading }).output; // cast: only on readClock's onDone, whose output setup() types as ClockReading
      return !!r && r.bootId === context.bootId && minuteOf(r.wallMs) === context.timeRunning;
    },
    hasRuns: ({ context }) => context.pending.length > 0,
  },
  actions: {
    /** A new boot: set_time(TRUE); run_reboot_jobs(); timeRunning = virtualTime = clockTime. */
    /** Otherwise the wake-up is classified by cronieWakeup. */
    observe: assign(({ context }, params: { reading: ClockReading }) => {
      const { wallMs, bootId } = params.reading;
      const now = minuteOf(wallMs);
      if (context.config.mode === 'anacron') {
        // At boot (the anacron service) and at minute 01 of each hour (/etc/cron.d/0hourly → 0anacron).
        const invoked = bootId !== context.bootId || minuteOf(wallMs) % 60 === 1;
        const pass = invoked
          ? anacronPass(context.config, wallMs, params.reading.stamps ?? {}, params.reading.active ?? [])
          : { runs: [], starts: [], events: [] };
        return {
          bootId,
          lastWallMs: wallMs,
          timeRunning: now,
          virtualTime: now,
          wakeup: null,
          pending: pass.runs,
          anacronStarts: pass.starts,
          k8s: { ...context.k8s, events: pass.events.map((line): CronJobEvent => ({ kind: 'anacron', line })) },
          rebooted: false,
        };
      }
      if (context.config.mode === 'kubernetes') {
        const sync = syncCronJobs(context.config, context.k8s, wallMs, params.reading.active ?? []);
        return {
          bootId,
          lastWallMs: wallMs,
          timeRunning: now,
          virtualTime: now,
          wakeup: null,
          pending: sync.runs,
          kill: sync.kill,
          k8s: sync.k8s,
          rebooted: false,
        };
      }
      if (bootId !== context.bootId || context.virtualTime === null) {
        const runs = context.config.entries.filter((e) => e.reboot).map((e) => ({ job: e.name, minute: now }));
        return {
          bootId,
          lastWallMs: wallMs,
          timeRunning: now,
          virtualTime: now,
          wakeup: null,
          pending: runs,
          rebooted: true,
          randomScale: params.reading.randomScale ?? 0,
        };
      }
      const wakeup = cronieWakeup(context.virtualTime, now);
      return {
        lastWallMs: wallMs,
        timeRunning: now,
        virtualTime: wakeup.virtualTime,
        wakeup,
        pending: dueRuns(context.config.entries, wakeup, context.randomScale),
        rebooted: false,
      };
    }),
    noteClock: assign({ lastWallMs: (_, params: { reading: ClockReading }) => params.reading.wallMs }),
    clearPending: assign({ pending: [], kill: [], anacronStarts: [] }),
    updateConfig: assign({ config: ({ context, event }) => ({ ...context.config, ...event.config }) }),
  },
}).createMachine({
  id: 'cron',
  context: ({ input }) => ({
    config: { entries: [], flock: false, ...(input?.config ?? {}) },
    virtualTime: null,
    timeRunning: null,
    lastWallMs: null,
    bootId: null,
    wakeup: null,
    pending: [],
    rebooted: false,
    k8s: { createdAt: null, status: {}, events: [] },
    kill: [],
    anacronStarts: [],
    randomScale: 0,
  }),
  // A crontab edit (crond notices it via inotify): used from the next minute on.
  on: { 'CONFIG.UPDATE': { actions: 'updateConfig' } },
  initial: 'readingClock',
  states: {
    sleeping: {
      tags: ['wait'],
      after: { untilNextMinute: 'readingClock' },
    },
    readingClock: {
      tags: ['observe'],
      invoke: {
        id: 'readClock',
        src: 'readClock',
        onDone: [
          // do { cron_sleep(); set_time(); } while (clockTime == timeRunning);
          { guard: 'sameMinute', target: 'sleeping', actions: { type: 'noteClock', params: ({ event }) => ({ reading: event.output }) } },
          { target: 'comparing', actions: { type: 'observe', params: ({ event }) => ({ reading: event.output }) } },
        ],
      },
    },
    comparing: {
      tags: ['compare'],
      after: { compareTime: [{ guard: 'hasRuns', target: 'running' }, { target: 'sleeping' }] },
    },
    running: {
      tags: ['act'],
      invoke: {
        id: 'runJobs',
        src: 'runJobs',
        input: ({ context }) => ({
          runs: context.pending,
          flock: context.config.flock,
          ...(context.kill.length ? { kill: context.kill } : {}),
          ...(context.anacronStarts.length ? { anacron: context.anacronStarts } : {}),
        }),
        onDone: { target: 'sleeping', actions: 'clearPending' },
        onError: { target: 'sleeping', actions: 'clearPending' },
      },
    },
  },
});
