import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HpaConfig, PolicyName } from '../../machines/incus-hpa';
import { DEFAULT_CONFIG } from '../../machines/incus-hpa';
import type { CheckProperty } from '../../sim/check/model';
import { viewOf } from '../../sim/check/counterexample';
import { DEFAULT_PARAMS, hpaBinding } from '../../sim/loops/incus-hpa';
import { Runner } from '../../sim/runner';
import type { HpaFault, HpaWorld, SimInstance } from '../../sim/worlds/incus-hpa';
import { createHpaWorld, settle } from '../../sim/worlds/incus-hpa';
import { propertyRuns } from '../property-runs';
import type { HpaContext } from '../../machines/incus-hpa';

/** Runs per property: 200 in CI, more with LOOPSCOPE_PROPERTY_RUNS. */
export const NUM_RUNS = propertyRuns();
const MB = 1e6;
export const FAULT_PHASE_MS = 5 * 60_000;

/** A fault whose target is resolved when it happens (the nth owned instance then), so a
 * generated schedule never names an instance that is already gone. */
export type ScheduledFault =
  | { kind: 'demand'; mb: number }
  | { kind: 'failApi'; calls: number }
  | { kind: 'slowApi'; factor: number; forMs: number }
  | { kind: 'kill'; nth: number }
  | { kind: 'deleteInstance'; nth: number }
  | { kind: 'addUnowned'; suffix: string }
  | { kind: 'restartController' };

export interface HpaCase {
  config: HpaConfig;
  seed: number;
  ownedPods: number;
  neighbour: boolean;
  demandMb: number;
  schedule: { at: number; fault: ScheduledFault }[];
}

const faultArb: fc.Arbitrary<ScheduledFault> = fc.oneof(
  fc.record({ kind: fc.constant('demand' as const), mb: fc.integer({ min: 0, max: 4000 }) }),
  fc.record({ kind: fc.constant('failApi' as const), calls: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('slowApi' as const),
    factor: fc.integer({ min: 2, max: 20 }),
    forMs: fc.integer({ min: 1_000, max: 60_000 }),
  }),
  fc.record({ kind: fc.constant('kill' as const), nth: fc.nat(5) }),
  fc.record({ kind: fc.constant('deleteInstance' as const), nth: fc.nat(5) }),
  fc.record({ kind: fc.constant('addUnowned' as const), suffix: fc.constantFrom('man-cache', 'stgres', '-other') }),
  fc.record({ kind: fc.constant('restartController' as const) }),
);

export const hpaCaseArb = (policies: readonly PolicyName[]): fc.Arbitrary<HpaCase> =>
  fc
    .record({
      policy: fc.constantFrom(...policies),
      minPods: fc.integer({ min: 0, max: 3 }),
      extra: fc.integer({ min: 0, max: 3 }),
      threshold: fc.integer({ min: 20, max: 90 }),
      backoffMax: fc.constantFrom(5_000, 15_000, 30_000),
      window: fc.constantFrom(0, 30_000, 60_000),
      seed: fc.nat(1000),
      ownedPods: fc.integer({ min: 0, max: 4 }),
      neighbour: fc.boolean(),
      demandMb: fc.integer({ min: 0, max: 3000 }),
      schedule: fc.array(fc.record({ at: fc.integer({ min: 0, max: FAULT_PHASE_MS }), fault: faultArb }), { maxLength: 6 }),
    })
    .map((g) => ({
      config: {
        ...DEFAULT_CONFIG,
        policy: g.policy,
        minPods: g.minPods,
        maxPods: Math.max(1, g.minPods + g.extra),
        memoryThreshold: g.threshold,
        limitsMemoryBytes: 1000 * MB,
        backoffInitialMs: 1_000,
        backoffMaxMs: g.backoffMax,
        downscaleStabilizationMs: g.window,
      },
      seed: g.seed,
      ownedPods: g.ownedPods,
      neighbour: g.neighbour,
      demandMb: g.demandMb,
      schedule: [...g.schedule].sort((a, b) => a.at - b.at),
    }));

export function worldOf(c: HpaCase): HpaWorld {
  const pod = (name: string, owner: string | null, serves: boolean): SimInstance => ({
    name,
    owner,
    status: 'Running',
    limitBytes: 1000 * MB,
    stressBytes: 0,
    serves,
    createdAt: 0,
  });
  const instances = Array.from({ length: c.ownedPods }, (_, i) => pod(`pod-${i}`, c.config.name, true));
  if (c.neighbour) instances.push(pod('podman-cache', null, false));
  return createHpaWorld(c.seed, { ...DEFAULT_PARAMS, baselineBytes: 50 * MB }, instances, c.demandMb * MB);
}

export const runnerOf = (c: HpaCase, name = 'generated') =>
  new Runner(hpaBinding, {
    scenario: name,
    seed: c.seed,
    policy: c.config.policy,
    world: worldOf(c),
    config: c.config,
  });

/** The concrete fault for a scheduled one, given the world now (undefined: nothing to do). */
export function resolveFault(world: HpaWorld, t: number, config: HpaConfig, f: ScheduledFault): HpaFault | undefined {
  const w = settle(world, t);
  const owned = w.instances.filter((i) => i.owner === config.name);
  switch (f.kind) {
    case 'demand':
      return { kind: 'demand', bytes: f.mb * MB };
    case 'failApi':
      return { kind: 'failApi', calls: f.calls };
    case 'slowApi':
      return { kind: 'slowApi', factor: f.factor, forMs: f.forMs };
    case 'restartController':
      return { kind: 'restartController' };
    case 'kill':
      return owned.length ? { kind: 'kill', instance: owned[f.nth % owned.length]!.name } : undefined;
    case 'deleteInstance':
      return owned.length ? { kind: 'deleteInstance', instance: owned[f.nth % owned.length]!.name } : undefined;
    case 'addUnowned': {
      const name = `pod${f.suffix}`;
      return w.instances.some((i) => i.name === name)
        ? undefined
        : { kind: 'addInstance', name, owner: null, limitBytes: 1000 * MB, stressBytes: 0, serves: false };
    }
  }
}

/**
 * Runs a case to `until`, checking `check` after every processed item and every fault.
 * Returns the first failure (its time and message) or null.
 */
export function drive(
  runner: Runner<HpaWorld, HpaFault, HpaConfig>,
  c: HpaCase,
  until: number,
  check: (runner: Runner<HpaWorld, HpaFault, HpaConfig>) => string | null,
): { t: number; message: string } | null {
  let next = 0;
  for (;;) {
    const dueFault = next < c.schedule.length ? c.schedule[next]!.at : Number.POSITIVE_INFINITY;
    const dueItem = runner.nextEventAt ?? Number.POSITIVE_INFINITY;
    if (Math.min(dueFault, dueItem) > until) break;
    if (dueFault < dueItem) {
      runner.run(dueFault); // nothing is due before it: this only moves the clock
      const fault = resolveFault(runner.world, runner.t, c.config, c.schedule[next]!.fault);
      next++;
      if (fault) runner.inject(fault);
    } else runner.processNext();
    const problem = check(runner);
    if (problem) return { t: runner.t, message: problem };
  }
  runner.run(until);
  return null;
}

/** Checks every given always-property; the message names the first that fails. */
export const invariantsOf =
  (properties: CheckProperty<HpaWorld, HpaConfig, HpaContext>[]) => (runner: Runner<HpaWorld, HpaFault, HpaConfig>) => {
    const broken = properties.find((p) => !p.holds(viewOf(runner)));
    return broken ? `${broken.name}: ${broken.claim}` : null;
  };

/** Where failing properties leave their trace (the lab loads it): LOOPSCOPE_TRACE_DIR or a temp dir. */
export function writeFailingTrace(name: string, runner: Runner<HpaWorld, HpaFault, HpaConfig>): string {
  const dir = process.env.LOOPSCOPE_TRACE_DIR ?? join(tmpdir(), 'loopscope-check');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.trace.json`);
  writeFileSync(file, JSON.stringify(runner.trace()) + '\n');
  return file;
}

/** Property runs per second for the benchmark: the fixed-policy safety property, 15 virtual minutes. */
export function propertyRunsPerSecond(runs: number) {
  const minutes = 15;
  const started = performance.now();
  fc.assert(
    fc.property(hpaCaseArb(['fixed']), (c) => drive(runnerOf(c), c, minutes * 60_000, () => null) === null),
    { numRuns: runs },
  );
  const seconds = (performance.now() - started) / 1000;
  return { runs, seconds, perSecond: runs / seconds, minutes };
}
