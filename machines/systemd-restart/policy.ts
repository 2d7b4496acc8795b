import type { ExitStatusSet, ProcessExit, RestartSetting, ServiceResult, StartRateLimit, UnitConfig } from './types';

/** Signals that count as a clean exit for a daemon (is_clean_exit(), EXIT_CLEAN_DAEMON). */
const CLEAN_SIGNALS: readonly string[] = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGPIPE'];

/** Signals whose default action dumps core (signal(7), "Core"): CLD_DUMPED instead of CLD_KILLED. */
const CORE_SIGNALS: readonly string[] = [
  'SIGQUIT',
  'SIGILL',
  'SIGABRT',
  'SIGFPE',
  'SIGSEGV',
  'SIGBUS',
  'SIGSYS',
  'SIGTRAP',
  'SIGXCPU',
  'SIGXFSZ',
];

export const KNOWN_SIGNALS: readonly string[] = [...CLEAN_SIGNALS, ...CORE_SIGNALS, 'SIGKILL', 'SIGUSR1', 'SIGUSR2', 'SIGALRM'];

/**
 * Signals a program may catch and keep running (the world's `ignore`): the terminating ones that
 * do not dump core. SIGKILL cannot be caught (signal(7)); core-dumping signals are left fatal so
 * that FinalKillSignal= (SIGKILL, or a core signal like SIGQUIT) and WatchdogSignal= (SIGABRT)
 * always end the process, as they are meant to.
 */
export const CATCHABLE_SIGNALS: readonly string[] = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGPIPE', 'SIGUSR1', 'SIGUSR2', 'SIGALRM'];

/** FinalKillSignal= values the model accepts: signals a process cannot survive in the model. */
export const FINAL_KILL_SIGNALS: readonly string[] = ['SIGKILL', ...CORE_SIGNALS];

export function exitFor(signal: string): ProcessExit {
  return { kind: 'killed', signal, coreDumped: CORE_SIGNALS.includes(signal) };
}

/** exit_status_set_test() (src/shared/exit-status.c): exit codes match CLD_EXITED, signals CLD_KILLED/CLD_DUMPED. */
function exitStatusSetTest(set: ExitStatusSet, exit: ProcessExit): boolean {
  return exit.kind === 'exited' ? set.codes.includes(exit.code) : set.signals.includes(exit.signal);
}

/**
 * is_clean_exit() (src/shared/exit-status.c): CLD_EXITED is clean for 0 and SuccessExitStatus=
 * codes; CLD_KILLED is clean for SuccessExitStatus= signals and — for a daemon only
 * (EXIT_CLEAN_DAEMON; service_sigchld_event() uses EXIT_CLEAN_COMMAND for Type=oneshot) —
 * SIGHUP/SIGINT/SIGTERM/SIGPIPE. CLD_DUMPED is never clean: a signal listed in
 * SuccessExitStatus= that dumped core is not a success.
 */
export function isCleanExit(exit: ProcessExit, unit: Pick<UnitConfig, 'successExitStatus' | 'type'>): boolean {
  if (exit.kind === 'exited') return exit.code === 0 || unit.successExitStatus.codes.includes(exit.code);
  if (exit.coreDumped) return false;
  return (unit.type !== 'oneshot' && CLEAN_SIGNALS.includes(exit.signal)) || unit.successExitStatus.signals.includes(exit.signal);
}

/** service_sigchld_event(): clean → success; else CLD_EXITED → exit-code, CLD_KILLED → signal, CLD_DUMPED → core-dump. */
export function serviceResult(exit: ProcessExit, unit: Pick<UnitConfig, 'successExitStatus' | 'type'>): ServiceResult {
  if (isCleanExit(exit, unit)) return 'success';
  if (exit.kind === 'exited') return 'exit-code';
  return exit.coreDumped ? 'core-dump' : 'signal';
}

/** The Restart= table of systemd.service(5), as service_shall_restart() (src/core/service.c) switches on it. */
export function restartSettingAllows(setting: RestartSetting, result: ServiceResult): boolean {
  switch (setting) {
    case 'no':
      return false;
    case 'always':
      return true;
    case 'on-success':
      return result === 'success';
    case 'on-failure':
      return result !== 'success';
    case 'on-abnormal':
      return result !== 'success' && result !== 'exit-code';
    case 'on-watchdog':
      return result === 'watchdog';
    case 'on-abort':
      return result === 'signal' || result === 'core-dump';
  }
}

export interface RestartDecision {
  restart: boolean;
  reason: 'manual stop' | 'prevented by exit status' | 'forced by exit status' | 'service type and exit status' | 'restart setting';
}

/**
 * service_shall_restart() (src/core/service.c): a manual stop never restarts; then
 * RestartPreventExitStatus= wins over RestartForceExitStatus=, which wins over Restart=. The exit
 * statuses are matched against the main process's own exit (main_exec_status), the table
 * against Result= (which may be timeout or oom-kill although the process died of SIGKILL).
 */
export function shallRestart(unit: UnitConfig, exit: ProcessExit, result: ServiceResult, manualStop: boolean): RestartDecision {
  if (manualStop) return { restart: false, reason: 'manual stop' };
  if (exitStatusSetTest(unit.restartPreventExitStatus, exit)) return { restart: false, reason: 'prevented by exit status' };
  if (exitStatusSetTest(unit.restartForceExitStatus, exit)) {
    // A Type=oneshot service never restarts on success (Restart=always/on-success is refused at load).
    if (unit.type === 'oneshot' && result === 'success') return { restart: false, reason: 'service type and exit status' };
    return { restart: true, reason: 'forced by exit status' };
  }
  return { restart: restartSettingAllows(unit.restart, result), reason: 'restart setting' };
}

/**
 * service_restart_usec_next() (src/core/service.c): RestartSec= for the first restart; with
 * RestartSteps= and RestartMaxDelaySec= both set, r_i = r_0 · (r_max / r_0)^(i / steps), then r_max.
 * `nRestartsNext` is the number of the restart being scheduled (1 = first).
 */
export function restartDelayMs(unit: UnitConfig, nRestartsNext: number): number {
  const r0 = unit.restartSecMs;
  const max = unit.restartMaxDelayMs;
  if (nRestartsNext <= 1 || unit.restartSteps === 0 || r0 === 0 || max === null || r0 >= max) return r0;
  if (nRestartsNext > unit.restartSteps) return max;
  // systemd computes in µs and truncates to an integer; keep its truncation, in µs, then back to ms.
  const us = Math.floor(r0 * 1000 * Math.pow(max / r0, (nRestartsNext - 1) / unit.restartSteps));
  return us / 1000;
}

/**
 * ratelimit_below() (src/basic/ratelimit.c), as unit_test_start_limit() uses it for every start:
 * a window opens at the first start; starts beyond the burst inside the window are refused.
 * StartLimitIntervalSec=0 or StartLimitBurst=0 disables the limit.
 */
export function startLimitBelow(
  limit: StartRateLimit,
  now: number,
  intervalMs: number,
  burst: number,
): { allowed: boolean; limit: StartRateLimit } {
  if (intervalMs <= 0 || burst <= 0) return { allowed: true, limit };
  if (limit.begin === null || now - limit.begin > intervalMs) return { allowed: true, limit: { begin: now, num: 1 } };
  const num = limit.num + 1;
  return { allowed: num <= burst, limit: { begin: limit.begin, num } };
}

export const EMPTY_RATE_LIMIT: StartRateLimit = { begin: null, num: 0 };

export function describeExit(exit: ProcessExit): string {
  return exit.kind === 'exited'
    ? `code=exited, status=${exit.code}`
    : `code=${exit.coreDumped ? 'dumped' : 'killed'}, signal=${exit.signal.replace(/^SIG/, '')}`;
}
