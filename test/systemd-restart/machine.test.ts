import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UnitConfig } from '../../machines/systemd-restart';
import { DEFAULT_UNIT } from '../../machines/systemd-restart';
import { runnerFor } from '../../sim/loops';
import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import { systemdBinding } from '../../sim/loops/systemd-restart';
import { systemdViolations } from '../../sim/properties/systemd-restart';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { Trace } from '../../sim/trace';
import type { Program, SystemdFault, SystemdWorld, SystemdWorldSummary } from '../../sim/worlds/systemd-restart';
import { createSystemdWorld } from '../../sim/worlds/systemd-restart';

const forever = (outcome: Program['then']['outcome'], runForMs: number): Program => ({ script: [], then: { runForMs, outcome }, jitterMs: 0 });
function runner(unit: Partial<UnitConfig>, program: Program, timeline: TimelineEntry<SystemdFault, SystemdConfig>[] = []) {
  const world: SystemdWorld = createSystemdWorld(1, program);
  return new Runner(systemdBinding, { scenario: 'test', seed: 1, world, config: { unit: { ...DEFAULT_UNIT, ...unit } }, timeline, checkpoints: true });
}
const ctl = (at: number, verb: 'start' | 'stop' | 'restart' | 'reset-failed'): TimelineEntry<SystemdFault, SystemdConfig> => ({ at, config: { request: { verb } } });

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
    const r = runner({ restart: 'on-failure' }, forever({ kind: 'signal', signal: 'SIGSEGV' }, 200), [ctl(5000, 'reset-failed'), ctl(6000, 'start')]);
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
    for (let i = 0; i < 7; i++) { phases.push(r.phase); r.step(); }
    expect(phases).toEqual(['observe', 'compare', 'act', 'observe', 'compare', 'wait', 'observe']);
  });

  it('a unit edit (daemon-reload) is used from the next decision on', () => {
    const r = runner({ restart: 'always', restartSecMs: 1000, startLimitIntervalMs: 0 }, forever({ kind: 'exit', code: 0 }, 500),
      [{ at: 3000, config: { unit: { ...DEFAULT_UNIT, restart: 'no', startLimitIntervalMs: 0 } } }]);
    r.run(60_000);
    expect(r.stateValue).toBe('dead');
    expect(r.world.starts).toBe(3);
  });
});

const scenarios = readdirSync('scenarios').filter((f) => f.startsWith('systemd-') && f.endsWith('.yaml')).map((f) => `scenarios/${f}`);
describe('systemd scenarios', () => {
  it('ship at least two', () => expect(scenarios.length).toBeGreaterThanOrEqual(2));
  for (const file of scenarios) {
    it(`${file}: deterministic and free of invariant violations`, () => {
      const once = () => { const { runner, scenario } = runnerFor(file); runner.run(scenario.durationMs); return { trace: runner.trace(), unit: (scenario.config as SystemdConfig).unit }; };
      const a = once();
      expect(JSON.stringify(a.trace)).toBe(JSON.stringify(once().trace));
      expect(systemdViolations(a.trace as Trace<SystemdWorldSummary>, a.unit)).toEqual([]);
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
