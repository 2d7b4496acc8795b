import { describe, expect, it } from 'vitest';
import type { PodPhase } from '../../machines/hpa-algorithm';
import { groupPods } from '../../machines/hpa-algorithm';
import type { DeploymentSpec, KObject, ObjectMeta } from '../../machines/kubernetes';
import { specOf } from '../../machines/kubernetes';
import { metricPods } from '../../machines/kubernetes/hpa/reconciler';
import { kubeRunner, objects } from './helpers';

// The HPA controller's sync on the simulated plane, against horizontal.go reconcileAutoscaler and
// its tests (horizontal_test.go): recordInitialRecommendation (TestScaleDownStabilizeInitialSize),
// a restart losing the in-memory recommendations, and a failing metric
// (TestConditionFailedGetMetrics: AbleToScale SucceededGetScale, ScalingActive False FailedGetResourceMetric).

const scenario = (over: { load: string; replicas: number; ready?: string; timeline?: string; options?: string }) => `
loop: kubernetes
name: hpa-sync
seed: 1
duration: 20m
controller: hpa
builtins: [deployment, replicaset]
${over.options ?? ''}
cluster:
  nodes: [{ name: node-1, cpu: "8" }]
  ${over.ready ? `latency: { ready: ${over.ready} }` : ''}
load: { web: ${over.load} }
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: { name: web }
    spec:
      replicas: ${over.replicas}
      selector: { matchLabels: { app: web } }
      template:
        metadata: { labels: { app: web } }
        spec: { containers: [{ name: app, image: example/web:1.0, resources: { requests: { cpu: 500m } } }] }
  - apiVersion: autoscaling/v2
    kind: HorizontalPodAutoscaler
    metadata: { name: web }
    spec:
      scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }
      minReplicas: 1
      maxReplicas: 6
      metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 50 } } }]
${over.timeline ?? ''}`;

/** The Deployment's replicas after each frame, with the frame's time. */
function replicas(yaml: string, until: number) {
  const runner = kubeRunner(yaml);
  const series: { t: number; replicas: number }[] = [];
  while (runner.nextEventAt !== undefined && runner.nextEventAt <= until) {
    runner.processNext();
    series.push({ t: runner.t, replicas: specOf<DeploymentSpec>(objects(runner.world, 'Deployment')[0]!).replicas });
  }
  return { series, runner };
}
const firstBelow = (series: { t: number; replicas: number }[], n: number) => series.find((s) => s.replicas < n)?.t;

describe('recordInitialRecommendation (horizontal.go)', () => {
  it('5 pods at 10 % of a 50 % target: no scale-down during the first 300 s window after the HPA is first seen', () => {
    // 5 × 500m requested, 250m of load → 10 % + 10m each → ratio 0.2 → 1 pod; the seeded 5 holds it.
    const { series } = replicas(scenario({ load: '200m', replicas: 5 }), 10 * 60_000);
    const down = firstBelow(series, 5)!;
    expect(down).toBeGreaterThan(300_000); // the first sync is at 15 s; the seed was recorded then
    expect(down).toBeLessThan(330_000);
  });

  it('restartController: the recommendations are lost and re-seeded with the current count, so the window starts again', () => {
    // The controller restarts at 4 min, before the seeded window ends: the count holds until ~4 min + 300 s.
    const { series } = replicas(
      scenario({ load: '200m', replicas: 5, timeline: 'timeline:\n  - { at: 4m, restartController: true }' }),
      15 * 60_000,
    );
    const down = firstBelow(series, 5)!;
    expect(down).toBeGreaterThan(4 * 60_000 + 300_000);
    expect(down).toBeLessThan(4 * 60_000 + 330_000);
  });
});

describe('a metric failure: ScalingActive=False, reason FailedGetResourceMetric (horizontal.go computeReplicasForMetrics)', () => {
  it('every pod is still starting (Running, not Ready, inside the CPU initialisation period): the status says so and the count is kept', () => {
    const { runner } = replicas(scenario({ load: '200m', replicas: 2, ready: '10m' }), 20_000);
    const hpa = objects(runner.world, 'HorizontalPodAutoscaler')[0]!;
    const status = hpa.status as {
      desiredReplicas: number;
      currentReplicas: number;
      conditions: { type: string; status: string; reason: string; message?: string }[];
    };
    expect(status.conditions).toEqual([
      { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale' },
      {
        type: 'ScalingActive',
        status: 'False',
        reason: 'FailedGetResourceMetric',
        message:
          'the HPA was unable to compute the replica count: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      },
    ]);
    expect(status.currentReplicas).toBe(2);
    expect(specOf<DeploymentSpec>(objects(runner.world, 'Deployment')[0]!).replicas).toBe(2);
  });
});

describe('kubernetesRelease (options): the tolerance test at exactly 1.10', () => {
  // 2 pods × 500m, 530m of load + 10m each → 55 % of a 50 % target: ratio 1.10.
  const at = (release: string) =>
    replicas(scenario({ load: '530m', replicas: 2, options: `options: { kubernetesRelease: "${release}" }` }), 3 * 60_000).series.at(-1)!
      .replicas;
  it('1.35 (default) and 1.33 keep 2; 1.32 scales to 3', () => {
    expect(at('1.35')).toBe(2);
    expect(at('1.33')).toBe(2);
    expect(at('1.32')).toBe(3);
  });
});

describe('groupPods on the plane (metricPods → groupPods): only Failed and deleting pods are ignored', () => {
  const pod = (name: string, phase: PodPhase, over: Partial<ObjectMeta> = {}): KObject => ({
    kind: 'Pod',
    spec: { containers: [{ name: 'app', image: 'x', cpuMilli: 500 }] },
    status: { phase, ready: false, restarts: 0 },
    metadata: {
      namespace: 'default',
      name,
      uid: name,
      resourceVersion: 1,
      generation: 1,
      creationTimestamp: 0,
      labels: {},
      annotations: {},
      ownerReferences: [],
      finalizers: [],
      ...over,
    },
  });
  it('a Succeeded pod with a metric counts; a Failed one and a deleting one do not (TestGroupPods)', () => {
    const pods = [pod('done', 'Succeeded'), pod('failed', 'Failed'), pod('going', 'Running', { deletionTimestamp: 5 })];
    const metrics = { 'default/done': 100, 'default/failed': 100, 'default/going': 100 };
    const g = groupPods(metricPods(pods, metrics, 600_000), 'memory', {
      now: 600_000,
      cpuInitializationPeriodMs: 300_000,
      delayOfInitialReadinessStatusMs: 30_000,
    });
    expect(g.readyPodCount).toBe(1);
    expect([...g.ignored].sort()).toEqual(['failed', 'going']);
  });
});
