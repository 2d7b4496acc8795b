import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RestartSetting, UnitConfig } from '../../machines/systemd-restart';
import { DEFAULT_UNIT, RESTART_SETTINGS } from '../../machines/systemd-restart';
import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import { systemdBinding } from '../../sim/loops/systemd-restart';
import { systemdViolations } from '../../sim/properties/systemd-restart';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { Trace } from '../../sim/trace';
import type { RunSpec, SystemdFault, SystemdWorldSummary } from '../../sim/worlds/systemd-restart';
import { createSystemdWorld } from '../../sim/worlds/systemd-restart';
import { propertyRuns } from '../property-runs';

const outcome = fc.oneof(
  fc.record({ kind: fc.constant('exit' as const), code: fc.constantFrom(0, 1, 2, 75, 78) }),
  fc.record({ kind: fc.constant('signal' as const), signal: fc.constantFrom('SIGTERM', 'SIGKILL', 'SIGSEGV', 'SIGABRT', 'SIGHUP') }),
  fc.constant({ kind: 'hang' as const }),
);
const run: fc.Arbitrary<RunSpec> = fc.record({ runForMs: fc.integer({ min: 0, max: 5000 }), outcome });
const unitArb: fc.Arbitrary<UnitConfig> = fc.record({
  restart: fc.constantFrom(...(RESTART_SETTINGS as RestartSetting[])),
  restartSecMs: fc.integer({ min: 0, max: 3000 }),
  restartSteps: fc.integer({ min: 0, max: 4 }),
  restartMaxDelayMs: fc.option(fc.integer({ min: 3000, max: 20_000 }), { nil: null }),
  startLimitIntervalMs: fc.constantFrom(0, 5000, 10_000),
  startLimitBurst: fc.integer({ min: 0, max: 6 }),
  watchdogMs: fc.constantFrom(0, 2000),
  prevent: fc.subarray([1, 78]),
  force: fc.subarray([2, 75]),
}).map(({ prevent, force, ...u }) => ({
  ...DEFAULT_UNIT, ...u,
  restartPreventExitStatus: { codes: prevent, signals: [] }, restartForceExitStatus: { codes: force, signals: [] },
}));
const command = fc.record({
  at: fc.integer({ min: 0, max: 60_000 }),
  verb: fc.constantFrom('start' as const, 'stop' as const, 'restart' as const, 'reset-failed' as const),
});

describe('systemd-restart invariants hold for random units, programs and operators', () => {
  it('start limit, manual stop, failed state, RestartSec (fast-check)', () => {
    fc.assert(fc.property(unitArb, fc.array(run, { maxLength: 8 }), run, fc.array(command, { maxLength: 4 }), fc.integer({ min: 0, max: 1000 }),
      (unit, script, then, commands, jitter) => {
        const world = createSystemdWorld(7, { script, then, jitterMs: jitter });
        const timeline: TimelineEntry<SystemdFault, SystemdConfig>[] = commands.map((c) => ({ at: c.at, config: { request: { verb: c.verb } } }));
        const r = new Runner(systemdBinding, { scenario: 'prop', seed: 7, world, config: { unit }, timeline });
        for (let i = 0; i < 3000 && r.processNext() && r.t <= 60_000;) i++;
        const violations = systemdViolations(r.trace() as Trace<SystemdWorldSummary>, unit);
        expect(violations).toEqual([]);
      }), { numRuns: propertyRuns(250), seed: 42 });
  });

  it('the properties can fail: a trace with six starts in a second breaks the start limit', () => {
    const frames = Array.from({ length: 7 }, (_, i) => ({ t: i * 100, state: 'active.running', phase: 'observe' as const, event: 'x', world: { main: null, starts: i, cleanExits: 0, exits: [] } }));
    const v = systemdViolations({ loop: 'systemd-restart', scenario: 'x', seed: 1, frames }, DEFAULT_UNIT);
    expect(v.map((x) => x.property)).toContain('startLimitRespected');
  });
});
