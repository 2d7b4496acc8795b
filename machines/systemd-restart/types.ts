/** What systemd's service manager knows about one unit. Plain data only: no world, no I/O. */

/** Restart= values (systemd.service(5)). */
export const RESTART_SETTINGS = ['no', 'on-success', 'on-failure', 'on-abnormal', 'on-watchdog', 'on-abort', 'always'] as const;
export type RestartSetting = (typeof RESTART_SETTINGS)[number];

/** Type= (systemd.service(5)): the two start-up types the model has. */
export const SERVICE_TYPES = ['simple', 'oneshot'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** OOMPolicy= (systemd.service(5)); the default is DefaultOOMPolicy=stop (systemd-system.conf(5)). */
export const OOM_POLICIES = ['continue', 'stop', 'kill'] as const;
export type OomPolicy = (typeof OOM_POLICIES)[number];

/** RestartMode= (systemd.service(5)): debug restarts like normal, with debug logging (not modelled). */
export const RESTART_MODES = ['normal', 'direct', 'debug'] as const;
export type RestartMode = (typeof RESTART_MODES)[number];

/** Exit codes and signal names, as in RestartPreventExitStatus= / RestartForceExitStatus= / SuccessExitStatus=. */
export interface ExitStatusSet {
  codes: number[];
  signals: string[];
}
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
export type ProcessExit = { kind: 'exited'; code: number } | { kind: 'killed'; signal: string; coreDumped: boolean };

/** ServiceResult (service.c service_result_table), the ones this model produces. */
export const SERVICE_RESULTS = [
  'success',
  'exit-code',
  'signal',
  'core-dump',
  'timeout',
  'watchdog',
  'oom-kill',
  'start-limit-hit',
] as const;
export type ServiceResult = (typeof SERVICE_RESULTS)[number];

/** systemctl verbs an operator can send. */
export type SystemctlVerb = 'start' | 'stop' | 'restart' | 'reset-failed' | 'kill';
export interface SystemctlRequest {
  verb: SystemctlVerb;
  signal?: string;
}

/** RateLimit (src/basic/ratelimit.h): begin of the window (null = never) and starts counted in it. */
export interface StartRateLimit {
  begin: number | null;
  num: number;
}

/** The unit's ActiveState and SubState, as `systemctl status` shows them. */
export interface UnitStatus {
  active: 'inactive' | 'activating' | 'active' | 'deactivating' | 'failed';
  sub: string;
}
