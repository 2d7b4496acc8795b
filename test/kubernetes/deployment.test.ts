import { describe, expect, it } from 'vitest';
import { newRSNewReplicas, resolveFenceposts, scaleDownOld } from '../../machines/kubernetes/reconcilers/deployment';
import type { DeploymentSpec, KObject } from '../../machines/kubernetes';
import { runnerFor } from '../../sim/loops';
import type { KubeSummary } from '../../sim/loops/kubernetes-world-schema';

// kubernetes pkg/controller/deployment/rolling.go and util/deployment_util.go.
const spec = (replicas: number, maxSurge: number | string, maxUnavailable: number | string): DeploymentSpec => ({
  replicas,
  selector: { app: 'x' },
  template: { labels: { app: 'x' }, containers: [] },
  strategy: { maxSurge, maxUnavailable },
});
const rs = (name: string, replicas: number, available: number, created: number): KObject => ({
  kind: 'ReplicaSet',
  metadata: {
    namespace: 'd',
    name,
    uid: name,
    resourceVersion: 1,
    generation: 1,
    creationTimestamp: created,
    labels: {},
    annotations: {},
    ownerReferences: [],
    finalizers: [],
  },
  spec: { replicas },
  status: { replicas, availableReplicas: available },
});

describe('Deployment rolling update: pure parts', () => {
  it('ResolveFenceposts: surge rounds up, unavailable down, never both zero', () => {
    expect(resolveFenceposts(spec(10, '25%', '25%'))).toEqual({ maxSurge: 3, maxUnavailable: 2 });
    expect(resolveFenceposts(spec(3, 0, 0))).toEqual({ maxSurge: 0, maxUnavailable: 1 });
  });

  it('NewRSNewReplicas never exceeds replicas + maxSurge in total', () => {
    expect(newRSNewReplicas(spec(4, 1, 0), [rs('old', 4, 4, 0)], 0)).toBe(1);
    expect(newRSNewReplicas(spec(4, 1, 0), [rs('old', 4, 4, 0), rs('new', 1, 0, 1)], 1)).toBe(1);
    expect(newRSNewReplicas(spec(4, 2, 0), [rs('old', 3, 3, 0), rs('new', 1, 1, 1)], 1)).toBe(3);
  });

  it('old ReplicaSets scale down only as far as maxUnavailable allows, unhealthy pods first', () => {
    const old = rs('old', 4, 4, 0);
    const fresh = rs('new', 1, 0, 1);
    expect(scaleDownOld(spec(4, 1, 0), [old], fresh, 1).size).toBe(0); // new pod not available yet
    const ready = rs('new', 1, 1, 1);
    expect(scaleDownOld(spec(4, 1, 0), [old], ready, 1).get(old)).toBe(3);
    const sick = rs('sick', 3, 1, 0);
    expect(scaleDownOld(spec(4, 1, 1), [sick], rs('new', 2, 2, 1), 2).get(sick)).toBe(1);
  });
});

describe('the kubernetes-deployment scenario', () => {
  it('never runs more than replicas + maxSurge pods nor fewer than replicas - maxUnavailable ready ones, and finishes the rollouts', () => {
    const { runner } = runnerFor('scenarios/kubernetes-deployment.yaml');
    runner.run(8 * 60_000);
    const frames = runner.frames.map((f) => ({ t: f.t, w: f.world as KubeSummary }));
    const desiredAt = (t: number) => (t < 180_000 ? 4 : 6);
    for (const { t, w } of frames) {
      const sumDesired = w.replicasets.reduce((s, r) => s + r.desired, 0);
      if (t > 0) expect(sumDesired).toBeLessThanOrEqual(desiredAt(t) + 1);
      const ready = w.pods.filter((p) => p.ready).length;
      if (t >= 10_000 && t < 180_000) expect(ready).toBeGreaterThanOrEqual(4);
      if (t >= 190_000) expect(ready).toBeGreaterThanOrEqual(6);
    }
    const last = frames.at(-1)!.w;
    expect(last.deployments[0]).toMatchObject({ ready: '6/6', upToDate: 6, available: 6 });
    expect(last.replicasets.filter((r) => r.desired > 0)).toHaveLength(1);
  });
});
