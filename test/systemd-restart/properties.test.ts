import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UnitConfig } from '../../machines/systemd-restart';
import { DEFAULT_UNIT, RESTART_SETTINGS } from '../../machines/systemd-restart';
import type { CheckView } from '../../sim/check/model';
import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import { systemdBinding } from '../../sim/loops/systemd-restart';
import {
  failedNeedsOperator,
  givesUpWithinMs,
  manualStopNeverRestarts,
  neverGivesUp,
  oneshotNeverRunning,
  operatorTokens,
  restartDelayRespected,
  startLimitNeverRefuses,
  startLimitRespected,
  stopWithinTimeout,
} from '../../sim/properties/systemd-restart';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { RunSpec, SystemdFault, SystemdWorld } from '../../sim/worlds/systemd-restart';
import { createSystemdWorld } from '../../sim/worlds/systemd-restart';
import { observeSystemd } from '../../sim/worlds/systemd-restart-monitor';
import { propertyRuns } from '../property-runs';
import type { SystemdRunner } from './drive';
import { driveChecking, failing, SAFETY } from './drive';
import type { SystemdContext } from '../../machines/systemd-restart';

const outcome = fc.oneof(
  fc.record({ kind: fc.constant('exit' as const), code: fc.constantFrom(0, 1, 2, 75, 78) }),
  fc.record({ kind: fc.constant('signal' as const), signal: fc.constantFrom('SIGTERM', 'SIGKILL', 'SIGSEGV', 'SIGABRT', 'SIGHUP') }),
  fc.constant({ kind: 'hang' as const }),
);
const run: fc.Arbitrary<RunSpec> = fc.record({ runForMs: fc.integer({ min: 0, max: 5000 }), outcome });
const unitArb: fc.Arbitrary<UnitConfig> = fc
  .record({
    restart: fc.constantFrom(...RESTART_SETTINGS),
    restartSecMs: fc.integer({ min: 0, max: 3000 }),
    restartSteps: fc.integer({ min: 0, max: 4 }),
    restartMaxDelayMs: fc.option(fc.integer({ min: 3000, max: 20_000 }), { nil: null }),
    startLimitIntervalMs: fc.constantFrom(0, 5000, 10_000),
    startLimitBurst: fc.integer({ min: 0, max: 6 }),
    watchdogMs: fc.constantFrom(0, 2000),
    prevent: fc.subarray([1, 78]),
    force: fc.subarray([2, 75]),
  })
  .map(({ prevent, force, ...u }) => ({
    ...DEFAULT_UNIT,
    ...u,
    restartPreventExitStatus: { codes: prevent, signals: [] },
    restartForceExitStatus: { codes: force, signals: [] },
  }));
type Command = { at: number; verb: 'start' | 'stop' | 'restart' | 'reset-failed' };
const command: fc.Arbitrary<Command> = fc.record({
  at: fc.integer({ min: 0, max: 60_000 }),
  verb: fc.constantFrom('start' as const, 'stop' as const, 'restart' as const, 'reset-failed' as const),
});

/** Cases these properties once found, run first every time. */
const FOUND: [UnitConfig, RunSpec[], RunSpec, Command[], number][] = [
  // `systemctl stop` at boot while the enabled unit's start job was pending: the process started anyway.
  [
    { ...DEFAULT_UNIT, restart: 'no', startLimitIntervalMs: 0, startLimitBurst: 0 },
    [],
    { runForMs: 0, outcome: { kind: 'hang' } },
    [{ at: 0, verb: 'stop' }],
    0,
  ],
  // A RestartSteps= delay of 2077.492 ms made a later 1838 ms gap measure 1837.9999999999982 ms.
  [
    {
      ...DEFAULT_UNIT,
      restart: 'on-abnormal',
      restartSecMs: 1838,
      restartSteps: 4,
      restartMaxDelayMs: 3000,
      startLimitIntervalMs: 0,
      startLimitBurst: 0,
      watchdogMs: 2000,
    },
    [
      { runForMs: 1954, outcome: { kind: 'hang' } },
      { runForMs: 1002, outcome: { kind: 'hang' } },
      { runForMs: 820, outcome: { kind: 'hang' } },
    ],
    { runForMs: 0, outcome: { kind: 'hang' } },
    [{ at: 10_902, verb: 'reset-failed' }],
    869,
  ],
];

function runnerOf(unit: UnitConfig, script: RunSpec[], then: RunSpec, commands: Command[], jitterMs: number): SystemdRunner {
  const world = createSystemdWorld(7, { script, then, jitterMs });
  const timeline: TimelineEntry<SystemdFault, SystemdConfig>[] = commands.map((c) => ({
    at: c.at,
    fault: { kind: 'systemctl', request: { verb: c.verb } },
  }));
  return new Runner(systemdBinding, { scenario: 'prop', seed: 7, world, config: { unit }, timeline });
}

/**
 * The same CheckProperty objects `loopscope check` explores (sim/properties/systemd-restart.ts),
 * evaluated in every state of Runner runs over random unit files, programs and operators.
 */
describe('systemd-restart properties hold for random units, programs and operators (fast-check)', () => {
  it('always: start limit, manual stop, failed state, RestartSec — in every state of every run', () => {
    fc.assert(
      fc.property(
        unitArb,
        fc.array(run, { maxLength: 8 }),
        run,
        fc.array(command, { maxLength: 4 }),
        fc.integer({ min: 0, max: 1000 }),
        (unit, script, then, commands, jitter) => {
          const r = runnerOf(unit, script, then, commands, jitter);
          expect(driveChecking(r, SAFETY, (x) => x.t <= 60_000)).toBeNull();
        },
      ),
      { numRuns: propertyRuns(250), examples: FOUND },
    );
  });

  it('eventually: a unit whose start limit cannot refuse a start (with its operator starts) never gives up once the operator is done', () => {
    fc.assert(
      fc.property(
        unitArb,
        fc.array(run, { maxLength: 8 }),
        run,
        fc.array(command, { maxLength: 4 }),
        fc.integer({ min: 0, max: 1000 }),
        (unit, script, then, commands, jitter) => {
          const tokens = operatorTokens(
            commands.filter((c) => c.verb === 'start').length,
            commands.filter((c) => c.verb === 'restart').length,
          );
          fc.pre(startLimitNeverRefuses(unit, tokens));
          const property = neverGivesUp(unit);
          const quietFrom = Math.max(0, ...commands.map((c) => c.at)) + givesUpWithinMs(unit);
          const r = runnerOf(unit, script, then, commands, jitter);
          // Every state from the bound K after the operator's last command on, for another two
          // minutes; a run with nothing left to do stays in its last state, so that one is judged at K too.
          const after = [
            { ...property, holds: (v: CheckView<SystemdWorld, SystemdConfig, SystemdContext>) => v.t < quietFrom || property.holds(v) },
          ];
          expect(driveChecking(r, after, (x) => x.t <= quietFrom + 120_000, 20_000)).toBeNull();
          r.run(Math.max(r.t, quietFrom));
          expect(failing(r, after)).toBeNull();
        },
      ),
      { numRuns: propertyRuns(250) },
    );
  });
});

describe('the properties can fail', () => {
  const crashLoop = (unit: Partial<UnitConfig>) =>
    runnerOf(
      { ...DEFAULT_UNIT, restart: 'on-failure', ...unit },
      [],
      { runForMs: 200, outcome: { kind: 'signal', signal: 'SIGSEGV' } },
      [],
      0,
    );

  it('never-gives-up: the default start limit gives up on a crash loop after 1.5 s; RestartSec=3s does not', () => {
    const defaults = crashLoop({});
    const failure = driveChecking(defaults, [neverGivesUp(defaults.config.unit)], (x) => x.t <= 60_000);
    expect(failure).toEqual({ property: 'never-gives-up', t: 1500, state: 'failed' });
    expect(startLimitNeverRefuses(defaults.config.unit)).toBe(false);
    const slow = crashLoop({ restartSecMs: 3000 });
    expect(startLimitNeverRefuses(slow.config.unit)).toBe(true);
    expect(driveChecking(slow, [neverGivesUp(slow.config.unit)], (x) => x.t <= 60_000)).toBeNull();
  });

  // The monitor fed the events and worlds that would break each claim (the machine never does).
  const r = crashLoop({});
  r.run(0);
  const running = r.snapshot;
  r.run(5000);
  const failed = r.snapshot;
  const base: SystemdWorld = { ...r.world, monitor: { ...r.world.monitor, seenStarts: r.world.starts } };
  const started = (w: SystemdWorld, n = 1): SystemdWorld => ({ ...w, starts: w.starts + n });
  const view = (world: SystemdWorld, t: number, snapshot = running): CheckView<SystemdWorld, SystemdConfig, SystemdContext> => ({
    t,
    snapshot,
    world,
    config: r.config,
  });
  const tick = { type: 'xstate.done.actor.spawnMain' };

  it('manual-stop-never-restarts: a start after `systemctl stop` without a start request', () => {
    const stopped = observeSystemd(base, { type: 'SYSTEMCTL.STOP' }, running, 6000);
    expect(manualStopNeverRestarts.holds(view(stopped, 6000))).toBe(true);
    expect(manualStopNeverRestarts.holds(view(observeSystemd(started(stopped), tick, running, 7000), 7000))).toBe(false);
    const asked = observeSystemd(stopped, { type: 'SYSTEMCTL.START' }, running, 7000);
    expect(manualStopNeverRestarts.holds(view(observeSystemd(started(asked), tick, running, 7000), 7000))).toBe(true);
  });

  it('failed-needs-operator: a start after the unit was seen failed', () => {
    const seen = observeSystemd(base, { type: 'xstate.after.compareTime' }, failed, 6000);
    expect(seen.monitor.startsSinceFailed).toBe(0);
    expect(failedNeedsOperator.holds(view(observeSystemd(started(seen), tick, running, 7000), 7000))).toBe(false);
  });

  it('start-limit-respected: a sixth start inside the window', () => {
    let w = observeSystemd(base, { type: 'SYSTEMCTL.RESET_FAILED' }, running, 6000);
    for (let i = 0; i < 5; i++) w = observeSystemd(started(w), tick, running, 6000 + i);
    expect(startLimitRespected.holds(view(w, 6004))).toBe(true);
    const sixth = observeSystemd(started(w), tick, running, 6005);
    expect(startLimitRespected.holds(view(sixth, 6005))).toBe(false);
    // The same start after the window (10 s) opens a new one.
    expect(startLimitRespected.holds(view(observeSystemd(started(w), tick, running, 16_001), 16_001))).toBe(true);
  });

  it('oneshot-never-running: an "active (running)" unit whose type is oneshot', () => {
    const asOneshot = {
      ...running,
      context: { ...running.context, unit: { ...running.context.unit, type: 'oneshot' as const } },
    } as typeof running;
    expect(oneshotNeverRunning.holds(view(base, 6000))).toBe(true);
    expect(oneshotNeverRunning.holds(view(base, 6000, asOneshot))).toBe(false);
  });

  it('stop-within-timeout: stop-sigterm that lasts longer than TimeoutStopSec= (90 s)', () => {
    const waiting: SystemdWorld = { ...base, monitor: { ...base.monitor, sigtermSince: 1000 } };
    expect(stopWithinTimeout.holds(view(waiting, 91_000))).toBe(true);
    expect(stopWithinTimeout.holds(view(waiting, 91_001))).toBe(false);
  });

  it('restart-delay-respected: an automatic start 50 ms after the exit (RestartSec=100ms)', () => {
    const exited: SystemdWorld = { ...base, exits: [...base.exits, { at: 6000, pid: 1, exit: { kind: 'exited', code: 1 } }] };
    expect(restartDelayRespected.holds(view(observeSystemd(started(exited), tick, running, 6050), 6050))).toBe(false);
    expect(restartDelayRespected.holds(view(observeSystemd(started(exited), tick, running, 6100), 6100))).toBe(true);
    // The operator's start at the instant of the request is not an automatic restart.
    const asked = observeSystemd(exited, { type: 'SYSTEMCTL.RESTART' }, running, 6050);
    expect(restartDelayRespected.holds(view(observeSystemd(started(asked), tick, running, 6050), 6050))).toBe(true);
  });
});
