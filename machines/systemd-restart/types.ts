/** What systemd's service manager knows about one unit. Plain data only: no world, no I/O. */

/** Restart= values (systemd.service(5)). */
export type RestartSetting = 'no' | 'on-success' | 'on-failure' | 'on-abnormal' | 'on-watchdog' | 'on-abort' | 'always';
export const RESTART_SETTINGS: readonly RestartSetting[] = ['no', 'on-success', 'on-failure', 'on-abnormal', 'on-watchdog', 'on-abort', 'always'];

/** Exit codes and signal names, as in RestartPreventExitStatus= / RestartForceExitStatus= / SuccessExitStatus=. */
export interface ExitStatusSet { codes: number[]; signals: string[] }
export const EMPTY_STATUS_SET: ExitStatusSet = { codes: [], signals: [] };

/** The unit file (the desired state); durations in ms. */
export interface UnitConfig {
  name: string;
  restart: RestartSetting;
  /** RestartSec=, default 100ms. */
  restartSecMs: number;
  /** RestartSteps= (0 = off) and RestartMaxDelaySec= (null = infinity): both must be set for backoff. */
  restartSteps: number;
  restartMaxDelayMs: number | null;
  restartPreventExitStatus: ExitStatusSet;
  restartForceExitStatus: ExitStatusSet;
  successExitStatus: ExitStatusSet;
  /** [Unit] StartLimitIntervalSec= (default 10s; 0 disables) and StartLimitBurst= (default 5). */
  startLimitIntervalMs: number;
  startLimitBurst: number;
  /** WatchdogSec= (0 = off). */
  watchdogMs: number;
  /** Started at boot (WantedBy=multi-user.target + systemctl enable). */
  enabled: boolean;
}

export const DEFAULT_UNIT: UnitConfig = {
  name: 'app.service',
  restart: 'no',
  restartSecMs: 100,
  restartSteps: 0,
  restartMaxDelayMs: null,
  restartPreventExitStatus: EMPTY_STATUS_SET,
  restartForceExitStatus: EMPTY_STATUS_SET,
  successExitStatus: EMPTY_STATUS_SET,
  startLimitIntervalMs: 10_000,
  startLimitBurst: 5,
  watchdogMs: 0,
  enabled: true,
};

/** How the main process ended, as SIGCHLD reports it (CLD_EXITED / CLD_KILLED / CLD_DUMPED). */
export type ProcessExit =
  | { kind: 'exited'; code: number }
  | { kind: 'killed'; signal: string; coreDumped: boolean };

/** ServiceResult (service.c service_result_table), the ones this model produces. */
export type ServiceResult = 'success' | 'exit-code' | 'signal' | 'core-dump' | 'watchdog' | 'start-limit-hit';

/** systemctl verbs an operator can send. */
export type SystemctlVerb = 'start' | 'stop' | 'restart' | 'reset-failed' | 'kill';
export interface SystemctlRequest { verb: SystemctlVerb; signal?: string }

/** RateLimit (src/basic/ratelimit.h): begin of the window (null = never) and starts counted in it. */
export interface StartRateLimit { begin: number | null; num: number }

/** The unit's ActiveState and SubState, as `systemctl status` shows them. */
export interface UnitStatus { active: 'inactive' | 'activating' | 'active' | 'deactivating' | 'failed'; sub: string }
