import { describe, expect, it } from 'vitest';
import type { KubernetesRelease, MetricPod, PodPhase, Tolerances } from '../../machines/hpa-algorithm';
import {
  calculateReplicas,
  groupPods,
  recordInitialRecommendation,
  stabilizeRecommendation,
  tolerancesForHpa,
  withinTolerance,
} from '../../machines/hpa-algorithm';

// Cases from kubernetes/kubernetes pkg/controller/podautoscaler/replica_calculator_test.go (the
// release-1.35 file: TestReplicaCalcResourceScale, TestReplicaCalcMissingMetrics*,
// TestReplicaCalcConfigurableTolerance, TestReplicaCalcEmptyMetrics, TestGroupPods, …), with the
// same fixtures: 2 containers per pod, each requesting `request` and using `level` millicores;
// pods Running and Ready unless told; start and readiness times at Go's zero time; metrics taken
// at the zero time over 1 minute; the tests' 2-minute CPU initialisation period and 10 s delay.

const GO_ZERO = new Date('0001-01-01T00:00:00Z').getTime(); // Go's time.Time{}
const NOW = Date.UTC(2026, 0, 1);
const hot = NOW; // hotCPUCreationTime(): now
const cool = NOW - 3 * 60_000; // coolCPUCreationTime(): 3 minutes ago
const TIMING = { now: NOW, cpuInitializationPeriodMs: 2 * 60_000, delayOfInitialReadinessStatusMs: 10_000 };

interface Fixture {
  currentReplicas: number;
  requests: readonly number[]; // per-container request, millicores
  levels: readonly number[]; // per-container usage of pods 0..levels.length-1 (the rest have no metric)
  readiness?: readonly boolean[];
  startTime?: readonly number[];
  phase?: readonly PodPhase[];
  deleting?: readonly boolean[];
}

function podsOf(f: Fixture): MetricPod[] {
  const n = Math.max(f.currentReplicas, f.phase?.length ?? 0);
  return Array.from({ length: n }, (_, i) => ({
    name: `test-pod-${i}`,
    phase: f.phase?.[i] ?? 'Running',
    deleting: f.deleting?.[i] ?? false,
    startTime: f.startTime?.[i] ?? GO_ZERO,
    ready: { status: f.readiness?.[i] ?? true, lastTransitionTime: GO_ZERO },
    request: i < f.requests.length ? 2 * f.requests[i]! : null,
    metric: i < f.levels.length ? { value: 2 * f.levels[i]!, timestamp: GO_ZERO, windowMs: 60_000 } : null,
  }));
}

const DEFAULT: Tolerances = { scaleDown: 0.1, scaleUp: 0.1 };
function calc(f: Fixture, target: number, tolerances = DEFAULT, release: KubernetesRelease = '1.35') {
  return calculateReplicas({
    pods: podsOf(f),
    currentReplicas: f.currentReplicas,
    targetUtilization: target,
    resource: 'cpu',
    tolerances,
    release,
    timing: TIMING,
  });
}
const ok = (r: ReturnType<typeof calc>) => {
  if (!r.ok) throw new Error(r.error);
  return { replicas: r.replicas, utilization: r.utilization, raw: r.rawUtilization };
};
const R = (n: number, v: number) => Array.from({ length: n }, () => v);
const T = true;
const F = false;

describe('TestReplicaCalcResourceScale (replica_calculator_test.go)', () => {
  it.each([
    ['scale up', { currentReplicas: 3, requests: R(3, 1000), levels: [300, 500, 700] }, 30, 5, 50, 1000],
    [
      'scale up: unready pod scales less',
      { currentReplicas: 3, requests: R(3, 1000), levels: [300, 500, 700], readiness: [F, T, T] },
      30,
      4,
      60,
      1200,
    ],
    [
      'scale up: hot-CPU pod scales less',
      { currentReplicas: 3, requests: R(3, 1000), levels: [300, 500, 700], startTime: [hot, cool, cool] },
      30,
      4,
      60,
      1200,
    ],
    [
      'no scale: unready pods ignored',
      { currentReplicas: 3, requests: R(3, 1000), levels: [400, 500, 700], readiness: [T, F, F] },
      30,
      3,
      40,
      800,
    ],
    [
      'no scale: hot-CPU pods ignored',
      { currentReplicas: 3, requests: R(3, 1000), levels: [400, 500, 700], readiness: [T, F, F], startTime: [cool, hot, hot] },
      30,
      3,
      40,
      800,
    ],
    [
      'scale up: failed pods ignored',
      {
        currentReplicas: 2,
        requests: R(4, 1000),
        levels: [500, 700],
        readiness: [T, T, F, F],
        phase: ['Running', 'Running', 'Failed', 'Failed'] as PodPhase[],
      },
      30,
      4,
      60,
      1200,
    ],
    [
      'scale up: pods being deleted are ignored',
      { currentReplicas: 2, requests: R(4, 1000), levels: [500, 700], readiness: [T, T, F, F], deleting: [F, F, T, T] },
      30,
      4,
      60,
      1200,
    ],
    ['scale down', { currentReplicas: 5, requests: R(5, 1000), levels: [100, 300, 500, 250, 250] }, 50, 3, 28, 560],
    [
      'scale down: exclude unready pods',
      { currentReplicas: 5, requests: R(5, 1000), levels: [100, 300, 500, 250, 250], readiness: [T, T, T, F, F] },
      50,
      2,
      30,
      600,
    ],
    [
      'scale down: exclude unscheduled pods',
      {
        currentReplicas: 5,
        requests: R(5, 1000),
        levels: [100],
        readiness: [T, F, F, F, F],
        phase: ['Running', 'Pending', 'Pending', 'Pending', 'Pending'] as PodPhase[],
      },
      50,
      1,
      10,
      200,
    ],
    [
      'scale down: ignore hot-CPU pods',
      { currentReplicas: 5, requests: R(5, 1000), levels: [100, 300, 500, 250, 250], startTime: [cool, cool, cool, hot, hot] },
      50,
      2,
      30,
      600,
    ],
    [
      'scale down: failed pods ignored',
      {
        currentReplicas: 5,
        requests: R(7, 1000),
        levels: [100, 300, 500, 250, 250],
        readiness: [T, T, T, T, T, F, F],
        phase: ['Running', 'Running', 'Running', 'Running', 'Running', 'Failed', 'Failed'] as PodPhase[],
      },
      50,
      3,
      28,
      560,
    ],
    [
      'scale down: still-running pods being deleted are ignored (kubernetes#83561)',
      {
        currentReplicas: 5,
        requests: R(7, 1000),
        levels: [100, 300, 500, 250, 250],
        readiness: [T, T, T, T, T, F, F],
        phase: R(7, 0).map(() => 'Running') as PodPhase[],
        deleting: [F, F, F, F, F, T, T],
      },
      50,
      3,
      28,
      560,
    ],
  ] as const)('%s', (_name, fixture, target, replicas, utilization, raw) => {
    expect(ok(calc(fixture, target))).toEqual({ replicas, utilization, raw });
  });
});

describe('missing metrics (replica_calculator_test.go)', () => {
  it.each([
    ['TestReplicaCalcMissingMetrics', { currentReplicas: 4, requests: R(4, 1000), levels: [400, 95] }, 100, 3, 24],
    ['TestReplicaCalcMissingMetricsNoChangeEq', { currentReplicas: 2, requests: R(2, 1000), levels: [1000] }, 100, 2, 100],
    ['TestReplicaCalcMissingMetricsNoChangeGt', { currentReplicas: 2, requests: R(2, 1000), levels: [1900] }, 100, 2, 190],
    ['TestReplicaCalcMissingMetricsNoChangeLt', { currentReplicas: 2, requests: R(2, 1000), levels: [600] }, 100, 2, 60],
    [
      'TestReplicaCalcMissingMetricsUnreadyChange',
      { currentReplicas: 3, requests: R(3, 1000), levels: [100, 450], readiness: [F, T, T] },
      50,
      3,
      45,
    ],
    [
      'TestReplicaCalcMissingMetricsHotCpuNoChange',
      { currentReplicas: 3, requests: R(3, 1000), levels: [100, 450], startTime: [hot, cool, cool] },
      50,
      3,
      45,
    ],
    [
      'TestReplicaCalcMissingMetricsUnreadyScaleUp',
      { currentReplicas: 3, requests: R(3, 1000), levels: [100, 2000], readiness: [F, T, T] },
      50,
      4,
      200,
    ],
    [
      'TestReplicaCalcMissingMetricsHotCpuScaleUp',
      { currentReplicas: 3, requests: R(3, 1000), levels: [100, 2000], readiness: [F, T, T], startTime: [hot, cool, cool] },
      50,
      4,
      200,
    ],
    [
      'TestReplicaCalcMissingMetricsUnreadyScaleDown',
      { currentReplicas: 4, requests: R(4, 1000), levels: [100, 100, 100], readiness: [F, T, T, T] },
      50,
      3,
      10,
    ],
    [
      'TestReplicaCalcDuringRollingUpdateWithMaxSurge',
      { currentReplicas: 2, requests: R(3, 1000), levels: [100, 100], phase: ['Running', 'Running', 'Running'] as PodPhase[] },
      50,
      2,
      10,
    ],
  ] as const)('%s', (_name, fixture, target, replicas, utilization) => {
    expect(ok(calc(fixture, target))).toMatchObject({ replicas, utilization });
  });

  it('TestReplicaCalcMissingMetricsScaleDownTargetOver100: a missing pod counts max(100, target)% of ITS OWN request', () => {
    // requests 1, 1, 2, 2 cores; pod 0 unready, pod 3 has no metric: 3 uses 300 % of its own 2 cores.
    const f: Fixture = { currentReplicas: 4, requests: [1000, 1000, 2000, 2000], levels: [200, 100, 100], readiness: [F, T, T, T] };
    expect(ok(calc(f, 300))).toMatchObject({ replicas: 2, utilization: 6 });
  });
});

describe('tolerance (replica_calculator_test.go, release.ts)', () => {
  it('TestReplicaCalcTolerance: 102 % of a 100 % target is within 10 %', () => {
    expect(ok(calc({ currentReplicas: 3, requests: [900, 1000, 1100], levels: [1010, 1030, 1020] }, 100))).toMatchObject({
      replicas: 3,
      utilization: 102,
    });
  });
  it.each([
    ['Outside of a 0% tolerance', { scaleDown: 0, scaleUp: 0 }, [909, 1010, 1111], 4, 101],
    ['Within a 200% scale-up tolerance', { scaleDown: 0.1, scaleUp: 2 }, [1890, 1910, 1900], 3, 190],
    ['Outside 8% scale-up tolerance (and superfuous scale-down tolerance)', { scaleDown: 2, scaleUp: 0.08 }, [1100, 1080, 1090], 4, 109],
    ['Within a 36% scale-down tolerance', { scaleDown: 0.36, scaleUp: 0.1 }, [660, 640, 650], 3, 65],
    ['Outside a 34% scale-down tolerance', { scaleDown: 0.34, scaleUp: 0.1 }, [660, 640, 650], 2, 65],
  ] as const)('TestReplicaCalcConfigurableTolerance: %s', (_name, tolerances, levels, replicas, utilization) => {
    expect(ok(calc({ currentReplicas: 3, requests: [900, 1000, 1100], levels: [...levels] }, 100, tolerances))).toMatchObject({
      replicas,
      utilization,
    });
  });

  it('a ratio of exactly 1.10: inside the tolerance from 1.33 (usageRatio <= 1.0 + tolerance), outside in 1.32 (|1 − ratio| <= tolerance)', () => {
    const f: Fixture = { currentReplicas: 2, requests: R(2, 1000), levels: [550, 550] }; // 55 % of a 50 % target
    expect(withinTolerance('1.32', DEFAULT, 1.1)).toBe(false); // |1 − 1.1| = 0.10000000000000009
    expect(withinTolerance('1.35', DEFAULT, 1.1)).toBe(true);
    expect(ok(calc(f, 50, DEFAULT, '1.32')).replicas).toBe(3);
    expect(ok(calc(f, 50, DEFAULT, '1.33')).replicas).toBe(2);
    expect(ok(calc(f, 50, DEFAULT, '1.35')).replicas).toBe(2);
    // 0.90 is inside in every release (|1 − 0.9| = 0.09999999999999998).
    expect(ok(calc({ currentReplicas: 2, requests: R(2, 1000), levels: [450, 450] }, 50, DEFAULT, '1.32')).replicas).toBe(2);
  });

  it('tolerancesForHpa: behavior.*.tolerance applies from 1.35 (HPAConfigurableTolerance beta, on); before, the flag', () => {
    const behavior = { scaleUp: { tolerance: 0.05 }, scaleDown: { tolerance: 0.2 } };
    expect(tolerancesForHpa('1.35', 0.1, behavior)).toEqual({ scaleUp: 0.05, scaleDown: 0.2 });
    expect(tolerancesForHpa('1.35', 0.1, { scaleUp: { tolerance: 0.05 } })).toEqual({ scaleUp: 0.05, scaleDown: 0.1 });
    expect(tolerancesForHpa('1.34', 0.1, behavior)).toEqual({ scaleUp: 0.1, scaleDown: 0.1 });
    expect(tolerancesForHpa('1.32', 0.1, behavior)).toEqual({ scaleUp: 0.1, scaleDown: 0.1 });
  });
});

describe('errors (replica_calculator_test.go)', () => {
  it('TestReplicaCalcEmptyMetrics', () => {
    expect(calc({ currentReplicas: 4, requests: R(3, 1000), levels: [] }, 100)).toEqual({
      ok: false,
      error: 'unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    });
  });
  it("TestReplicaCalcEmptyCPURequest: a pod without a request is an error, not another pod's request", () => {
    const r = calc({ currentReplicas: 1, requests: [], levels: [200] }, 100);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^missing request for cpu/);
  });
  it('every metric belongs to an unready pod: did not receive metrics for targeted pods', () => {
    const r = calc({ currentReplicas: 2, requests: R(2, 1000), levels: [500, 500], readiness: [F, F] }, 50);
    expect(r).toEqual({ ok: false, error: 'did not receive metrics for targeted pods (pods might be unready)' });
  });
});

describe('TestGroupPods (replica_calculator_test.go)', () => {
  const pod = (over: Partial<MetricPod>): MetricPod => ({
    name: 'p',
    phase: 'Succeeded',
    deleting: false,
    startTime: null,
    ready: null,
    request: 1,
    metric: { value: 1, timestamp: NOW, windowMs: 60_000 },
    ...over,
  });
  const g = (pods: MetricPod[], resource: 'cpu' | 'memory' = 'cpu') => {
    const r = groupPods(pods, resource, TIMING);
    return { ready: r.readyPodCount, unready: [...r.unready], missing: [...r.missing], ignored: [...r.ignored] };
  };
  const m = (timestamp: number, windowMs: number) => ({ value: 1, timestamp, windowMs });
  it.each([
    ['count in a ready pod - memory (a Succeeded pod with a metric counts)', [pod({ name: 'bentham' })], 'memory', 1, [], [], []],
    ['unready a pod without ready condition - CPU', [pod({ name: 'lucretius', startTime: NOW })], 'cpu', 0, ['lucretius'], [], []],
    [
      'count in a ready pod with fresh metrics during initialization period - CPU',
      [
        pod({
          name: 'bentham',
          startTime: NOW - 60_000,
          ready: { status: true, lastTransitionTime: NOW - 30_000 },
          metric: m(NOW, 30_000),
        }),
      ],
      'cpu',
      1,
      [],
      [],
      [],
    ],
    [
      'unready a ready pod without fresh metrics during initialization period - CPU',
      [
        pod({
          name: 'bentham',
          startTime: NOW - 60_000,
          ready: { status: true, lastTransitionTime: NOW - 30_000 },
          metric: m(NOW, 60_000),
        }),
      ],
      'cpu',
      0,
      ['bentham'],
      [],
      [],
    ],
    [
      'unready an unready pod during initialization period - CPU',
      [pod({ name: 'lucretius', startTime: NOW - 10 * 60_000, ready: { status: false, lastTransitionTime: NOW - 9 * 60_000 - 54_000 } })],
      'cpu',
      0,
      ['lucretius'],
      [],
      [],
    ],
    [
      'count in a ready pod without fresh metrics after initialization period - CPU',
      [
        pod({
          name: 'bentham',
          startTime: NOW - 3 * 60_000,
          ready: { status: true, lastTransitionTime: NOW - 3 * 60_000 },
          metric: m(NOW - 2 * 60_000, 60_000),
        }),
      ],
      'cpu',
      1,
      [],
      [],
      [],
    ],
    [
      'count in an unready pod that was ready after initialization period - CPU',
      [pod({ name: 'lucretius', startTime: NOW - 10 * 60_000, ready: { status: false, lastTransitionTime: NOW - 9 * 60_000 } })],
      'cpu',
      1,
      [],
      [],
      [],
    ],
    // startTime + 10 s equals the transition: not After, so it counts (as upstream expects).
    [
      'unready pod that has never been ready after initialization period - CPU',
      [pod({ name: 'lucretius', startTime: NOW - 10 * 60_000, ready: { status: false, lastTransitionTime: NOW - 9 * 60_000 - 50_000 } })],
      'cpu',
      1,
      [],
      [],
      [],
    ],
    [
      '(loopscope) never ready, went unready within the readiness delay, after initialization period - CPU',
      [pod({ name: 'lucretius', startTime: NOW - 10 * 60_000, ready: { status: false, lastTransitionTime: NOW - 9 * 60_000 - 55_000 } })],
      'cpu',
      0,
      ['lucretius'],
      [],
      [],
    ],
    ['a missing pod', [pod({ name: 'epicurus', startTime: NOW - 3 * 60_000, metric: null })], 'cpu', 0, [], ['epicurus'], []],
    ['pending pods are unreadied', [pod({ name: 'unscheduled', phase: 'Pending', metric: null })], 'cpu', 0, ['unscheduled'], [], []],
    ['ignore pods with deletion timestamps', [pod({ name: 'deleted', phase: 'Pending', deleting: true })], 'cpu', 0, [], [], ['deleted']],
    ['ignore pods in a failed state', [pod({ name: 'failed', phase: 'Failed' })], 'cpu', 0, [], [], ['failed']],
  ] as const)('%s', (_name, pods, resource, ready, unready, missing, ignored) => {
    expect(g([...pods], resource)).toEqual({ ready, unready: [...unready], missing: [...missing], ignored: [...ignored] });
  });
});

describe('recordInitialRecommendation (horizontal.go; TestScaleDownStabilizeInitialSize)', () => {
  it('5 pods at 28 % against 50 %: the seeded window keeps 5 (recommendations nil at first sight)', () => {
    const f: Fixture = { currentReplicas: 5, requests: R(5, 1000), levels: [100, 300, 500, 250, 250] };
    const raw = ok(calc(f, 50)).replicas;
    expect(raw).toBe(3);
    const seeded = recordInitialRecommendation(undefined, 5, NOW);
    expect(stabilizeRecommendation(seeded, NOW, 300_000, raw).replicas).toBe(5);
    // TestScaleDown: with an empty, non-nil list (not seeded) the same sync goes to 3.
    expect(stabilizeRecommendation([], NOW, 300_000, raw).replicas).toBe(3);
    // The seed is only written when there is no entry (nil), not over an empty list.
    expect(recordInitialRecommendation([{ at: 1, replicas: 2 }], 5, NOW)).toEqual([{ at: 1, replicas: 2 }]);
    expect(recordInitialRecommendation([], 5, NOW)).toEqual([]);
  });
});
