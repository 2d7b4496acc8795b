import { describe, expect, it } from 'vitest';
import type { ProcessExit, RestartSetting, ServiceResult, UnitConfig } from '../../machines/systemd-restart';
import {
  DEFAULT_UNIT,
  EMPTY_RATE_LIMIT,
  exitFor,
  restartDelayMs,
  restartSettingAllows,
  serviceResult,
  shallRestart,
  startLimitBelow,
  unitStatus,
} from '../../machines/systemd-restart';

const unit = (over: Partial<UnitConfig> = {}): UnitConfig => ({ ...DEFAULT_UNIT, ...over });
const codes = (...c: number[]) => ({ codes: c, signals: [] });
const signals = (...s: string[]) => ({ codes: [], signals: s });

// systemd.service(5), Restart=, Table 2 "Exit causes and the effect of the Restart= settings",
// as src/core/service.c service_shall_restart() implements it. The Timeout row and oom-kill are in
// fidelity.test.ts (they are results, not process exits).
const SETTINGS: RestartSetting[] = ['no', 'always', 'on-success', 'on-failure', 'on-abnormal', 'on-abort', 'on-watchdog'];
const TABLE: [string, ProcessExit | 'watchdog', string][] = [
  //                                               no always on-success on-failure on-abnormal on-abort on-watchdog
  ['clean exit code (0)', { kind: 'exited', code: 0 }, '-X X - - - -'],
  ['clean signal (SIGTERM)', exitFor('SIGTERM'), '-X X - - - -'],
  ['clean signal (SIGHUP)', exitFor('SIGHUP'), '-X X - - - -'],
  ['unclean exit code (1)', { kind: 'exited', code: 1 }, '-X - X - - -'],
  ['unclean signal (SIGKILL)', exitFor('SIGKILL'), '-X - X X X -'],
  ['unclean signal, core (SIGSEGV)', exitFor('SIGSEGV'), '-X - X X X -'],
  ['watchdog', 'watchdog', '-X - X X - X'],
];

describe('Restart= table (systemd.service(5) Table 2)', () => {
  for (const [cause, exit, row] of TABLE) {
    const marks = row.replace(/\s+/g, '').split('');
    it(cause, () => {
      const result: ServiceResult = exit === 'watchdog' ? 'watchdog' : serviceResult(exit, DEFAULT_UNIT);
      const got = SETTINGS.map((s) => (restartSettingAllows(s, result) ? 'X' : '-'));
      expect(got.join('')).toBe(marks.join(''));
    });
  }

  it('results follow service_sigchld_event(): 0/clean signals succeed, codes → exit-code, SEGV → core-dump, KILL → signal', () => {
    expect(serviceResult({ kind: 'exited', code: 0 }, DEFAULT_UNIT)).toBe('success');
    expect(serviceResult({ kind: 'exited', code: 3 }, DEFAULT_UNIT)).toBe('exit-code');
    expect(serviceResult(exitFor('SIGPIPE'), DEFAULT_UNIT)).toBe('success');
    expect(serviceResult(exitFor('SIGSEGV'), DEFAULT_UNIT)).toBe('core-dump');
    expect(serviceResult(exitFor('SIGKILL'), DEFAULT_UNIT)).toBe('signal');
    // SuccessExitStatus= adds clean codes and signals.
    expect(serviceResult({ kind: 'exited', code: 3 }, unit({ successExitStatus: codes(3) }))).toBe('success');
    expect(serviceResult(exitFor('SIGUSR1'), unit({ successExitStatus: signals('SIGUSR1') }))).toBe('success');
  });
});

describe('RestartPreventExitStatus= / RestartForceExitStatus= precedence (service_shall_restart)', () => {
  const exit1: ProcessExit = { kind: 'exited', code: 1 };
  it('force restarts even with Restart=no', () => {
    expect(shallRestart(unit({ restart: 'no', restartForceExitStatus: codes(1) }), exit1, 'exit-code', false)).toEqual({
      restart: true,
      reason: 'forced by exit status',
    });
  });
  it('prevent wins over Restart=always', () => {
    expect(shallRestart(unit({ restart: 'always', restartPreventExitStatus: codes(1) }), exit1, 'exit-code', false)).toEqual({
      restart: false,
      reason: 'prevented by exit status',
    });
  });
  it('prevent wins over force when both list the status', () => {
    const u = unit({ restart: 'always', restartPreventExitStatus: codes(1), restartForceExitStatus: codes(1) });
    expect(shallRestart(u, exit1, 'exit-code', false).restart).toBe(false);
  });
  it('signals are matched by name, codes only match exits', () => {
    const u = unit({ restart: 'always', restartPreventExitStatus: signals('SIGABRT') });
    expect(shallRestart(u, exitFor('SIGABRT'), 'core-dump', false).restart).toBe(false);
    expect(shallRestart(u, { kind: 'exited', code: 6 }, 'exit-code', false).restart).toBe(true);
  });
  it('a manual stop never restarts, not even when forced', () => {
    const u = unit({ restart: 'always', restartForceExitStatus: signals('SIGTERM') });
    expect(shallRestart(u, exitFor('SIGTERM'), 'success', true)).toEqual({ restart: false, reason: 'manual stop' });
  });
});

describe('RestartSec= and RestartSteps=/RestartMaxDelaySec= (service_restart_usec_next)', () => {
  it('RestartSec defaults to 100ms; StartLimitIntervalSec=10s, StartLimitBurst=5', () => {
    expect(DEFAULT_UNIT.restartSecMs).toBe(100);
    expect(DEFAULT_UNIT.startLimitIntervalMs).toBe(10_000);
    expect(DEFAULT_UNIT.startLimitBurst).toBe(5);
    expect(restartDelayMs(DEFAULT_UNIT, 7)).toBe(100);
  });
  it('grows geometrically from RestartSec to RestartMaxDelaySec in RestartSteps steps, then stays', () => {
    const u = unit({ restartSecMs: 1000, restartSteps: 4, restartMaxDelayMs: 60_000 });
    expect([1, 2, 3, 4, 5, 9].map((n) => restartDelayMs(u, n))).toEqual([1000, 2783.157, 7745.966, 21558.246, 60_000, 60_000]);
  });
  it('needs both: steps without a max delay (or a max without steps) keeps RestartSec', () => {
    expect(restartDelayMs(unit({ restartSecMs: 1000, restartSteps: 4, restartMaxDelayMs: null }), 3)).toBe(1000);
    expect(restartDelayMs(unit({ restartSecMs: 1000, restartSteps: 0, restartMaxDelayMs: 60_000 }), 3)).toBe(1000);
  });
});

describe('start limit (ratelimit_below, unit_test_start_limit)', () => {
  const run = (times: number[], interval = 10_000, burst = 5) => {
    let limit = EMPTY_RATE_LIMIT;
    return times.map((t) => {
      const r = startLimitBelow(limit, t, interval, burst);
      limit = r.limit;
      return r.allowed;
    });
  };
  it('five starts inside 10 s pass, the sixth is refused', () => {
    expect(run([0, 300, 600, 900, 1200, 1500])).toEqual([true, true, true, true, true, false]);
  });
  it('a start after the window opens a new window', () => {
    expect(run([0, 1, 2, 3, 4, 10_001, 10_002])).toEqual([true, true, true, true, true, true, true]);
  });
  it('StartLimitIntervalSec=0 or StartLimitBurst=0 switch the limit off', () => {
    expect(
      run(
        Array.from({ length: 20 }, (_, i) => i),
        0,
      ),
    ).not.toContain(false);
    expect(
      run(
        Array.from({ length: 20 }, (_, i) => i),
        10_000,
        0,
      ),
    ).not.toContain(false);
  });
});

describe('ActiveState/SubState (service.c state_translation_table)', () => {
  it.each([
    ['dead', 'inactive', 'dead'],
    ['starting', 'activating', 'start'],
    ['active.running', 'active', 'running'],
    ['active.watched', 'active', 'running'],
    ['stopping', 'deactivating', 'stop-sigterm'],
    ['watchdogKill', 'deactivating', 'stop-watchdog'],
    ['autoRestart', 'activating', 'auto-restart'],
    ['failed', 'failed', 'failed'],
    ['oneshotStart.running', 'activating', 'start'],
    ['exited', 'active', 'exited'],
    ['stopSigterm.timed.waiting', 'deactivating', 'stop-sigterm'],
    ['stopSigkill', 'deactivating', 'stop-sigkill'],
    ['activeRuntimeMax.signalling', 'active', 'running'],
  ])('%s → %s (%s)', (state, active, sub) => {
    expect(unitStatus(state, { result: 'success' })).toEqual({ active, sub });
  });
});
