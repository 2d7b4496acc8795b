/** What systemd's service manager knows about one unit. Plain data only: no world, no I/O. */

/** Restart= values (systemd.service(5)). */
export type RestartSetting = 'no' | 'on-success' | 'on-failure' | 'on-abnormal' | 'on-watchdog' | 'on-abort' | 'always';
export const RESTART_SETTINGS: readonly RestartSetting[] = ['no', 'on-success', 'on-failure', 'on-abnormal', 'on-watchdog', 'on-abort', 'always'];

/** Type= (systemd.service(5)): the two start-up types the model has. */
export type ServiceType = 'simple' | 'oneshot';
export const SERVICE_TYPES: readonly ServiceType[] = ['simple', 'oneshot'];

/** OOMPolicy= (systemd.service(5)); the default is DefaultOOMPolicy=stop (systemd-system.conf(5)). */
export type OomPolicy = 'continue' | 'stop' | 'kill';
export const OOM_POLICIES: readonly OomPolicy[] = ['continue', 'stop', 'kill'];

/** RestartMode= (systemd.service(5)): debug restarts like normal, with debug logging (not modelled). */
export type RestartMode = 'normal' | 'direct' | 'debug';
export const RESTART_MODES: readonly RestartMode[] = ['normal', 'direct', 'debug'];

/** Exit codes and signal names, as in RestartPreventExitStatus= / RestartForceExitStatus= / SuccessExitStatus=. */
export interface ExitStatusSet { codes: number[]; signals: string[] }
const EMPTY_STATUS_SET: ExitStatusSet = { codes: [], signals: [] };

/** The unit file (the desired state); durations in ms. */
export interface UnitConfig {
  name: string;
  type: ServiceType;
  /** RemainAfterExit=: a clean exit leaves the unit "active (exited)". */
  remainAfterExit: boolean;
  restart: RestartSetting;
  restartMode: RestartMode;
  /** RestartSec=, default 100ms. */
  restartSecMs: number;
  /** RestartSteps= (0 = off) and RestartMaxDelaySec= (null = infinity): both must be set for backoff. */
  restartSteps: number;
  restartMaxDelayMs: number | null;
  /** RestartRandomizedDelaySec= (v262): a uniform extra delay in [0, this] on every automatic restart. */
  restartRandomizedDelayMs: number;
  restartPreventExitStatus: ExitStatusSet;
  restartForceExitStatus: ExitStatusSet;
  successExitStatus: ExitStatusSet;
  /** [Unit] StartLimitIntervalSec= (default 10s; 0 disables) and StartLimitBurst= (default 5). */
  startLimitIntervalMs: number;
  startLimitBurst: number;
  /** WatchdogSec= (0 = off). */
  watchdogMs: number;
  /**
   * TimeoutStartSec= (null = infinity). Only Type=oneshot has a start phase here (Type=simple is
   * started once forked: service_enter_start() arms no timeout), and oneshot defaults to infinity
   * (service_add_extras()), so null is the default.
   */
  timeoutStartMs: number | null;
  /** TimeoutStopSec= (default DefaultTimeoutStopSec=90s; null = infinity). */
  timeoutStopMs: number | null;
  /** RuntimeMaxSec= (null = infinity; no effect with Type=oneshot). */
  runtimeMaxMs: number | null;
  /** KillSignal= (systemctl stop) and FinalKillSignal= (after TimeoutStopSec=), systemd.kill(5). */
  killSignal: string;
  finalKillSignal: string;
  oomPolicy: OomPolicy;
  /** Started at boot (WantedBy=multi-user.target + systemctl enable). */
  enabled: boolean;
}

export const DEFAULT_UNIT: UnitConfig = {
  name: 'app.service',
  type: 'simple',
  remainAfterExit: false,
  restart: 'no',
  restartMode: 'normal',
  restartSecMs: 100,
  restartSteps: 0,
  restartMaxDelayMs: null,
  restartRandomizedDelayMs: 0,
  restartPreventExitStatus: EMPTY_STATUS_SET,
  restartForceExitStatus: EMPTY_STATUS_SET,
  successExitStatus: EMPTY_STATUS_SET,
  startLimitIntervalMs: 10_000,
  startLimitBurst: 5,
  watchdogMs: 0,
  timeoutStartMs: null,
  timeoutStopMs: 90_000,
  runtimeMaxMs: null,
  killSignal: 'SIGTERM',
  finalKillSignal: 'SIGKILL',
  oomPolicy: 'stop',
  enabled: true,
};

/** How the main process ended, as SIGCHLD reports it (CLD_EXITED / CLD_KILLED / CLD_DUMPED). */
export type ProcessExit =
  | { kind: 'exited'; code: number }
  | { kind: 'killed'; signal: string; coreDumped: boolean };

/** ServiceResult (service.c service_result_table), the ones this model produces. */
export type ServiceResult = 'success' | 'exit-code' | 'signal' | 'core-dump' | 'timeout' | 'watchdog' | 'oom-kill' | 'start-limit-hit';
export const SERVICE_RESULTS: readonly ServiceResult[] = ['success', 'exit-code', 'signal', 'core-dump', 'timeout', 'watchdog', 'oom-kill', 'start-limit-hit'];

/** systemctl verbs an operator can send. */
export type SystemctlVerb = 'start' | 'stop' | 'restart' | 'reset-failed' | 'kill';
export interface SystemctlRequest { verb: SystemctlVerb; signal?: string }

/** RateLimit (src/basic/ratelimit.h): begin of the window (null = never) and starts counted in it. */
export interface StartRateLimit { begin: number | null; num: number }

/** The unit's ActiveState and SubState, as `systemctl status` shows them. */
export interface UnitStatus { active: 'inactive' | 'activating' | 'active' | 'deactivating' | 'failed'; sub: string }
