import { describe, expect, it } from 'vitest';
import type { Recommendation } from '../../machines/hpa-algorithm';
import {
  calculateReplicas as calculateFor,
  convertDesiredReplicasWithRules,
  scaleUpLimit,
  stabilizeRecommendation,
} from '../../machines/hpa-algorithm';
import type { KubernetesRelease } from '../../machines/hpa-algorithm';
import type { HpaConfig, ObservedInstance } from '../../machines/incus-hpa';
import { DEFAULT_PARAMS, hpaBinding } from '../../sim/loops/incus-hpa';
import { parseScenarioText } from '../../sim/loops/registry';
import type { TimelineEntry } from '../../sim/runner';
import { Runner } from '../../sim/runner';
import type { HpaFault } from '../../sim/worlds/incus-hpa';
import { createHpaWorld } from '../../sim/worlds/incus-hpa';
import { EMPTY_POLICY_MEMORY, kubernetesPolicy } from '../../machines/incus-hpa';
import { metricPodOf } from '../../machines/incus-hpa/policies/kubernetes';
import { MiB, config, pod } from './helpers';

/** The shared calculation, fed Incus instances as the kubernetes policy feeds it. */
function calculateReplicas(
  pods: ObservedInstance[],
  current: number,
  target: number,
  tolerance: number,
  release: KubernetesRelease = '1.35',
) {
  const r = calculateFor({
    pods: pods.map((p) => metricPodOf(p, config())),
    currentReplicas: current,
    targetUtilization: target,
    resource: 'memory',
    tolerances: { scaleDown: tolerance, scaleUp: tolerance },
    release,
    timing: { now: 0, cpuInitializationPeriodMs: 300_000, delayOfInitialReadinessStatusMs: 30_000 },
  });
  if (!r.ok) throw new Error(r.error);
  return r;
}

// Cases follow kubernetes/kubernetes pkg/controller/podautoscaler: replica_calculator.go
// GetResourceReplicas (tolerance, ceil(ratio × ready), missing metrics) and horizontal.go
// (convertDesiredReplicasWithRules, calculateScaleUpLimit, stabilizeRecommendation).
describe('calculateReplicas (GetResourceReplicas)', () => {
  const pods = (...pcts: number[]) => pcts.map((p, i) => pod(`p${i}`, p));
  it.each([
    // 1.35 (default): usageRatio <= 1.0 + tolerance, so 1.10 exactly is inside (1.32: see below).
    ['ratio 1.10 exactly is inside the tolerance (Kubernetes ≥ 1.33) → keep', pods(55, 55), 2, 50, 2],
    ['ratio 1.08 is within tolerance 0.1 → keep', pods(54, 54), 2, 50, 2],
    ['ratio 0.90 is within tolerance → keep', pods(45, 45), 2, 50, 2],
    ['ratio 1.12 leaves tolerance → ceil(1.12 × 2) = 3', pods(56, 56), 2, 50, 3],
    ['scale down: ceil(0.2 × 4) = 1', pods(10, 10, 10, 10), 4, 50, 1],
    ['utilisation is summed usage over summed requests, truncated', pods(99, 100), 2, 50, 4],
  ] as const)('%s', (_n, p, current, target, expected) => {
    expect(calculateReplicas([...p], current, target, 0.1).replicas).toBe(expected);
  });

  it('truncates utilisation to an integer percent before the ratio', () => {
    // 10 pods at 45.59% → 45 → ratio 0.90 → |0.0999…| ≤ 0.1 → keep; untruncated 0.9118 would be
    // kept too, but 44.99% → 44 → 0.88 → scale to ceil(0.88 × 10) = 9 where 0.8998 would give 9 as well;
    // the sharp case: 40.99% → 40 → 0.80 → ceil(8.0) = 8, untruncated 0.8198 → ceil(8.198) = 9.
    const p: ObservedInstance[] = Array.from({ length: 10 }, (_, i) => ({ ...pod(`p${i}`, 0), memoryUsage: 4099, memoryTotal: 10_000 }));
    expect(calculateReplicas(p, 10, 50, 0.1)).toMatchObject({ replicas: 8, utilization: 40 });
  });

  it('ratio 1.10 exactly: outside the tolerance with kubernetesRelease "1.32" (|1 − 1.1| = 0.10000000000000009)', () => {
    expect(calculateReplicas(pods(55, 55), 2, 50, 0.1, '1.32').replicas).toBe(3);
    expect(calculateReplicas(pods(55, 55), 2, 50, 0.1, '1.34').replicas).toBe(2);
  });

  it('missing metrics on a scale-down count as max(100, target)% of the request', () => {
    // Ready pods at 10% (ratio 0.2) plus one pod with no metric → assumed 100%.
    const p = [pod('a', 10), pod('b', 10), pod('c', 0, { memoryTotal: 0 })];
    // New ratio = (200 + 1024) MiB / (2000 + 1024) MiB = 40 % → 0.8 → ceil(0.8 × 3) = 3 = current → keep.
    expect(calculateReplicas(p, 3, 50, 0.1).replicas).toBe(3);
  });

  it("a pod without a metric counts at its OWN request (its limit), not another pod's", () => {
    // a: 1000 MiB at 10 %; c: no metric (memory.total unknown), its limits.memory is 100 MiB.
    // Own request: (100 + 100) / (1000 + 100) = 18 % → 0.36 → ceil(0.36 × 2) = 1.
    // a's request in its place (loopscope before): (100 + 1000) / 2000 = 55 % → 1.1 → keep 2.
    const a = pod('a', 10);
    const c = pod('c', 0, { memoryTotal: 0 });
    const d = kubernetesPolicy({
      observation: { at: 0, instances: [a, c] },
      config: config({ minPods: 1, maxPods: 10, memoryThreshold: 50, limitsMemoryBytes: 100 * MiB }),
      memory: { recommendations: [{ at: 0, replicas: 1 }] },
    });
    expect(d.averagePercent).toBe(10);
    expect(d.desired).toBe(1);
  });

  it('an instance whose request cannot be known is an error (upstream: missing request), not a guess', () => {
    const p = [pod('a', 10), pod('c', 0, { memoryTotal: 0 })];
    const d = kubernetesPolicy({
      observation: { at: 0, instances: p },
      config: config({ minPods: 1, maxPods: 10, memoryThreshold: 50, limitsMemoryBytes: 0 }),
      memory: EMPTY_POLICY_MEMORY,
    });
    expect(d.desired).toBe(2);
    expect(d.comparison).toMatch(/^ScalingActive=False FailedGetResourceMetric: .*missing request for memory of Pod c/);
  });

  it('missing metrics on a scale-up count as 0', () => {
    const p = [pod('a', 100), pod('b', 100), pod('c', 0, { memoryTotal: 0 })];
    // Ratio 2.0; with c at 0: (100 + 100 + 0) / 3 = 66% → 1.33 → ceil(1.33 × 3) = 4.
    expect(calculateReplicas(p, 3, 50, 0.1).replicas).toBe(4);
  });

  it('pending (Starting) pods count as 0 on a scale-up', () => {
    const p = [pod('a', 100), pod('b', 0, { status: 'Starting' })];
    // (100 + 0) / 2 = 50% → ratio 1.0 → within tolerance → keep current.
    expect(calculateReplicas(p, 2, 50, 0.1).replicas).toBe(2);
  });

  it('no metric at all: ScalingActive=False FailedGetResourceMetric, the current count is kept', () => {
    const d = kubernetesPolicy({
      observation: { at: 0, instances: [pod('a', 0, { status: 'Starting' })] },
      config: config({ minPods: 1, maxPods: 10, memoryThreshold: 50 }),
      memory: EMPTY_POLICY_MEMORY,
    });
    expect(d.desired).toBe(1);
    expect(d.comparison).toBe(
      'ScalingActive=False FailedGetResourceMetric: the HPA was unable to compute the replica count: failed to get memory utilization: unable to get metrics for resource memory: no metrics returned from resource metrics API',
    );
  });
});

describe('convertDesiredReplicasWithRules / calculateScaleUpLimit', () => {
  it('scale-up is capped at max(2 × current, 4)', () => {
    expect(scaleUpLimit(1)).toBe(4);
    expect(scaleUpLimit(3)).toBe(6);
    expect(convertDesiredReplicasWithRules(1, 10, 1, 20)).toEqual({ replicas: 4, condition: 'ScaleUpLimit' });
    expect(convertDesiredReplicasWithRules(5, 30, 1, 20)).toEqual({ replicas: 10, condition: 'ScaleUpLimit' });
  });
  it('clamps to [min, max]', () => {
    expect(convertDesiredReplicasWithRules(3, 9, 1, 5)).toEqual({ replicas: 5, condition: 'TooManyReplicas' });
    expect(convertDesiredReplicasWithRules(3, 0, 2, 5)).toEqual({ replicas: 2, condition: 'TooFewReplicas' });
    expect(convertDesiredReplicasWithRules(3, 4, 1, 5)).toEqual({ replicas: 4, condition: 'DesiredWithinRange' });
  });
});

describe('stabilizeRecommendation (300 s scale-down window)', () => {
  it('takes the max recommendation inside the window', () => {
    let memory: readonly Recommendation[] = [];
    const at = (s: number, r: number) => {
      const res = stabilizeRecommendation(memory, s * 1000, 300_000, r);
      memory = res.recommendations;
      return res.replicas;
    };
    expect(at(0, 5)).toBe(5);
    expect(at(15, 2)).toBe(5); // 5 still inside the window
    expect(at(299, 1)).toBe(5);
    expect(at(301, 1)).toBe(2); // the 5 from t=0 is older than 300 s
    expect(at(316, 1)).toBe(1);
  });
  it('replaces one stale sample instead of growing', () => {
    const memory = stabilizeRecommendation(
      [
        { at: 0, replicas: 3 },
        { at: 1000, replicas: 3 },
      ],
      400_000,
      300_000,
      1,
    ).recommendations;
    expect(memory).toHaveLength(2);
  });
});

describe('kubernetes policy', () => {
  const run = (pods: ObservedInstance[], over = {}, memory = EMPTY_POLICY_MEMORY, at = 0) =>
    kubernetesPolicy({
      observation: { at, instances: pods },
      config: config({ minPods: 1, maxPods: 10, memoryThreshold: 50, ...over }),
      memory,
    });

  it('creates several pods in one period', () => {
    expect(run([pod('a', 100), pod('b', 100)]).actions).toEqual([{ kind: 'create' }, { kind: 'create' }]);
  });
  it('below min → straight to min, even at low load', () => {
    expect(run([], { minPods: 2 }).actions).toEqual([{ kind: 'create' }, { kind: 'create' }]);
  });
  it('above max → straight to max', () => {
    expect(run([pod('a', 50), pod('b', 50), pod('c', 50)], { maxPods: 2 }).actions).toHaveLength(1);
  });
  it('only counts instances carrying its owner key', () => {
    const d = run([pod('a', 100), pod('pod-x', 0, { owner: null })]);
    expect(d.running).toBe(1);
    expect(d.actions.every((a) => a.kind !== 'delete' || a.name !== 'pod-x')).toBe(true);
  });
  it('recordInitialRecommendation: 5 pods at 10 % vs 50 % keep 5 through the first window (after a restart too)', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((n, i) => pod(n, 10, { createdAt: i }));
    const first = run(five, {}, EMPTY_POLICY_MEMORY, 60_000);
    expect(first.desired).toBe(5);
    expect(first.memory.recommendations[0]).toEqual({ at: 60_000, replicas: 5 });
    expect(run(five, {}, first.memory, 355_000).desired).toBe(5);
    expect(run(five, {}, first.memory, 361_000).desired).toBe(1);
  });

  it('holds the count during the stabilisation window, then scales down deleting the newest first', () => {
    const pods = [pod('a', 10, { createdAt: 1 }), pod('b', 10, { createdAt: 2 }), pod('c', 10, { createdAt: 3 })];
    const first = run(pods, {}, { recommendations: [{ at: 0, replicas: 3 }] }, 100_000);
    expect(first.actions).toEqual([]);
    const later = run(pods, {}, first.memory, 400_000);
    expect(later.actions).toEqual([
      { kind: 'delete', name: 'c', waitForStop: true },
      { kind: 'delete', name: 'b', waitForStop: true },
    ]);
  });
});

describe('kubernetes policy on the simulated host: the restartController fault', () => {
  // horizontal.go keeps recommendations in memory only; recordInitialRecommendation re-seeds them
  // with the current count after a restart, so the scale-down waits a whole window again.
  const GB = 1e9;
  function firstDeleteAt(timeline: TimelineEntry<HpaFault, HpaConfig>[]) {
    const c = config({
      policy: 'kubernetes',
      minPods: 1,
      maxPods: 5,
      memoryThreshold: 50,
      limitsMemoryBytes: GB,
      downscaleStabilizationMs: 300_000,
    });
    const pods = ['pod-a', 'pod-b', 'pod-c', 'pod-d', 'pod-e'].map((name, i) => ({
      name,
      owner: c.name,
      status: 'Running' as const,
      limitBytes: GB,
      stressBytes: 0,
      serves: true,
      createdAt: i,
    }));
    const r = new Runner(hpaBinding, {
      scenario: 'restart',
      seed: 1,
      world: createHpaWorld(1, { ...DEFAULT_PARAMS, failureProbability: 0 }, pods),
      config: c,
      timeline,
    });
    while (r.nextEventAt !== undefined && r.nextEventAt <= 15 * 60_000) {
      r.processNext();
      if (r.world.instances.some((i) => i.status === 'Stopping')) return r.t;
    }
    return undefined;
  }
  it('5 idle pods: no scale-down before the first window ends; a restart at 4 min starts the window again', () => {
    const plain = firstDeleteAt([])!;
    expect(plain).toBeGreaterThan(300_000);
    expect(plain).toBeLessThan(330_000);
    const restarted = firstDeleteAt([{ at: 240_000, fault: { kind: 'restartController' } }])!;
    expect(restarted).toBeGreaterThan(240_000 + 300_000);
    expect(restarted).toBeLessThan(240_000 + 330_000);
  });
});

describe('kubernetesRelease in hpa.yaml', () => {
  const yaml = (release: string) =>
    `loop: incus-hpa\nname: r\nseed: 1\nduration: 1m\nconfig:\n  policy: kubernetes\n  kubernetesRelease: ${release}\nworld:\n  instances: [{ name: pod-a }]\n`;
  it('a quoted release is read; 1.35 by default', () => {
    expect((parseScenarioText('r.yaml', 'r', yaml('"1.32"')).scenario.config as HpaConfig).kubernetesRelease).toBe('1.32');
    expect(config().kubernetesRelease).toBe('1.35');
  });
  it('an unknown or unquoted release names the file, the field and the expectation', () => {
    expect(() => parseScenarioText('r.yaml', 'r', yaml('1.32'))).toThrow(
      /r\.yaml: config\.kubernetesRelease: expected one of "1\.32", "1\.33", "1\.34", "1\.35"/,
    );
    expect(() => parseScenarioText('r.yaml', 'r', yaml('"1.36"'))).toThrow(/config\.kubernetesRelease/);
  });
});

describe('kubernetes policy: instances it ignores', () => {
  it('a Stopped owned instance (no memory.total) with no configured limit does not fail the sync', () => {
    const d = kubernetesPolicy({
      observation: { at: 0, instances: [pod('a', 100), pod('b', 0, { status: 'Stopped', memoryTotal: 0 })] },
      config: config({ minPods: 1, maxPods: 10, memoryThreshold: 50, limitsMemoryBytes: 0 }),
      memory: { recommendations: [{ at: 0, replicas: 1 }] },
    });
    expect(d.comparison).not.toMatch(/ScalingActive=False/);
    expect(d.desired).toBe(2);
  });
});
