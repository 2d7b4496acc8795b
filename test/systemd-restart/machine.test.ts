import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UnitConfig } from '../../machines/systemd-restart';
import { DEFAULT_UNIT } from '../../machines/systemd-restart';
import { runnerFor } from '../../sim/loops';
import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import { parseSystemdScenario, systemdBinding } from '../../sim/loops/systemd-restart';
import { readYamlFile } from '../../sim/scenario/load';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { Program, SystemdFault, SystemdWorld } from '../../sim/worlds/systemd-restart';
import { createSystemdWorld } from '../../sim/worlds/systemd-restart';
import type { SystemdRunner } from './drive';
import { driveChecking, SAFETY } from './drive';

const forever = (outcome: Program['then']['outcome'], runForMs: number): Program => ({
  script: [],
  then: { runForMs, outcome },
  jitterMs: 0,
});
function runner(unit: Partial<UnitConfig>, program: Program, timeline: TimelineEntry<SystemdFault, SystemdConfig>[] = []) {
  const world: SystemdWorld = createSystemdWorld(1, program);
  return new Runner(systemdBinding, {
    scenario: 'test',
    seed: 1,
    world,
    config: { unit: { ...DEFAULT_UNIT, ...unit } },
    timeline,
    checkpoints: true,
  });
}
const ctl = (
  at: number,
  verb: 'start' | 'stop' | 'restart' | 'reset-failed' | 'kill',
  signal?: string,
): TimelineEntry<SystemdFault, SystemdConfig> => ({ at, fault: { kind: 'systemctl', request: { verb, ...(signal ? { signal } : {}) } } });

describe('systemd-restart machine', () => {
  it('crash loop with the defaults: 5 starts, the 6th is refused → failed, start-limit-hit', () => {
    const r = runner({ restart: 'on-failure' }, forever({ kind: 'signal', signal: 'SIGSEGV' }, 200));
    r.run(60_000);
    expect(r.stateValue).toBe('failed');
    expect(r.snapshot.context.result).toBe('start-limit-hit');
    expect(r.world.starts).toBe(5);
    expect(r.frames.find((f) => f.note?.includes('Start request repeated too quickly'))?.t).toBe(1500);
  });

  it('reset-failed clears the limit and the result; start then runs again', () => {
    const r = runner({ restart: 'on-failure' }, forever({ kind: 'signal', signal: 'SIGSEGV' }, 200), [
      ctl(5000, 'reset-failed'),
      ctl(6000, 'start'),
    ]);
    r.run(5000);
    expect(r.stateValue).toBe('dead');
    expect(r.snapshot.context.result).toBe('success');
    r.run(6000);
    expect(r.world.starts).toBe(6);
  });

  it('a start request while the window is still open is refused too', () => {
    const r = runner({ restart: 'on-failure' }, forever({ kind: 'signal', signal: 'SIGSEGV' }, 200), [ctl(3000, 'start')]);
    r.run(3000);
    expect(r.stateValue).toBe('failed');
    expect(r.world.starts).toBe(5);
  });

  it('a manual stop never restarts, even with Restart=always', () => {
    const r = runner({ restart: 'always' }, forever({ kind: 'exit', code: 0 }, 60_000), [ctl(10_000, 'stop')]);
    r.run(120_000);
    expect(r.stateValue).toBe('dead');
    expect(r.world.starts).toBe(1);
  });

  it('the lab unit (Restart=always, RestartSec=10, StartLimitIntervalSec=0) runs the program every run time + 10 s, forever', () => {
    const r = runner({ restart: 'always', restartSecMs: 10_000, startLimitIntervalMs: 0 }, forever({ kind: 'exit', code: 1 }, 2000));
    r.run(10 * 60_000 - 1);
    // 12 s per cycle: starts at 0, 12 s, …, 588 s — 50 in (just under) 10 minutes, never failed, although every run fails.
    expect(r.world.starts).toBe(50);
    expect(r.frames.some((f) => f.state === 'failed')).toBe(false);
  });

  it('a hang without WatchdogSec stays "active (running)"; with it, SIGABRT and result watchdog', () => {
    const hang = forever({ kind: 'hang' }, 1000);
    const blind = runner({ restart: 'on-failure' }, hang);
    blind.run(10 * 60_000);
    expect(blind.stateValue).toBe('active.hung');
    expect(blind.world.starts).toBe(1);
    const watched = runner({ restart: 'on-watchdog', watchdogMs: 5000, startLimitIntervalMs: 0 }, hang);
    watched.run(6000);
    expect(watched.snapshot.context.result).toBe('watchdog');
    expect(watched.world.exits[0]?.exit).toEqual({ kind: 'killed', signal: 'SIGABRT', coreDumped: true });
  });

  it('goes observe → compare → wait → observe → compare → act on an automatic restart', () => {
    const r = runner({ restart: 'always', restartSecMs: 1000, startLimitIntervalMs: 0 }, forever({ kind: 'exit', code: 0 }, 500));
    const phases: string[] = [];
    for (let i = 0; i < 7; i++) {
      phases.push(r.phase);
      r.step();
    }
    expect(phases).toEqual(['observe', 'compare', 'act', 'observe', 'compare', 'wait', 'observe']);
  });

  // Found by `loopscope check` (manual-stop-never-restarts): a stop request while the restart's
  // stop half (or a kill) is still in flight used to be ignored, and the unit came back.
  it('a stop during the stop half of a restart cancels its start half (a stop job replaces the restart job)', () => {
    const r = runner({ restart: 'always' }, forever({ kind: 'exit', code: 0 }, 60_000), [ctl(10_000, 'restart'), ctl(10_000, 'stop')]);
    expect(driveChecking(r, SAFETY, (x) => x.t <= 120_000)).toBeNull();
    expect(r.stateValue).toBe('dead');
    expect(r.world.starts).toBe(1);
  });

  // Found by the fast-check property (manual-stop-never-restarts): a stop at boot, while the
  // enabled unit's start job was still pending, used to be ignored and the process started.
  it('a stop while a start job is pending (at boot, or an auto-restart one) replaces it: no process starts', () => {
    const boot = runner({ restart: 'no' }, forever({ kind: 'hang' }, 0), [ctl(0, 'stop')]);
    expect(driveChecking(boot, SAFETY, (x) => x.t <= 60_000)).toBeNull();
    expect(boot.stateValue).toBe('dead');
    expect(boot.world.starts).toBe(0);
    const auto = runner({ restart: 'always', restartSecMs: 1000, startLimitIntervalMs: 0 }, forever({ kind: 'exit', code: 0 }, 500), [
      ctl(1500, 'stop'),
    ]);
    expect(driveChecking(auto, SAFETY, (x) => x.t <= 60_000)).toBeNull();
    expect(auto.stateValue).toBe('dead');
    expect(auto.world.starts).toBe(1);
  });

  it('a stop while a `systemctl kill` is delivered forbids the restart Restart= would make', () => {
    const r = runner({ restart: 'always' }, forever({ kind: 'exit', code: 0 }, 60_000), [
      ctl(10_000, 'kill', 'SIGKILL'),
      ctl(10_000, 'stop'),
    ]);
    expect(driveChecking(r, SAFETY, (x) => x.t <= 120_000)).toBeNull();
    expect(r.stateValue).toBe('failed'); // killed by SIGKILL: result signal, and no restart
    expect(r.world.starts).toBe(1);
  });

  it('a unit edit (daemon-reload) is used from the next decision on', () => {
    const r = runner({ restart: 'always', restartSecMs: 1000, startLimitIntervalMs: 0 }, forever({ kind: 'exit', code: 0 }, 500), [
      { at: 3000, config: { unit: { ...DEFAULT_UNIT, restart: 'no', startLimitIntervalMs: 0 } } },
    ]);
    r.run(60_000);
    expect(r.stateValue).toBe('dead');
    expect(r.world.starts).toBe(3);
  });
});

const scenarios = readdirSync('scenarios')
  .filter((f) => f.startsWith('systemd-') && f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`);
describe('systemd scenarios', () => {
  it('ship at least two', () => expect(scenarios.length).toBeGreaterThanOrEqual(2));
  for (const file of scenarios) {
    it(`${file}: deterministic, and the always-properties hold in every state`, () => {
      const once = () => {
        const s = parseSystemdScenario(file, file, readYamlFile(file));
        const runner: SystemdRunner = new Runner(systemdBinding, {
          scenario: s.name,
          seed: s.seed,
          world: s.world,
          config: s.config,
          timeline: s.timeline,
        });
        const failure = driveChecking(runner, SAFETY, (r) => (r.nextEventAt ?? Infinity) <= s.durationMs, 100_000);
        return { trace: runner.trace(), failure };
      };
      const a = once();
      expect(a.failure).toBeNull();
      expect(JSON.stringify(a.trace)).toBe(JSON.stringify(once().trace));
    });
  }
  it('the crash-loop scenario ends in start-limit-hit, then recovers by hand', () => {
    const { runner } = runnerFor('scenarios/systemd-crash-loop.yaml');
    runner.run(59_000);
    expect(runner.stateValue).toBe('failed');
    runner.run(100_000);
    expect(runner.stateValue).toBe('active.running');
  });
});
