import { assign, setup } from 'xstate';
import { errorMessage, namedActor } from '../named-actor';
import type { RestartDecision } from './policy';
import { EMPTY_RATE_LIMIT, restartDelayMs, serviceResult, shallRestart, startLimitBelow } from './policy';
import type { ProcessExit, ServiceResult, StartRateLimit, UnitConfig } from './types';
import { DEFAULT_UNIT } from './types';

export interface SystemdContext {
  unit: UnitConfig;
  startLimit: StartRateLimit;
  /** NRestarts=: automatic restarts since the last manual start. */
  nRestarts: number;
  /** Result= of the last run (service.c ServiceResult). */
  result: ServiceResult;
  lastExit: ProcessExit | null;
  mainPid: number | null;
  /** Set by a manual stop (service.c forbid_restart): Restart= is not consulted. */
  forbidRestart: boolean;
  /** `systemctl restart`: start again once the stop is done. */
  startAfterStop: boolean;
  /** Whether the start being checked is an automatic restart (keeps NRestarts) or a manual one. */
  autoStart: boolean;
  decision: RestartDecision | null;
  /** Delay chosen for the pending automatic restart, ms. */
  nextRestartDelayMs: number;
  lastError: string | null;
}

export type SystemdEvent =
  | { type: 'CONFIG.UPDATE'; unit: Partial<UnitConfig> }
  | { type: 'SYSTEMCTL.START' }
  | { type: 'SYSTEMCTL.STOP' }
  | { type: 'SYSTEMCTL.RESTART' }
  | { type: 'SYSTEMCTL.RESET_FAILED' }
  | { type: 'SYSTEMCTL.KILL'; signal: string };

export interface SpawnInput { unit: UnitConfig }
export interface SpawnOutput { pid: number }
export interface WatchInput { pid: number }
/** What watching the main process learns: it exited, or it stopped sending WATCHDOG=1. */
export type WatchOutput = { kind: 'exit'; exit: ProcessExit } | { kind: 'hung' } | { kind: 'gone' };
export interface SignalInput { pid: number; signal: string }
export interface SignalOutput { exit: ProcessExit }

/**
 * systemd's service manager for one unit: observe the main process (SIGCHLD, watchdog) →
 * compare its exit with the unit file (Result=, Restart=, the start limit) → act (spawn,
 * signal) → wait (RestartSec=). States follow service.c's ServiceState; `unitStatus` maps them
 * to the ActiveState/SubState pair `systemctl status` shows.
 */
export const systemdMachine = setup({
  types: {
    context: {} as SystemdContext,
    events: {} as SystemdEvent,
    input: {} as { unit?: Partial<UnitConfig> } | undefined,
  },
  actors: {
    spawnMain: namedActor<SpawnOutput, SpawnInput>('spawnMain'),
    watchMain: namedActor<WatchOutput, WatchInput>('watchMain'),
    signalMain: namedActor<SignalOutput, SignalInput>('signalMain'),
    /** The manager's monotonic clock, ms. */
    readClock: namedActor<number, void>('readClock'),
  },
  delays: {
    restartDelay: ({ context }) => context.nextRestartDelayMs,
    watchdog: ({ context }) => context.unit.watchdogMs,
    // Deciding is instant; a zero delay still lets a stepper rest on the compare phase.
    compareTime: 0,
  },
  guards: {
    enabledAtBoot: ({ context }) => context.unit.enabled,
    startAllowed: ({ context }) => context.result !== 'start-limit-hit',
    shallRestart: ({ context }) => context.decision?.restart === true,
    succeeded: ({ context }) => context.result === 'success',
    hasWatchdog: ({ context }) => context.unit.watchdogMs > 0,
    startAfterStop: ({ context }) => context.startAfterStop,
    watchedExit: ({ event }) => (event as { output?: WatchOutput }).output?.kind === 'exit',
    watchedHang: ({ event }) => (event as { output?: WatchOutput }).output?.kind === 'hung',
  },
  actions: {
    /** unit_test_start_limit(): every start counts, manual or automatic. */
    testStartLimit: assign(({ context }, params: { now: number }) => {
      const { allowed, limit } = startLimitBelow(context.startLimit, params.now, context.unit.startLimitIntervalMs, context.unit.startLimitBurst);
      const nRestarts = context.autoStart ? context.nRestarts : 0; // a manual start flushes NRestarts
      return allowed
        ? { startLimit: limit, nRestarts, result: 'success' as const, forbidRestart: false, decision: null }
        : { startLimit: limit, nRestarts, result: 'start-limit-hit' as const, decision: null };
    }),
    manualStart: assign({ autoStart: false }),
    recordSpawn: assign({ mainPid: (_, params: { pid: number }) => params.pid }),
    /** service_sigchld_event() then service_enter_dead(): Result= and the restart decision. */
    recordExit: assign(({ context }, params: { exit: ProcessExit; watchdog: boolean }) => {
      const result: ServiceResult = params.watchdog ? 'watchdog' : serviceResult(params.exit, context.unit);
      const decision = shallRestart(context.unit, params.exit, result, context.forbidRestart);
      return {
        lastExit: params.exit, mainPid: null, result, decision,
        nextRestartDelayMs: decision.restart ? restartDelayMs(context.unit, context.nRestarts + 1) : 0,
      };
    }),
    beginManualStop: assign({ forbidRestart: true, startAfterStop: false }),
    beginManualRestart: assign({ forbidRestart: true, startAfterStop: true }),
    /** The stop's SIGCHLD: Restart= is not consulted (forbid_restart), the unit ends inactive. */
    stopDone: assign((_, params: { exit: ProcessExit }) => ({
      mainPid: null, startAfterStop: false, autoStart: false, result: 'success' as const, lastExit: params.exit,
      decision: { restart: false, reason: 'manual stop' as const },
    })),
    queueRestart: assign({ nRestarts: ({ context }) => context.nRestarts + 1, autoStart: true }),
    cancelRestart: assign({ forbidRestart: true, decision: null }),
    /** unit_reset_failed(): Result= back to success, the start limit and NRestarts reset. */
    resetFailed: assign({ result: 'success' as const, startLimit: EMPTY_RATE_LIMIT, nRestarts: 0 }),
    recordError: assign({ lastError: (_, params: { error: unknown }) => errorMessage(params.error), mainPid: null }),
    updateUnit: assign({ unit: ({ context, event }) => (event.type === 'CONFIG.UPDATE' ? { ...context.unit, ...event.unit } : context.unit) }),
  },
}).createMachine({
  id: 'systemd-restart',
  context: ({ input }) => ({
    unit: { ...DEFAULT_UNIT, ...(input?.unit ?? {}) },
    startLimit: EMPTY_RATE_LIMIT,
    nRestarts: 0,
    result: 'success',
    lastExit: null,
    mainPid: null,
    forbidRestart: false,
    startAfterStop: false,
    autoStart: false,
    decision: null,
    nextRestartDelayMs: 0,
    lastError: null,
  }),
  // An edited unit file plus `systemctl daemon-reload`: used from the next decision on.
  on: {
    'CONFIG.UPDATE': { actions: 'updateUnit' },
    'SYSTEMCTL.RESET_FAILED': { actions: 'resetFailed' },
  },
  initial: 'boot',
  states: {
    boot: {
      tags: ['wait'],
      always: [{ guard: 'enabledAtBoot', target: 'startRequested', actions: 'manualStart' }, { target: 'dead' }],
    },
    dead: {
      tags: ['wait'],
      on: {
        'SYSTEMCTL.START': { target: 'startRequested', actions: 'manualStart' },
        'SYSTEMCTL.RESTART': { target: 'startRequested', actions: 'manualStart' },
      },
    },
    // ratelimit_below() reads CLOCK_MONOTONIC: reading the clock is the start's observation.
    startRequested: {
      tags: ['observe'],
      invoke: {
        id: 'readClock',
        src: 'readClock',
        onDone: { target: 'condition', actions: { type: 'testStartLimit', params: ({ event }) => ({ now: event.output }) } },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    condition: {
      tags: ['compare'],
      after: { compareTime: [{ guard: 'startAllowed', target: 'starting' }, { target: 'failed' }] },
    },
    starting: {
      tags: ['act'],
      invoke: {
        id: 'spawnMain',
        src: 'spawnMain',
        input: ({ context }) => ({ unit: context.unit }),
        onDone: { target: 'active', actions: { type: 'recordSpawn', params: ({ event }) => ({ pid: event.output.pid }) } },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    active: {
      tags: ['observe'],
      initial: 'running',
      on: {
        'SYSTEMCTL.STOP': { target: 'stopping', actions: 'beginManualStop' },
        'SYSTEMCTL.RESTART': { target: 'stopping', actions: 'beginManualRestart' },
        'SYSTEMCTL.KILL': { target: 'signalling' },
      },
      states: {
        running: {
          tags: ['observe'],
          invoke: {
            id: 'watchMain',
            src: 'watchMain',
            input: ({ context }) => ({ pid: context.mainPid ?? -1 }),
            onDone: [
              { guard: 'watchedExit', target: '#systemd-restart.evaluating', actions: { type: 'recordExit', params: ({ event }) => ({ exit: (event.output as Extract<WatchOutput, { kind: 'exit' }>).exit, watchdog: false }) } },
              { guard: 'watchedHang', target: 'hung' },
              { target: 'running', reenter: true },
            ],
            onError: { target: '#systemd-restart.failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        // Still "active (running)": without WatchdogSec= nobody notices the process stopped working.
        hung: {
          tags: ['observe'],
          always: { guard: 'hasWatchdog', target: 'watched' },
        },
        watched: {
          tags: ['observe'],
          after: { watchdog: '#systemd-restart.watchdogKill' },
        },
      },
    },
    // "Watchdog timeout (limit …)!" — killed with WatchdogSignal= (SIGABRT); Result=watchdog.
    watchdogKill: {
      tags: ['act'],
      on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' } },
      invoke: {
        id: 'signalMain',
        src: 'signalMain',
        input: ({ context }) => ({ pid: context.mainPid ?? -1, signal: 'SIGABRT' }),
        onDone: { target: 'evaluating', actions: { type: 'recordExit', params: ({ event }) => ({ exit: event.output.exit, watchdog: true }) } },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // `systemctl kill --signal=…`: not a stop, so Restart= still applies to the exit — unless a
    // `systemctl stop` arrives before the exit (service_stop sets forbid_restart).
    signalling: {
      tags: ['act'],
      on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' } },
      invoke: {
        id: 'signalMain',
        src: 'signalMain',
        input: ({ context, event }) => ({ pid: context.mainPid ?? -1, signal: event.type === 'SYSTEMCTL.KILL' ? event.signal : 'SIGTERM' }),
        onDone: { target: 'evaluating', actions: { type: 'recordExit', params: ({ event }) => ({ exit: event.output.exit, watchdog: false }) } },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // `systemctl stop` (or the stop half of restart): SIGTERM (KillSignal=), then dead. A stop
    // request during a restart's stop half cancels its start half: a stop job conflicts with a
    // restart job and replaces it (src/core/job.h job_type_is_conflicting, job_install).
    stopping: {
      tags: ['act'],
      on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' } },
      invoke: {
        id: 'signalMain',
        src: 'signalMain',
        input: ({ context }) => ({ pid: context.mainPid ?? -1, signal: 'SIGTERM' }),
        onDone: [
          { guard: 'startAfterStop', target: 'startRequested', actions: [{ type: 'stopDone', params: ({ event }) => ({ exit: event.output.exit }) }, 'manualStart'] },
          { target: 'dead', actions: { type: 'stopDone', params: ({ event }) => ({ exit: event.output.exit }) } },
        ],
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    evaluating: {
      tags: ['compare'],
      after: { compareTime: [{ guard: 'shallRestart', target: 'autoRestart' }, { guard: 'succeeded', target: 'dead' }, { target: 'failed' }] },
    },
    // ActiveState=activating, SubState=auto-restart: waiting RestartSec= (or the RestartSteps= step).
    autoRestart: {
      tags: ['wait'],
      on: {
        'SYSTEMCTL.STOP': { target: 'dead', actions: 'cancelRestart' },
        'SYSTEMCTL.START': { target: 'startRequested', actions: 'manualStart' },
      },
      after: { restartDelay: { target: 'startRequested', actions: 'queueRestart' } },
    },
    failed: {
      tags: ['error'],
      on: {
        'SYSTEMCTL.START': { target: 'startRequested', actions: 'manualStart' },
        'SYSTEMCTL.RESTART': { target: 'startRequested', actions: 'manualStart' },
        'SYSTEMCTL.RESET_FAILED': { target: 'dead', actions: 'resetFailed' },
      },
    },
  },
});

export type SystemdMachine = typeof systemdMachine;
