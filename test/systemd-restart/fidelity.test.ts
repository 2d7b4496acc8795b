/**
 * Behaviour checked against systemd's sources and tests (systemd v262;
 * src/core/service.c, src/shared/exit-status.c, systemd.service(5), systemd.kill(5),
 * test/units/TEST-07-PID1.oom-kill.sh). Each case names the function or test it follows.
 */
import { describe, expect, it } from 'vitest';
import type { ProcessExit, RestartSetting, UnitConfig } from '../../machines/systemd-restart';
import {
  DEFAULT_UNIT,
  exitFor,
  isCleanExit,
  restartSettingAllows,
  serviceResult,
  shallRestart,
  unitStatus,
} from '../../machines/systemd-restart';
import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import { parseSystemdScenario, systemdBinding } from '../../sim/loops/systemd-restart';
import { controllerOf } from '../../sim/trace';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import { InputErrors } from '../../sim/scenario/errors';
import type { Program, RunSpec, SystemdFault } from '../../sim/worlds/systemd-restart';
import { createSystemdWorld } from '../../sim/worlds/systemd-restart';
import { driveChecking, SAFETY } from './drive';

const unit = (over: Partial<UnitConfig> = {}): UnitConfig => ({ ...DEFAULT_UNIT, ...over });
const program = (then: RunSpec, script: RunSpec[] = []): Program => ({ script, then, jitterMs: 0 });
const run = (runForMs: number, outcome: RunSpec['outcome'], ignore?: string[]): RunSpec =>
  ignore ? { runForMs, outcome, ignore } : { runForMs, outcome };
function runner(over: Partial<UnitConfig>, prog: Program, timeline: TimelineEntry<SystemdFault, SystemdConfig>[] = [], seed = 1) {
  return new Runner(systemdBinding, {
    scenario: 'test',
    seed,
    world: createSystemdWorld(seed, prog),
    config: { unit: unit(over) },
    timeline,
  });
}
const ctl = (
  at: number,
  verb: 'start' | 'stop' | 'restart' | 'reset-failed' | 'kill',
  signal?: string,
): TimelineEntry<SystemdFault, SystemdConfig> => ({ at, fault: { kind: 'systemctl', request: { verb, ...(signal ? { signal } : {}) } } });
const startTimes = (r: ReturnType<typeof runner>) => r.frames.filter((f) => f.note?.startsWith('Started ')).map((f) => f.t);
const statusAt = (r: ReturnType<typeof runner>) => {
  const c = controllerOf(r.frames.at(-1)!, 'systemd-restart')!;
  return `${c.active} (${c.sub})`;
};

describe('systemctl start / restart during the auto-restart hold-off (service.c service_start, service_enter_restart)', () => {
  const crash = program(run(1000, { kind: 'exit', code: 1 }), [run(1000, { kind: 'exit', code: 1 })]);
  const crashThenRun = program(run(3_600_000, { kind: 'exit', code: 0 }), [run(1000, { kind: 'exit', code: 1 })]);

  it('start in auto-restart is the restart itself, now: one exec, "Scheduled restart job immediately on client request", NRestarts=1', () => {
    const r = runner({ restart: 'on-failure', restartSecMs: 10_000, startLimitIntervalMs: 0 }, crashThenRun, [ctl(3000, 'start')]);
    expect(driveChecking(r, SAFETY, (x) => (x.nextEventAt ?? Infinity) <= 30_000)).toBeNull();
    expect(startTimes(r)).toEqual([0, 3000]); // no exec at 11 s: the hold-off timer is gone
    expect(r.frames.find((f) => f.note?.includes('Scheduled restart job immediately on client request, restart counter is at 1.'))?.t).toBe(
      3000,
    );
    expect(r.snapshot.context.nRestarts).toBe(1); // an automatic restart: NRestarts is not flushed
    expect(r.stateValue).toBe('active.running');
  });

  it('without the request the hold-off runs out: the restart comes at exit + RestartSec', () => {
    const r = runner({ restart: 'on-failure', restartSecMs: 10_000, startLimitIntervalMs: 0 }, crashThenRun);
    r.run(30_000);
    expect(startTimes(r)).toEqual([0, 11_000]);
  });

  it('the start limit is tested twice (AUTO_RESTART, then AUTO_RESTART_QUEUED: service_test_startable): StartLimitBurst=2 refuses it', () => {
    const r = runner({ restart: 'on-failure', restartSecMs: 10_000, startLimitBurst: 2 }, crash, [ctl(3000, 'start')]);
    r.run(30_000);
    expect(startTimes(r)).toEqual([0]);
    expect(r.stateValue).toBe('failed');
    expect(r.snapshot.context.result).toBe('start-limit-hit');
    expect(r.snapshot.context.startLimit.num).toBe(3);
  });

  it('restart in auto-restart: service_stop gives up the auto restart (dead), then a fresh start that flushes NRestarts', () => {
    const r = runner({ restart: 'on-failure', restartSecMs: 10_000, startLimitIntervalMs: 0 }, crashThenRun, [ctl(3000, 'restart')]);
    r.run(30_000);
    expect(startTimes(r)).toEqual([0, 3000]);
    expect(r.snapshot.context.nRestarts).toBe(0);
    expect(r.stateValue).toBe('active.running');
  });
});

describe('SuccessExitStatus= signals apply to CLD_KILLED only (exit-status.c is_clean_exit)', () => {
  const abort = unit({ successExitStatus: { codes: [], signals: ['SIGABRT'] } });
  it('SIGABRT with a core dump (CLD_DUMPED) is core-dump even when listed; without one (CLD_KILLED) it is success', () => {
    expect(exitFor('SIGABRT')).toEqual({ kind: 'killed', signal: 'SIGABRT', coreDumped: true });
    expect(serviceResult(exitFor('SIGABRT'), abort)).toBe('core-dump');
    expect(serviceResult({ kind: 'killed', signal: 'SIGABRT', coreDumped: false }, abort)).toBe('success');
    expect(serviceResult(exitFor('SIGUSR1'), unit({ successExitStatus: { codes: [], signals: ['SIGUSR1'] } }))).toBe('success');
  });
  it('the clean signals SIGHUP/SIGINT/SIGTERM/SIGPIPE count for a daemon only: Type=oneshot uses EXIT_CLEAN_COMMAND (service_sigchld_event)', () => {
    for (const sig of ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGPIPE']) {
      expect(isCleanExit(exitFor(sig), unit())).toBe(true);
      expect(serviceResult(exitFor(sig), unit({ type: 'oneshot' }))).toBe('signal');
    }
  });
  it('in a run: a listed SIGABRT that dumped core still restarts under Restart=on-failure', () => {
    const r = runner(
      { restart: 'on-failure', successExitStatus: { codes: [], signals: ['SIGABRT'] }, startLimitIntervalMs: 0 },
      program(run(3_600_000, { kind: 'exit', code: 0 }), [run(500, { kind: 'signal', signal: 'SIGABRT' })]),
    );
    r.run(5000);
    expect(
      r.frames.some((f) => f.note?.includes("code=dumped, signal=ABRT → result 'core-dump'; Restart=on-failure: restart in 100ms")),
    ).toBe(true);
    expect(startTimes(r)).toEqual([0, 600]);
  });
});

// systemd.service(5) Restart=, Table 2, the Timeout row; oom-kill as service_shall_restart() switches on it.
describe('the Restart= table rows for timeout and oom-kill (service_shall_restart)', () => {
  const SETTINGS: RestartSetting[] = ['no', 'always', 'on-success', 'on-failure', 'on-abnormal', 'on-abort', 'on-watchdog'];
  it.each([
    ['timeout', '-X-XX--'],
    ['oom-kill', '-X-XX--'],
  ] as const)('%s', (result, row) => {
    expect(SETTINGS.map((s) => (restartSettingAllows(s, result) ? 'X' : '-')).join('')).toBe(row);
  });
});

describe('timeouts (service_dispatch_timer, service_enter_signal; systemd.service(5) TimeoutStartSec=/TimeoutStopSec=/RuntimeMaxSec=)', () => {
  it('Type=oneshot over TimeoutStartSec=: "start operation timed out. Terminating." → SIGTERM, result timeout, Restart=on-failure restarts', () => {
    const r = runner(
      { type: 'oneshot', restart: 'on-failure', timeoutStartMs: 5000, startLimitIntervalMs: 0 },
      program(run(1000, { kind: 'exit', code: 0 }), [run(60_000, { kind: 'exit', code: 0 })]),
    );
    expect(driveChecking(r, SAFETY, (x) => x.t <= 20_000)).toBeNull();
    const timedOut = r.frames.find((f) => f.note?.includes('start operation timed out'))!;
    expect(timedOut.t).toBe(5000);
    expect(
      r.frames.some((f) => f.note?.includes("code=killed, signal=TERM → result 'timeout'; Restart=on-failure: restart in 100ms")),
    ).toBe(true);
    expect(startTimes(r)).toEqual([0, 5100]);
    expect(statusAt(r)).toBe('inactive (dead)'); // the second run exited 0 after 1 s
  });

  it('a timeout is not an abort: Restart=on-abort leaves the unit failed with result timeout', () => {
    const r = runner({ type: 'oneshot', restart: 'on-abort', timeoutStartMs: 5000 }, program(run(60_000, { kind: 'exit', code: 0 })));
    r.run(20_000);
    expect([r.stateValue, r.snapshot.context.result]).toEqual(['failed', 'timeout']);
  });

  it('a process that catches SIGTERM: stop-sigterm for TimeoutStopSec=, then FinalKillSignal= (SIGKILL); result timeout', () => {
    const r = runner(
      { type: 'oneshot', timeoutStartMs: 5000, timeoutStopMs: 3000 },
      program(run(60_000, { kind: 'exit', code: 0 }, ['SIGTERM'])),
    );
    expect(driveChecking(r, SAFETY, (x) => x.t <= 20_000)).toBeNull();
    expect(r.frames.find((f) => f.note?.includes("State 'stop-sigterm' timed out. Killing."))?.t).toBe(8000);
    expect(r.frames.filter((f) => f.t === 5000).map((f) => f.state)).toContain('stopSigterm.timed.waiting');
    expect(r.world.exits.at(-1)).toMatchObject({ at: 8000, exit: { kind: 'killed', signal: 'SIGKILL' } });
    expect([r.stateValue, r.snapshot.context.result]).toEqual(['failed', 'timeout']);
  });

  it('FinalKillSignal=SIGQUIT: the final kill dumps core; the result stays timeout (the first failure sticks)', () => {
    const r = runner(
      { type: 'oneshot', timeoutStartMs: 5000, timeoutStopMs: 3000, finalKillSignal: 'SIGQUIT' },
      program(run(60_000, { kind: 'exit', code: 0 }, ['SIGTERM'])),
    );
    r.run(20_000);
    expect(r.world.exits.at(-1)?.exit).toEqual({ kind: 'killed', signal: 'SIGQUIT', coreDumped: true });
    expect(r.snapshot.context.result).toBe('timeout');
  });

  it('`systemctl stop` of a daemon that catches SIGTERM: SIGKILL after the default TimeoutStopSec=90s, failed (timeout), no restart even with Restart=always', () => {
    const r = runner({ restart: 'always', startLimitIntervalMs: 0 }, program(run(3_600_000, { kind: 'exit', code: 0 }, ['SIGTERM'])), [
      ctl(10_000, 'stop'),
    ]);
    expect(driveChecking(r, SAFETY, (x) => x.t <= 200_000)).toBeNull();
    expect(r.world.exits.at(-1)).toMatchObject({ at: 100_000, exit: { signal: 'SIGKILL' } });
    expect([r.stateValue, r.snapshot.context.result, r.world.starts]).toEqual(['failed', 'timeout', 1]);
  });

  it('TimeoutStopSec=infinity waits for ever', () => {
    const r = runner({ timeoutStopMs: null }, program(run(1000, { kind: 'hang' }, ['SIGTERM'])), [ctl(10_000, 'stop')]);
    r.run(3_000_000);
    expect(r.stateValue).toMatch(/^stopSigterm\.untimed\./);
    expect(statusAt(r)).toBe('deactivating (stop-sigterm)');
  });

  it('RuntimeMaxSec=: "Service reached runtime time limit. Stopping." → result timeout; Restart=on-failure restarts it', () => {
    const r = runner(
      { restart: 'on-failure', runtimeMaxMs: 30_000, startLimitIntervalMs: 0 },
      program(run(3_600_000, { kind: 'exit', code: 0 })),
    );
    r.run(70_000);
    expect(r.frames.filter((f) => f.note?.includes('Service reached runtime time limit')).map((f) => f.t)).toEqual([30_000, 60_100]);
    expect(startTimes(r)).toEqual([0, 30_100, 60_200]);
  });

  it('KillSignal=SIGKILL: a manual stop ends in failed (signal), as is_clean_exit() does not count SIGKILL', () => {
    const r = runner({ killSignal: 'SIGKILL' }, program(run(3_600_000, { kind: 'exit', code: 0 })), [ctl(5000, 'stop')]);
    r.run(10_000);
    expect([r.stateValue, r.snapshot.context.result]).toEqual(['failed', 'signal']);
    const clean = runner({}, program(run(3_600_000, { kind: 'exit', code: 0 })), [ctl(5000, 'stop')]);
    clean.run(10_000);
    expect([clean.stateValue, clean.snapshot.context.result]).toEqual(['dead', 'success']);
  });
});

describe('Type=oneshot (service_enter_start, service_enter_running, service_verify)', () => {
  it('activating (start) while the process runs, then inactive (dead); never active (running)', () => {
    const r = runner({ type: 'oneshot' }, program(run(2000, { kind: 'exit', code: 0 })));
    expect(driveChecking(r, SAFETY, (x) => x.t <= 10_000)).toBeNull();
    const seen = new Set(
      r.frames.map((f) => {
        const c = controllerOf(f, 'systemd-restart')!;
        return `${c.active} (${c.sub})`;
      }),
    );
    expect(seen.has('activating (start)')).toBe(true);
    expect(seen.has('active (running)')).toBe(false);
    expect([statusAt(r), r.snapshot.context.result]).toEqual(['inactive (dead)', 'success']);
  });

  it('RemainAfterExit=yes: active (exited) after a clean exit; start does nothing; stop makes it inactive', () => {
    const r = runner({ type: 'oneshot', remainAfterExit: true }, program(run(2000, { kind: 'exit', code: 0 })), [
      ctl(5000, 'start'),
      ctl(8000, 'stop'),
    ]);
    r.run(6000);
    expect(statusAt(r)).toBe('active (exited)');
    expect(r.world.starts).toBe(1);
    r.run(9000);
    expect(statusAt(r)).toBe('inactive (dead)');
  });

  it('a failed oneshot restarts under Restart=on-failure; stopping a running oneshot is a failure (SIGTERM is unclean for a command)', () => {
    const r = runner(
      { type: 'oneshot', restart: 'on-failure', startLimitIntervalMs: 0 },
      program(run(1000, { kind: 'exit', code: 0 }), [run(500, { kind: 'exit', code: 2 })]),
    );
    r.run(5000);
    expect(startTimes(r)).toEqual([0, 600]);
    const stopped = runner({ type: 'oneshot' }, program(run(60_000, { kind: 'exit', code: 0 })), [ctl(1000, 'stop')]);
    stopped.run(2000);
    expect([stopped.stateValue, stopped.snapshot.context.result]).toEqual(['failed', 'signal']);
  });

  it('RestartForceExitStatus=0 does not restart a successful oneshot ("service type and exit status")', () => {
    const u = unit({ type: 'oneshot', restartForceExitStatus: { codes: [0], signals: [] } });
    expect(shallRestart(u, { kind: 'exited', code: 0 }, 'success', false)).toEqual({
      restart: false,
      reason: 'service type and exit status',
    });
    expect(shallRestart(u, { kind: 'exited', code: 0 }, 'timeout', false).restart).toBe(true);
  });

  it('Restart=always or on-success with Type=oneshot: systemd refuses the unit — a one-line error naming file and field', () => {
    for (const restart of ['always', 'on-success']) {
      const doc = { loop: 'systemd-restart', unit: { Type: 'oneshot', Restart: restart }, program: { then: { runFor: '1s', exit: 0 } } };
      let error: unknown;
      try {
        parseSystemdScenario('x.yaml', 'x', doc);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputErrors);
      expect((error as InputErrors).errors.map((e) => e.message)).toEqual([
        `x.yaml: unit.Restart: expected Restart= other than always or on-success with Type=oneshot (systemd refuses to load the unit), got ${restart}`,
      ]);
    }
  });
});

describe('OOM kills (service_notify_cgroup_oom_event; test/units/TEST-07-PID1.oom-kill.sh)', () => {
  const oomRun = (over: Partial<UnitConfig>) => {
    const r = runner(
      { startLimitIntervalMs: 0, ...over },
      program(run(3_600_000, { kind: 'exit', code: 0 }), [run(2000, { kind: 'oom' })]),
    );
    r.run(2000);
    return r;
  };
  it('OOMPolicy=continue: result signal (the SIGKILL), as TEST-07-PID1.oom-kill.sh asserts', () => {
    const r = oomRun({ oomPolicy: 'continue' });
    expect([r.snapshot.context.result, r.stateValue]).toEqual(['signal', 'failed']);
  });
  it.each(['stop', 'kill'] as const)('OOMPolicy=%s: result oom-kill', (oomPolicy) => {
    const r = oomRun({ oomPolicy });
    expect([r.snapshot.context.result, r.stateValue]).toEqual(['oom-kill', 'failed']);
    expect(r.frames.at(-2)?.note ?? r.frames.at(-1)?.note).toMatch(/killed by the OOM killer/);
  });
  it('the default is OOMPolicy=stop (DefaultOOMPolicy=)', () => expect(DEFAULT_UNIT.oomPolicy).toBe('stop'));
  it('oom-kill restarts under on-failure and on-abnormal, not on-abort; RestartPreventExitStatus=SIGKILL matches the OOM kill', () => {
    expect(oomRun({ restart: 'on-failure' }).stateValue).toBe('autoRestart');
    expect(oomRun({ restart: 'on-abnormal' }).stateValue).toBe('autoRestart');
    expect(oomRun({ restart: 'on-abort' }).stateValue).toBe('failed');
    const killed: ProcessExit = exitFor('SIGKILL');
    expect(
      shallRestart(unit({ restart: 'always', restartPreventExitStatus: { codes: [], signals: ['SIGKILL'] } }), killed, 'oom-kill', false)
        .restart,
    ).toBe(false);
  });
});

describe('RestartMode=direct (service_enter_dead skips the *-before-auto-restart states)', () => {
  const crashy = (restartMode: UnitConfig['restartMode']) => {
    const r = runner(
      { restart: 'on-failure', restartMode, restartSecMs: 1000, startLimitIntervalMs: 0 },
      program(run(500, { kind: 'exit', code: 1 })),
    );
    r.run(10_000);
    return r.frames.map((f) => controllerOf(f, 'systemd-restart')!.active);
  };
  it('normal: the unit shows failed between exit and restart (dependents and OnFailure= see it); direct: it stays activating', () => {
    expect(crashy('normal')).toContain('failed');
    const direct = crashy('direct');
    expect(direct).not.toContain('failed');
    expect(direct).not.toContain('inactive');
    expect(
      unitStatus('evaluating', {
        result: 'exit-code',
        decision: { restart: true, reason: 'restart setting' },
        unit: { restartMode: 'direct' },
      }),
    ).toEqual({ active: 'activating', sub: 'auto-restart' });
  });
});

describe('RestartRandomizedDelaySec= (v262): a uniform extra delay from the scenario seed', () => {
  const restarts = (seed: number) => {
    const r = runner(
      { restart: 'always', restartSecMs: 1000, restartRandomizedDelayMs: 5000, startLimitIntervalMs: 0 },
      program(run(0, { kind: 'exit', code: 0 })),
      [],
      seed,
    );
    expect(driveChecking(r, SAFETY, (x) => x.t <= 60_000)).toBeNull();
    const starts = startTimes(r);
    return starts.slice(1).map((t, i) => t - starts[i]!);
  };
  it('every gap lies in [RestartSec, RestartSec + RestartRandomizedDelaySec]; same seed, same delays; another seed, others', () => {
    const a = restarts(1);
    expect(a.length).toBeGreaterThan(5);
    for (const gap of a) {
      expect(gap).toBeGreaterThanOrEqual(1000);
      expect(gap).toBeLessThanOrEqual(6000);
    }
    expect(new Set(a).size).toBeGreaterThan(1);
    expect(restarts(1)).toEqual(a);
    expect(restarts(2)).not.toEqual(a);
  });
});
