import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countSettled,
  convergencePeriods,
  atMostMax,
  neverTouchesUnowned,
  noLeftovers,
  oneOperationAtATime,
  queuedFailures,
} from '../../sim/properties/incus-hpa';
import { viewOf } from '../../sim/check/counterexample';
import { DEFAULT_PARAMS } from '../../sim/loops/incus-hpa';
import type { HpaCase } from './hpa-arbitraries';
import { drive, FAULT_PHASE_MS, hpaCaseArb, invariantsOf, NUM_RUNS, runnerOf, writeFailingTrace } from './hpa-arbitraries';
import { findRuns } from '../property-runs';

/**
 * What each policy promises (sim/properties/incus-hpa.ts PROMISES), over generated scenarios:
 * configs, initial pods, a demand level, and a fault schedule (demand changes, API failures and
 * slowdowns, kills, someone deleting an owned pod or adding an unowned "pod…" instance, controller
 * restarts). A failure prints fast-check's seed and path (replay with { seed, path }) and leaves
 * the failing run's trace in $LOOPSCOPE_TRACE_DIR (default: the temp dir), loadable by the lab.
 */
const SAFETY = invariantsOf([neverTouchesUnowned, atMostMax, oneOperationAtATime]);
const RUN_MS = FAULT_PHASE_MS + 10 * 60_000;

function safetyHolds(name: string) {
  return (c: HpaCase) => {
    const runner = runnerOf(c, name);
    const failure = drive(runner, c, RUN_MS, SAFETY);
    if (failure) writeFailingTrace(name, runner);
    return failure === null;
  };
}

/** Fault phase, then quiet: within K periods of the last fault the count settles and stays. */
/** A case the convergence property once found: four failures queued at once outlast one retry's bound. */
const FOUND_FIXED: [HpaCase][] = [
  [
    {
      config: {
        name: 'hpa',
        minPods: 1,
        maxPods: 1,
        memoryThreshold: 20,
        policy: 'fixed',
        periodMs: 15_000,
        namePrefix: 'pod',
        limitsMemoryBytes: 1e9,
        backoffInitialMs: 1000,
        backoffMaxMs: 15_000,
        tolerance: 0.1,
        downscaleStabilizationMs: 0,
        kubernetesRelease: '1.35',
      },
      seed: 0,
      ownedPods: 0,
      neighbour: false,
      demandMb: 0,
      schedule: [
        { at: 0, fault: { kind: 'failApi', calls: 1 } },
        { at: 7200, fault: { kind: 'failApi', calls: 4 } },
        { at: 7200, fault: { kind: 'deleteInstance', nth: 0 } },
      ],
    },
  ],
];

function convergesWithinK(name: string, leftoversToo: boolean) {
  return (c: HpaCase) => {
    // A slowdown is over only when the operations begun under it are: the world fixes an
    // operation's latency when it begins (sim/worlds/incus-hpa.ts latency()).
    const { create, start } = DEFAULT_PARAMS.latency;
    const lastFault = Math.max(
      0,
      ...c.schedule.map((s) => s.at + (s.fault.kind === 'slowApi' ? s.fault.forMs + s.fault.factor * (create + start) : 0)),
    );
    const runner = runnerOf(c, name);
    const settledBy =
      lastFault +
      convergencePeriods(
        c.config,
        queuedFailures(
          c.schedule.map((s) => s.fault),
          runner.world,
        ),
      ) *
        c.config.periodMs;
    const failure = drive(runner, c, settledBy + 3 * c.config.periodMs, (r) => {
      if (r.t < settledBy) return null;
      const v = viewOf(r);
      if (!countSettled(v)) return `owned count not settled in [${c.config.minPods}, ${c.config.maxPods}] by ${settledBy / 1000}s`;
      if (leftoversToo && !noLeftovers(v)) return 'an owned instance is still Stopped';
      return null;
    });
    if (failure) writeFailingTrace(name, runner);
    return failure === null;
  };
}

describe('incus-hpa properties (fast-check)', () => {
  it('fixed: never touches an unowned instance, ≤ max owned Starting+Running, one operation at a time', () => {
    fc.assert(fc.property(hpaCaseArb(['fixed']), safetyHolds('fixed-safety')), { numRuns: NUM_RUNS });
  });

  it('kubernetes: the same ownership, bound and sequencing', () => {
    fc.assert(fc.property(hpaCaseArb(['kubernetes']), safetyHolds('kubernetes-safety')), { numRuns: NUM_RUNS });
  });

  it('seed: fast-check FINDS a safety counterexample (a finding, not a bug in the checker)', () => {
    const result = fc.check(fc.property(hpaCaseArb(['seed']), safetyHolds('seed-safety')), { numRuns: findRuns() });
    expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
    const shrunk = result.counterexample![0];
    // Replaying the shrunk case shows which promise it breaks.
    const runner = runnerOf(shrunk, 'seed-safety');
    const failure = drive(runner, shrunk, RUN_MS, SAFETY);
    expect(failure?.message).toMatch(/never-touches-unowned|at-most-max/);
  });

  it('fixed: converges within K periods once faults stop, and leaves no stopped owned instance', () => {
    fc.assert(fc.property(hpaCaseArb(['fixed']), convergesWithinK('fixed-converges', true)), { numRuns: NUM_RUNS, examples: FOUND_FIXED });
  });

  it('kubernetes: the count converges within K periods (+ its stabilisation window)', () => {
    fc.assert(fc.property(hpaCaseArb(['kubernetes']), convergesWithinK('kubernetes-converges', false)), { numRuns: NUM_RUNS });
  });

  it('seed: fast-check FINDS a run that does not converge (e.g. a pod left Stopped)', () => {
    const result = fc.check(fc.property(hpaCaseArb(['seed']), convergesWithinK('seed-converges', true)), { numRuns: findRuns() });
    expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
  });

  it('determinism: same scenario and seed → identical trace JSON', () => {
    fc.assert(
      fc.property(hpaCaseArb(['seed', 'fixed', 'kubernetes']), (c) => {
        const once = () => {
          const r = runnerOf(c);
          drive(r, c, 10 * 60_000, () => null);
          return JSON.stringify(r.trace());
        };
        return once() === once();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
