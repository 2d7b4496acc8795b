/**
 * systemd's service manager for one unit, following systemd v262 (src/core/service.c:
 * service_start, service_stop, service_sigchld_event, service_dispatch_timer, service_enter_dead,
 * service_enter_restart, service_notify_cgroup_oom_event, service_test_startable; systemd.service(5),
 * systemd.kill(5), systemd.unit(5)). Type=simple and Type=oneshot; no ExecStartPre/Post/Stop/StopPost
 * commands, one process per unit.
 */
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
  /** Result= of the last run (service.c ServiceResult): the first failure of a run sticks. */
  result: ServiceResult;
  lastExit: ProcessExit | null;
  mainPid: number | null;
  /** Set by a manual stop (service.c forbid_restart): Restart= is not consulted. */
  forbidRestart: boolean;
  /** `systemctl restart`: start again once the stop is done. */
  startAfterStop: boolean;
  /** Whether the start being checked is an automatic restart (keeps NRestarts) or a manual one. */
  autoStart: boolean;
  /**
   * `systemctl start` during the auto-restart hold-off: service_start() turns it into the restart
   * ("hurry up", service_enter_restart(shortcut=true)); the start limit is tested once for the
   * client's start (AUTO_RESTART) and again when the re-enqueued job runs (AUTO_RESTART_QUEUED).
   */
  hurry: boolean;
  decision: RestartDecision | null;
  /** Delay chosen for the pending automatic restart, ms (RestartSec=/RestartSteps= + the random part). */
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

export interface SpawnInput {
  unit: UnitConfig;
}
export interface SpawnOutput {
  pid: number;
}
export interface WatchInput {
  pid: number;
}
/**
 * What watching the main process learns: it exited, the kernel's OOM killer killed it (the cgroup's
 * memory.events oom_kill, dispatched before the SIGCHLD: EVENT_PRIORITY_CGROUP_OOM is above
 * EVENT_PRIORITY_SIGCHLD in src/core/manager.h), or it stopped sending WATCHDOG=1.
 */
export type WatchOutput = { kind: 'exit'; exit: ProcessExit } | { kind: 'oom'; exit: ProcessExit } | { kind: 'hung' } | { kind: 'gone' };
export interface SignalInput {
  pid: number;
  signal: string;
}
/** exit null: the process caught the signal and keeps running. */
export interface SignalOutput {
  exit: ProcessExit | null;
}
export interface DrawInput {
  maxMs: number;
}

type Ended = { exit: ProcessExit; oom: boolean };
const ended = (output: WatchOutput): Ended =>
  output.kind === 'exit' || output.kind === 'oom'
    ? { exit: output.exit, oom: output.kind === 'oom' }
    : { exit: { kind: 'exited', code: 0 }, oom: false };
const watchOf = (event: { output?: unknown }) => event.output as WatchOutput; // cast: used on watchMain's onDone, whose output setup() types as WatchOutput

/** service_notify_cgroup_oom_event(): OOMPolicy=stop/kill fail the run with oom-kill; continue leaves the SIGKILL's result. */
function resultOf(ctx: SystemdContext, e: Ended, failure?: ServiceResult): ServiceResult {
  if (ctx.result !== 'success') return ctx.result;
  if (failure) return failure;
  if (e.oom && ctx.unit.oomPolicy !== 'continue') return 'oom-kill';
  return serviceResult(e.exit, ctx.unit);
}

/** The main process's end, the way service_sigchld_event() and service_enter_dead() take it. */
function ending(ctx: SystemdContext, e: Ended, failure?: ServiceResult) {
  const result = resultOf(ctx, e, failure);
  const decision = shallRestart(ctx.unit, e.exit, result, ctx.forbidRestart);
  return {
    lastExit: e.exit,
    mainPid: null,
    result,
    decision,
    nextRestartDelayMs: decision.restart ? restartDelayMs(ctx.unit, ctx.nRestarts + 1) : 0,
  };
}

/** The recorded end of a watched main process (its exit, and whether the kernel's OOM killer did it). */
const recordWatchedEnd = {
  type: 'recordEnd',
  params: ({ event }: { event: { output?: unknown } }) => ({ ...ended(watchOf(event)) }),
} as const;
const recordErrorAction = { type: 'recordError', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } as const;

/** Watching the main process (sd-event's SIGCHLD source): shared by the running and the stop-sigterm states. */
function watchMainInvoke<const T>(onDone: T) {
  return {
    id: 'watchMain',
    src: 'watchMain',
    input: ({ context }: { context: SystemdContext }) => ({ pid: context.mainPid ?? -1 }),
    onDone,
    onError: { target: '#systemd-restart.failed', actions: recordErrorAction },
  } as const;
}

/**
 * The states of a unit whose main process runs: watched for its exit (and, while running, its
 * watchdog), and `systemctl kill` delivered to it. Shared by "activating (start)" (Type=oneshot)
 * and "active (running)" (Type=simple), each with and without its timer.
 */
const mainProcessStates = {
  running: {
    tags: ['observe'],
    invoke: watchMainInvoke([
      { guard: 'watchedEndRemains', target: '#systemd-restart.exited', actions: recordWatchedEnd },
      { guard: 'watchedEnd', target: '#systemd-restart.evaluating', actions: recordWatchedEnd },
      { guard: 'watchedHang', target: 'hung' },
      { target: 'running', reenter: true },
    ]),
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
  // `systemctl kill --signal=…`: not a stop, so Restart= still applies to the exit — unless a
  // `systemctl stop` arrives before the exit (service_stop sets forbid_restart). A caught signal
  // leaves the process running.
  signalling: {
    tags: ['act'],
    on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' }, 'SYSTEMCTL.RESTART': { actions: [] }, 'SYSTEMCTL.KILL': { actions: [] } },
    invoke: {
      id: 'signalMain',
      src: 'signalMain',
      input: ({ context, event }: { context: SystemdContext; event: SystemdEvent }) => ({
        pid: context.mainPid ?? -1,
        signal: event.type === 'SYSTEMCTL.KILL' ? event.signal : context.unit.killSignal,
      }),
      onDone: [
        {
          guard: 'signalledEndRemains',
          target: '#systemd-restart.exited',
          actions: {
            type: 'recordEnd',
            params: ({ event }: { event: { output: SignalOutput } }) => ({ exit: event.output.exit!, oom: false }),
          },
        },
        {
          guard: 'signalledEnd',
          target: '#systemd-restart.evaluating',
          actions: {
            type: 'recordEnd',
            params: ({ event }: { event: { output: SignalOutput } }) => ({ exit: event.output.exit!, oom: false }),
          },
        },
        { target: 'running' },
      ],
      onError: { target: '#systemd-restart.failed', actions: recordErrorAction },
    },
  },
} as const;

/** A running main process: `systemctl stop` / `restart` / `kill` (service_stop, job restart, unit_kill). */
const runningControls = {
  'SYSTEMCTL.STOP': { target: '#systemd-restart.stopping', actions: 'beginManualStop' },
  'SYSTEMCTL.RESTART': { target: '#systemd-restart.stopping', actions: 'beginManualRestart' },
  'SYSTEMCTL.KILL': { target: '.signalling' },
} as const;

/**
 * A start job not yet run (no process yet): `systemctl stop` queues a stop job, which in the
 * default --job-mode=replace replaces the conflicting pending start job (systemctl(1) --job-mode;
 * job_type_is_conflicting in src/core/job.c), and the unit stays inactive (dead).
 */
const startJobControls = {
  'SYSTEMCTL.STOP': { target: '#systemd-restart.dead', actions: ['cancelRestart', 'clearHurry'] },
} as const;

/** Waiting for the main process to die after KillSignal= (stop-sigterm), with or without TimeoutStopSec=. */
const sigtermWaitStates = {
  waiting: {
    tags: ['observe'],
    invoke: watchMainInvoke([
      { guard: 'watchedEnd', target: '#systemd-restart.stopped', actions: recordWatchedEnd },
      { guard: 'watchedHang', target: 'hung' },
      { target: 'waiting', reenter: true },
    ]),
  },
  hung: { tags: ['observe'] },
} as const;

export const systemdMachine = setup({
  types: {
    context: {} as SystemdContext, // cast: setup()'s types are declarations only, XState never reads these values
    events: {} as SystemdEvent, // cast: setup()'s types are declarations only, XState never reads these values
    input: {} as { unit?: Partial<UnitConfig> } | undefined, // cast: setup()'s types are declarations only, XState never reads these values
  },
  actors: {
    spawnMain: namedActor<SpawnOutput, SpawnInput>('spawnMain'),
    watchMain: namedActor<WatchOutput, WatchInput>('watchMain'),
    signalMain: namedActor<SignalOutput, SignalInput>('signalMain'),
    /** The manager's monotonic clock, ms. */
    readClock: namedActor<number, void>('readClock'),
    /** random_u64_range(RestartRandomizedDelaySec=): the world's seeded generator answers. */
    drawRestartDelay: namedActor<number, DrawInput>('drawRestartDelay'),
  },
  delays: {
    restartDelay: ({ context }) => context.nextRestartDelayMs,
    watchdog: ({ context }) => context.unit.watchdogMs,
    startTimeout: ({ context }) => context.unit.timeoutStartMs ?? 0,
    runtimeMax: ({ context }) => context.unit.runtimeMaxMs ?? 0,
    stopTimeout: ({ context }) => context.unit.timeoutStopMs ?? 0,
    // Deciding is instant; a zero delay still lets a stepper rest on the compare phase.
    compareTime: 0,
  },
  guards: {
    enabledAtBoot: ({ context }) => context.unit.enabled,
    startAllowed: ({ context }) => context.result !== 'start-limit-hit',
    shallRestart: ({ context }) => context.decision?.restart === true,
    shallRestartRandomly: ({ context }) => context.decision?.restart === true && context.unit.restartRandomizedDelayMs > 0,
    succeeded: ({ context }) => context.result === 'success',
    // SERVICE_STATE_WITH_WATCHDOG: only a running Type=simple unit; a oneshot is never running.
    hasWatchdog: ({ context }) => context.unit.watchdogMs > 0 && context.unit.type === 'simple',
    isOneshot: ({ context }) => context.unit.type === 'oneshot',
    oneshotTimed: ({ context }) => context.unit.type === 'oneshot' && context.unit.timeoutStartMs !== null,
    hasRuntimeMax: ({ context }) => context.unit.runtimeMaxMs !== null,
    hasStopTimeout: ({ context }) => context.unit.timeoutStopMs !== null,
    startAfterStop: ({ context }) => context.startAfterStop,
    manualStopClean: ({ context }) => context.forbidRestart && context.result === 'success',
    manualStop: ({ context }) => context.forbidRestart,
    watchedEnd: ({ event }) => {
      const k = (event as { output?: WatchOutput }).output?.kind; // cast: a guard of watchMain's onDone (output typed in setup())
      return k === 'exit' || k === 'oom';
    },
    // service_enter_running(): a clean end with RemainAfterExit= leaves the unit active (exited).
    watchedEndRemains: ({ context, event }) => {
      const out = (event as { output?: WatchOutput }).output; // cast: a guard of watchMain's onDone (output typed in setup())
      return (
        context.unit.remainAfterExit &&
        out !== undefined &&
        (out.kind === 'exit' || out.kind === 'oom') &&
        resultOf(context, ended(out)) === 'success'
      );
    },
    watchedHang: ({ event }) => (event as { output?: WatchOutput }).output?.kind === 'hung', // cast: a guard of watchMain's onDone (output typed in setup())
    signalledEnd: ({ event }) => (event as { output?: SignalOutput }).output?.exit != null, // cast: a guard of signalMain's onDone (output typed in setup())
    signalledEndRemains: ({ context, event }) => {
      const exit = (event as { output?: SignalOutput }).output?.exit; // cast: a guard of signalMain's onDone (output typed in setup())
      return context.unit.remainAfterExit && exit != null && resultOf(context, { exit, oom: false }) === 'success';
    },
  },
  actions: {
    /** service_test_startable() → unit_test_start_limit(): every start counts, manual or automatic. */
    testStartLimit: assign(({ context }, params: { now: number }) => {
      const { startLimitIntervalMs: interval, startLimitBurst: burst } = context.unit;
      let limit = context.startLimit;
      let nRestarts = context.autoStart ? context.nRestarts : 0; // a manual start flushes NRestarts
      if (context.hurry) {
        // The client's start job, tested in AUTO_RESTART; service_start() then enqueues the restart.
        const first = startLimitBelow(limit, params.now, interval, burst);
        limit = first.limit;
        if (!first.allowed) return { startLimit: limit, nRestarts, result: 'start-limit-hit' as const, decision: null };
        nRestarts += 1;
      }
      const { allowed, limit: next } = startLimitBelow(limit, params.now, interval, burst);
      return allowed
        ? { startLimit: next, nRestarts, result: 'success' as const, forbidRestart: false, decision: null }
        : { startLimit: next, nRestarts, result: 'start-limit-hit' as const, decision: null };
    }),
    manualStart: assign({ autoStart: false, hurry: false }),
    hurryUp: assign({ autoStart: true, hurry: true }),
    clearHurry: assign({ hurry: false }),
    recordSpawn: assign({ mainPid: (_, params: { pid: number }) => params.pid }),
    /** The main process ended (SIGCHLD, or the OOM killer): Result= and service_shall_restart(). */
    recordEnd: assign(({ context }, params: Ended) => ending(context, params)),
    recordWatchdogEnd: assign(({ context }, params: { exit: ProcessExit }) =>
      ending(context, { exit: params.exit, oom: false }, 'watchdog'),
    ),
    /** A timer fired (service_dispatch_timer): the run fails with this result unless it failed already. */
    failWith: assign({
      result: ({ context }, params: { result: ServiceResult }) => (context.result === 'success' ? params.result : context.result),
    }),
    beginManualStop: assign({ forbidRestart: true, startAfterStop: false }),
    beginManualRestart: assign({ forbidRestart: true, startAfterStop: true }),
    /** Stopping an active (exited) unit: nothing to kill; the run's result stays. */
    stopExited: assign({ forbidRestart: true, startAfterStop: false, decision: { restart: false, reason: 'manual stop' as const } }),
    clearStop: assign({ startAfterStop: false, autoStart: false }),
    queueRestart: assign({ nRestarts: ({ context }) => context.nRestarts + 1, autoStart: true, hurry: false }),
    addRandomDelay: assign({ nextRestartDelayMs: ({ context }, params: { ms: number }) => context.nextRestartDelayMs + params.ms }),
    cancelRestart: assign({ forbidRestart: true, decision: null }),
    /** unit_reset_failed(): Result= back to success, the start limit and NRestarts reset. */
    resetFailed: assign({ result: 'success' as const, startLimit: EMPTY_RATE_LIMIT, nRestarts: 0 }),
    recordError: assign({ lastError: (_, params: { error: unknown }) => errorMessage(params.error), mainPid: null }),
    updateUnit: assign({
      unit: ({ context, event }) => (event.type === 'CONFIG.UPDATE' ? { ...context.unit, ...event.unit } : context.unit),
    }),
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
    hurry: false,
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
    // ratelimit_below() reads the clock: reading it is the start's observation.
    startRequested: {
      tags: ['observe'],
      on: startJobControls,
      invoke: {
        id: 'readClock',
        src: 'readClock',
        onDone: { target: 'condition', actions: { type: 'testStartLimit', params: ({ event }) => ({ now: event.output }) } },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    condition: {
      tags: ['compare'],
      on: startJobControls,
      after: {
        compareTime: [
          { guard: 'startAllowed', target: 'starting', actions: 'clearHurry' },
          { target: 'failed', actions: 'clearHurry' },
        ],
      },
    },
    starting: {
      tags: ['act'],
      invoke: {
        id: 'spawnMain',
        src: 'spawnMain',
        input: ({ context }) => ({ unit: context.unit }),
        onDone: [
          {
            guard: 'oneshotTimed',
            target: 'oneshotStartTimeout',
            actions: { type: 'recordSpawn', params: ({ event }) => ({ pid: event.output.pid }) },
          },
          {
            guard: 'isOneshot',
            target: 'oneshotStart',
            actions: { type: 'recordSpawn', params: ({ event }) => ({ pid: event.output.pid }) },
          },
          {
            guard: 'hasRuntimeMax',
            target: 'activeRuntimeMax',
            actions: { type: 'recordSpawn', params: ({ event }) => ({ pid: event.output.pid }) },
          },
          { target: 'active', actions: { type: 'recordSpawn', params: ({ event }) => ({ pid: event.output.pid }) } },
        ],
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // Type=oneshot: "activating (start)" until the main process exits (service_enter_start: no
    // RUNNING state); TimeoutStartSec= (default infinity for oneshot) → SIGTERM, result timeout.
    oneshotStart: {
      // no tag here: each child carries its own phase (signalling acts)
      initial: 'running',
      on: runningControls,
      states: mainProcessStates,
    },
    oneshotStartTimeout: {
      // no tag here: each child carries its own phase (signalling acts)
      initial: 'running',
      on: runningControls,
      after: { startTimeout: { target: 'stopping', actions: { type: 'failWith', params: { result: 'timeout' } } } },
      states: mainProcessStates,
    },
    // Type=simple: "active (running)" from fork() on.
    active: {
      // no tag here: each child carries its own phase (signalling acts)
      initial: 'running',
      on: runningControls,
      states: mainProcessStates,
    },
    // RuntimeMaxSec=: "Service reached runtime time limit. Stopping." (service_enter_stop(TIMEOUT)).
    activeRuntimeMax: {
      // no tag here: each child carries its own phase (signalling acts)
      initial: 'running',
      on: runningControls,
      after: { runtimeMax: { target: 'stopping', actions: { type: 'failWith', params: { result: 'timeout' } } } },
      states: mainProcessStates,
    },
    // RemainAfterExit=yes after a clean end: "active (exited)", no process. A stop has nothing to
    // kill; a restart is a fresh start.
    exited: {
      tags: ['wait'],
      on: {
        'SYSTEMCTL.STOP': { target: 'dead', actions: 'stopExited' },
        'SYSTEMCTL.RESTART': { target: 'startRequested', actions: 'manualStart' },
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
        onDone: {
          target: 'evaluating',
          actions: {
            type: 'recordWatchdogEnd',
            params: ({ event }) => ({ exit: event.output.exit ?? { kind: 'killed', signal: 'SIGABRT', coreDumped: true } }),
          },
        },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // service_enter_signal(STOP_SIGTERM): KillSignal= to the main process — for `systemctl stop`
    // (or the stop half of restart), or a start/runtime timeout. A stop request during a restart's
    // stop half cancels its start half: a stop job conflicts with a restart job and replaces it
    // (src/core/job.h job_type_is_conflicting, job_install).
    stopping: {
      tags: ['act'],
      on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' } },
      invoke: {
        id: 'signalMain',
        src: 'signalMain',
        input: ({ context }) => ({ pid: context.mainPid ?? -1, signal: context.unit.killSignal }),
        onDone: [
          {
            guard: 'signalledEnd',
            target: 'stopped',
            actions: { type: 'recordEnd', params: ({ event }) => ({ exit: event.output.exit!, oom: false }) },
          },
          { target: 'stopSigterm' },
        ],
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // "deactivating (stop-sigterm)": the process caught KillSignal=. After TimeoutStopSec=
    // (infinity: never) "State 'stop-sigterm' timed out. Killing." with FinalKillSignal=.
    stopSigterm: {
      tags: ['observe'],
      on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' } },
      initial: 'arming',
      states: {
        arming: {
          tags: ['observe'],
          always: [{ guard: 'hasStopTimeout', target: 'timed' }, { target: 'untimed' }],
        },
        timed: {
          tags: ['observe'],
          initial: 'waiting',
          after: { stopTimeout: { target: '#systemd-restart.stopSigkill', actions: { type: 'failWith', params: { result: 'timeout' } } } },
          states: sigtermWaitStates,
        },
        untimed: {
          tags: ['observe'],
          initial: 'waiting',
          states: sigtermWaitStates,
        },
      },
    },
    // "deactivating (stop-sigkill)": FinalKillSignal= (SIGKILL by default) ends it.
    stopSigkill: {
      tags: ['act'],
      on: { 'SYSTEMCTL.STOP': { actions: 'beginManualStop' } },
      invoke: {
        id: 'signalMain',
        src: 'signalMain',
        input: ({ context }) => ({ pid: context.mainPid ?? -1, signal: context.unit.finalKillSignal }),
        onDone: [
          {
            guard: 'signalledEnd',
            target: 'stopped',
            actions: { type: 'recordEnd', params: ({ event }) => ({ exit: event.output.exit!, oom: false }) },
          },
          { target: 'failed', actions: { type: 'recordError', params: { error: 'Processes still around after SIGKILL.' } } },
        ],
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // The stop's SIGCHLD (service_enter_stop_post → service_enter_dead): a restart job starts
    // again; a manual stop ends inactive, or failed when the run failed (e.g. 'timeout'); a
    // timeout's stop consults Restart=.
    stopped: {
      tags: ['compare'],
      always: [
        { guard: 'startAfterStop', target: 'startRequested', actions: ['clearStop', 'manualStart'] },
        { guard: 'manualStopClean', target: 'dead', actions: 'clearStop' },
        { guard: 'manualStop', target: 'failed', actions: 'clearStop' },
        { target: 'evaluating' },
      ],
    },
    evaluating: {
      tags: ['compare'],
      after: {
        compareTime: [
          { guard: 'shallRestartRandomly', target: 'drawingDelay' },
          { guard: 'shallRestart', target: 'autoRestart' },
          { guard: 'succeeded', target: 'dead' },
          { target: 'failed' },
        ],
      },
    },
    // RestartRandomizedDelaySec= (v262): a uniform extra delay, drawn once per automatic restart.
    drawingDelay: {
      tags: ['compare'],
      invoke: {
        id: 'drawRestartDelay',
        src: 'drawRestartDelay',
        input: ({ context }) => ({ maxMs: context.unit.restartRandomizedDelayMs }),
        onDone: { target: 'autoRestart', actions: { type: 'addRandomDelay', params: ({ event }) => ({ ms: event.output }) } },
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // ActiveState=activating, SubState=auto-restart: waiting RestartSec= (or the RestartSteps= step).
    autoRestart: {
      tags: ['wait'],
      on: {
        'SYSTEMCTL.STOP': { target: 'dead', actions: 'cancelRestart' },
        // service_start() in AUTO_RESTART: the restart now, counted as one (NRestarts+1).
        'SYSTEMCTL.START': { target: 'startRequested', actions: 'hurryUp' },
        // A restart job: service_stop() gives up on the auto restart (dead), then a manual start.
        'SYSTEMCTL.RESTART': { target: 'startRequested', actions: 'manualStart' },
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
