import { describe, expect, it } from 'vitest';
import type { KObject } from '../../machines/kubernetes';
import type { HpaMemory, HpaSpec } from '../../machines/kubernetes/hpa/reconciler';
import { hpaReconciler } from '../../machines/kubernetes/hpa/reconciler';

// Cases of kubernetes/kubernetes pkg/controller/podautoscaler/horizontal_test.go, one sync of the
// HPA controller each, with the test's names and expected replicas. The harness there sets
// `hpaController.recommendations["test-namespace/test-hpa"] = tc.recommendations` when the case
// gives a list: `[]timestampedRecommendation{}` is an entry with nothing recorded (not seeded by
// recordInitialRecommendation), `nil` is no entry (seeded with the current count).
// Fixtures as there: one container per pod requesting `requests[i]` millicores and using
// `levels[i]`, Running and Ready; here they started 10 minutes before the sync, past the CPU
// initialisation period, as the harness' pods are.

const NOW = 3_600_000;
const KEY = 'test-namespace/test-hpa';

const meta = (kind: string, name: string, labels: Record<string, string> = {}): KObject['metadata'] => ({
  namespace: 'test-namespace',
  name,
  uid: `${kind}-${name}`,
  resourceVersion: 1,
  generation: 1,
  creationTimestamp: NOW - 600_000,
  labels,
  annotations: {},
  ownerReferences: [],
  finalizers: [],
});

interface Case {
  minReplicas: number;
  maxReplicas: number;
  specReplicas: number;
  CPUTarget: number;
  reportedLevels: number[];
  reportedCPURequests: number[];
  /** undefined: no entry for the HPA (Go's nil); a list: the entry the harness sets. */
  recommendations?: HpaMemory[string]['recommendations'];
}

/** One reconcile of the HPA; the replicas it decides (scaled to, or kept). */
function sync(c: Case): number {
  const spec: HpaSpec = {
    scaleTargetRef: { kind: 'Deployment', name: 'test-rc' },
    minReplicas: c.minReplicas,
    maxReplicas: c.maxReplicas,
    targetCPUUtilization: c.CPUTarget,
  };
  const hpa: KObject = { kind: 'HorizontalPodAutoscaler', metadata: meta('hpa', 'test-hpa'), spec: { ...spec }, status: {} };
  const deployment: KObject = {
    kind: 'Deployment',
    metadata: meta('deployment', 'test-rc'),
    status: {},
    spec: {
      replicas: c.specReplicas,
      selector: { name: 'test-pod' },
      template: { labels: { name: 'test-pod' }, containers: [] },
      strategy: { maxSurge: 1, maxUnavailable: 0 },
    },
  };
  const pods: KObject[] = c.reportedCPURequests.map((request, i) => ({
    kind: 'Pod',
    metadata: meta('pod', `test-pod-${i}`, { name: 'test-pod' }),
    spec: { nodeName: 'node-1', containers: [{ name: 'container', image: 'x', cpuMilli: request }] },
    status: { phase: 'Running', ready: true, readySince: NOW - 600_000, restarts: 0 },
  }));
  const podCpuMilli = Object.fromEntries(c.reportedLevels.map((level, i) => [`test-namespace/test-pod-${i}`, level]));
  const memory: HpaMemory =
    c.recommendations === undefined ? {} : { [KEY]: { recommendations: c.recommendations, upEvents: [], downEvents: [] } };
  const plan = hpaReconciler.reconcile({
    request: KEY,
    view: { objects: [hpa, deployment, ...pods], podCpuMilli, external: {} },
    memory,
    now: NOW,
    options: {},
  });
  const scale = plan.batches.flat().find((w) => w.verb === 'scale');
  return scale && 'replicas' in scale ? scale.replicas : c.specReplicas;
}

const R = (n: number, milli: number) => Array.from({ length: n }, () => milli);

describe('horizontal_test.go: the initial recommendation is recorded only when the HPA has no entry', () => {
  it('TestScaleDown: an entry with no recommendations scales 5 → 3 at once', () => {
    expect(
      sync({
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 5,
        CPUTarget: 50,
        reportedLevels: [100, 300, 500, 250, 250],
        reportedCPURequests: R(5, 1000),
        recommendations: [],
      }),
    ).toBe(3);
  });

  it('TestMissingReports: 4 replicas, one pod reporting 200m of its 200m, an entry with no recommendations → 2', () => {
    expect(
      sync({
        minReplicas: 1,
        maxReplicas: 5,
        specReplicas: 4,
        CPUTarget: 50,
        reportedLevels: [200],
        reportedCPURequests: [200],
        recommendations: [],
      }),
    ).toBe(2);
  });

  it('TestScaleDownStabilizeInitialSize: no entry (nil) is seeded with the current 5, which holds', () => {
    expect(
      sync({
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 5,
        CPUTarget: 50,
        reportedLevels: [100, 300, 500, 250, 250],
        reportedCPURequests: R(5, 1000),
      }),
    ).toBe(5);
  });
});
