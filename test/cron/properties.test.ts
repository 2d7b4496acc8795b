import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CronConfig, CronJobFields } from '../../machines/cron';
import { parseEntry } from '../../machines/cron';
import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty } from '../../sim/check/model';
import { cronBinding } from '../../sim/loops/cron';
import {
  everyTimeStarted,
  fixedNoRepeat,
  fixedNoSkip,
  inStep,
  inStepWithinMs,
  noOverlap,
  oneJobPerTime,
  wildcardNoRepeat,
  wildcardNoSkip,
} from '../../sim/properties/cron';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { CronFault, CronWorld } from '../../sim/worlds/cron';
import { createCronWorld } from '../../sim/worlds/cron';
import { findRuns, propertyRuns } from '../property-runs';
import type { CronContext } from '../../machines/cron';

/**
 * The same property objects `loopscope check` explores (sim/properties/cron.ts), evaluated after
 * every step of Runner runs over generated start times and clock changes, outages and crontabs.
 * A failure prints fast-check's seed and path (replay with { seed, path }).
 */
type Prop = CheckProperty<CronWorld, CronConfig, CronContext>;
type Move = TimelineEntry<CronFault, CronConfig>;
const START = Date.parse('2026-03-29T01:50:00Z');
const MIN = 60_000;
const NUM_RUNS = propertyRuns(200);

const ENTRIES = [
  parseEntry('tick', '*/7 * * * *'),
  parseEntry('backup', '30 2 * * *'),
  parseEntry('q', '15,45 * * * *'),
  parseEntry('night', '5 3 * * *'),
];

function runnerOf(config: CronConfig, startMs: number, timeline: Move[], runsMs = 1000) {
  const runtimes = Object.fromEntries(config.entries.map((e) => [e.name, { durationMs: runsMs, jitterMs: 0 }]));
  return new Runner(cronBinding, {
    scenario: 'p',
    seed: 1,
    world: createCronWorld(1, startMs, runtimes),
    config,
    timeline,
    recordFrames: false,
  });
}

/** Steps to `until`, checking each property in every state; the first broken one, or null. */
function firstBroken(
  r: Runner<CronWorld, CronFault, CronConfig>,
  props: readonly Prop[],
  until: number,
  extra?: () => string | null,
): string | null {
  const check = () => props.find((p) => !p.holds(viewOf(r)))?.name ?? extra?.() ?? null;
  for (let broken = check(); ; broken = check()) {
    if (broken) return `${broken} at t=${r.t / 1000}s`;
    const next = r.nextEventAt;
    if (next === undefined || next > until) return null;
    r.processNext();
  }
}

const jumpArb = (maxMin: number, maxAtMin = 100) =>
  fc
    .record({
      atMin: fc.integer({ min: 1, max: maxAtMin }),
      sec: fc.integer({ min: 0, max: 59 }),
      byMin: fc.integer({ min: -maxMin, max: maxMin }),
    })
    .map((j): { at: number; fault: Extract<CronFault, { kind: 'clockJump' }> } => ({
      at: j.atMin * MIN + j.sec * 1000,
      fault: { kind: 'clockJump', byMs: j.byMin * MIN },
    }));
const CRONIE = [fixedNoRepeat, fixedNoSkip, wildcardNoRepeat, wildcardNoSkip];

describe('cron properties (fast-check, cronie)', () => {
  it('steady clock: every job, fixed-time or wildcard, runs once for each scheduled minute', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 * 24 }), fc.integer({ min: 10, max: 90 }), (offsetMin, minutes) => {
        const r = runnerOf({ entries: ENTRIES, flock: false }, START + offsetMin * MIN, []);
        expect(firstBroken(r, CRONIE, minutes * MIN)).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('one clock change under 3 h: fixed-time jobs run once per scheduled minute, and crond is back in step within K', () => {
    fc.assert(
      fc.property(jumpArb(179, 60), (jump) => {
        const r = runnerOf({ entries: ENTRIES, flock: false }, START, [jump]);
        const k = inStepWithinMs([{ index: 0, label: '', entry: jump }]);
        const late = () => (r.t >= jump.at + k && !inStep(viewOf(r)) ? 'back-in-step' : null);
        expect(firstBroken(r, [fixedNoRepeat, fixedNoSkip], jump.at + k + 5 * MIN, late)).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('outages and changes of 3 h or more are outside the contract: the guarded claims hold, whatever happens', () => {
    const outage = fc
      .record({ atMin: fc.integer({ min: 1, max: 100 }), forMin: fc.integer({ min: 1, max: 90 }) })
      .map((o): Move => ({ at: o.atMin * MIN, fault: { kind: 'hostDown', forMs: o.forMin * MIN } }));
    // One clock change (two can add up: see the next test) and up to two outages.
    const movesArb = fc
      .tuple(fc.option(jumpArb(400), { nil: undefined }), fc.array(outage, { maxLength: 2 }))
      .map(([j, o]) => (j ? [j, ...o] : o));
    fc.assert(
      fc.property(movesArb, (moves) => {
        const jumpedFar = moves.some(
          (m) => 'fault' in m && (m.fault.kind === 'hostDown' || Math.abs(m.fault.kind === 'clockJump' ? m.fault.byMs : 0) >= 180 * MIN),
        );
        const r = runnerOf({ entries: ENTRIES, flock: false }, START, moves);
        expect(firstBroken(r, [fixedNoRepeat, fixedNoSkip], 3 * 60 * MIN), `outside the contract: ${jumpedFar}`).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('fast-check FINDS two backward changes under 3 h each that run a fixed-time job twice (cron.c adds them up against virtual time)', () => {
    const twoBack = fc
      .tuple(
        fc.integer({ min: 41, max: 100 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 60, max: 179 }),
        fc.integer({ min: 60, max: 179 }),
      )
      .map(([atMin, gapMin, a, b]): Move[] => [
        { at: atMin * MIN, fault: { kind: 'clockJump', byMs: -a * MIN } },
        { at: (atMin + gapMin) * MIN + 1000, fault: { kind: 'clockJump', byMs: -b * MIN } },
      ]);
    const result = fc.check(
      fc.property(
        twoBack,
        (moves) => firstBroken(runnerOf({ entries: ENTRIES, flock: false }, START, moves), [fixedNoRepeat], 8 * 60 * MIN) === null,
      ),
      { numRuns: findRuns() },
    );
    expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
    const moves = result.counterexample![0];
    expect(firstBroken(runnerOf({ entries: ENTRIES, flock: false }, START, moves), [fixedNoRepeat], 8 * 60 * MIN)).toMatch(
      /^fixed-no-repeat/,
    );
  });

  it('fast-check FINDS a wildcard job run twice when the clock goes back (cron(8): wildcard jobs run by the new time)', () => {
    const result = fc.check(
      fc.property(
        jumpArb(179),
        (jump) => firstBroken(runnerOf({ entries: ENTRIES, flock: false }, START, [jump]), [wildcardNoRepeat], 3 * 60 * MIN) === null,
      ),
      { numRuns: findRuns() },
    );
    expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
    expect(result.counterexample![0].fault.byMs).toBeLessThan(0);
  });
});

describe('cron properties (fast-check, Kubernetes CronJob)', () => {
  const policy = fc.constantFrom<CronJobFields['concurrencyPolicy']>('Allow', 'Forbid', 'Replace');
  const cronJobArb = fc.record({
    minute: fc.integer({ min: 0, max: 59 }),
    step: fc.constantFrom(5, 10, 15, 30),
    policy,
    runsMin: fc.integer({ min: 1, max: 40 }),
    deadline: fc.option(fc.integer({ min: 30, max: 900 }), { nil: null }),
  });
  const controllerDown = fc
    .record({ atMin: fc.integer({ min: 1, max: 100 }), forMin: fc.integer({ min: 1, max: 120 }) })
    .map((o): Move => ({ at: o.atMin * MIN, fault: { kind: 'controllerDown', forMs: o.forMin * MIN } }));
  const caseArb = fc.record({
    jobs: fc.array(cronJobArb, { minLength: 1, maxLength: 3 }),
    moves: fc.array(fc.oneof(controllerDown, jumpArb(200)), { maxLength: 2 }),
  });
  const runnerFor = (c: {
    jobs: { minute: number; step: number; policy: CronJobFields['concurrencyPolicy']; runsMin: number; deadline: number | null }[];
    moves: Move[];
  }) => {
    const entries = c.jobs.map((j, i) => parseEntry(`job${i}`, `${j.minute % j.step}-59/${j.step} * * * *`));
    const cronJobs = Object.fromEntries(
      c.jobs.map((j, i) => [
        `job${i}`,
        { concurrencyPolicy: j.policy, startingDeadlineSeconds: j.deadline, suspend: false, timeZone: null },
      ]),
    );
    const runtimes = Object.fromEntries(c.jobs.map((j, i) => [`job${i}`, { durationMs: j.runsMin * MIN, jitterMs: 0 }]));
    return new Runner(cronBinding, {
      scenario: 'k',
      seed: 1,
      world: createCronWorld(1, START, runtimes),
      config: { entries, flock: false, mode: 'kubernetes', cronJobs },
      timeline: c.moves,
      recordFrames: false,
    });
  };

  it('one Job per scheduled time; Forbid and Replace never overlap — through controller outages and clock changes', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(firstBroken(runnerFor(c), [oneJobPerTime, noOverlap], 3 * 60 * MIN)).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('fast-check FINDS a scheduled time that never gets its Job (only the most recent missed time is started)', () => {
    const result = fc.check(
      fc.property(caseArb, (c) => firstBroken(runnerFor(c), [everyTimeStarted], 3 * 60 * MIN) === null),
      { numRuns: findRuns() },
    );
    expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
  });
});
