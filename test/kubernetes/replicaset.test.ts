import { describe, expect, it } from 'vitest';
import { BURST_REPLICAS, getPodsToDelete, replicaSetReconciler, slowStartBatches } from '../../machines/kubernetes/reconcilers/replicaset';
import type { KObject } from '../../machines/kubernetes';
import { activePods, kubeRunner, replicaSetYaml } from './helpers';
import type { KubeWorld } from '../../sim/worlds/kubernetes';

// kubernetes pkg/controller/replicaset/replica_set.go (manageReplicas, slowStartBatch, burstReplicas)
// and pkg/controller/controller_utils.go (ActivePodsWithRanks, ControllerExpectations).
describe('ReplicaSet controller: pure parts', () => {
  it('slowStartBatch sizes double from 1', () => {
    expect(slowStartBatches(1)).toEqual([1]);
    expect(slowStartBatches(10)).toEqual([1, 2, 4, 3]);
    expect(slowStartBatches(0)).toEqual([]);
  });

  it('creates at most burstReplicas (500) per sync', () => {
    const rs: KObject = {
      kind: 'ReplicaSet',
      metadata: {
        namespace: 'd',
        name: 'big',
        uid: 'u1',
        resourceVersion: 1,
        generation: 1,
        creationTimestamp: 0,
        labels: {},
        annotations: {},
        ownerReferences: [],
        finalizers: [],
      },
      spec: { replicas: 800, selector: { app: 'x' }, template: { labels: { app: 'x' }, containers: [] } },
      status: {},
    };
    const plan = replicaSetReconciler.reconcile({
      request: 'd/big',
      view: { objects: [rs], podCpuMilli: {}, external: {} },
      memory: { expectations: {} },
      now: 0,
      options: {},
    });
    const creates = plan.batches.flat().filter((w) => w.verb === 'create').length;
    expect(creates).toBe(BURST_REPLICAS);
    expect(plan.memory.expectations['d/big']!.add).toBe(BURST_REPLICAS);
  });

  it('getPodsToDelete: unscheduled < scheduled, pending < running, not ready < ready, then newest first', () => {
    const pod = (name: string, nodeName: string | undefined, phase: string, ready: boolean, created: number): KObject => ({
      kind: 'Pod',
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
      spec: { ...(nodeName ? { nodeName } : {}), containers: [] },
      status: { phase, ready, restarts: 0, ...(ready ? { readySince: 0 } : {}) },
    });
    const pods = [
      pod('ready-old', 'n1', 'Running', true, 0),
      pod('ready-new', 'n2', 'Running', true, 50),
      pod('notready', 'n3', 'Running', false, 0),
      pod('pending', 'n4', 'Pending', false, 0),
      pod('unscheduled', undefined, 'Pending', false, 0),
    ];
    expect(getPodsToDelete(pods, 5).map((p) => p.metadata.name)).toEqual(['unscheduled', 'pending', 'notready', 'ready-new', 'ready-old']);
  });
});

const scenario = (expectations: boolean) => `
loop: kubernetes
seed: 4
controller: replicaset
options: { expectations: ${expectations} }
cluster:
  nodes: [{ name: n1, cpu: "8" }]
objects:${replicaSetYaml(2)}
timeline:
  - { at: 30s, delayWatch: { kind: Pod, by: 20s, for: 30s } }
  - { at: 31s, scale: { kind: ReplicaSet, name: web, replicas: 6 } }
`;

describe('expectations prevent double creation when the Pod watch is late', () => {
  it('with expectations: exactly the missing pods are created, even though the RS is reconciled again before the cache shows them', () => {
    const runner = kubeRunner(scenario(true));
    runner.run(30_000);
    expect(activePods(runner.world)).toHaveLength(2);
    runner.run(45_000);
    // Meanwhile the controller reconciled (its own status write) and saw only 2 pods in its cache.
    const waited = runner.frames.some((f) => f.note?.includes('expectations unmet'));
    expect(waited).toBe(true);
    runner.run(120_000);
    expect(activePods(runner.world)).toHaveLength(6);
    expect((runner.world as KubeWorld).counters.podsCreated).toBe(6);
  });

  it('without expectations (the check switched off) the stale cache makes it create the same pods twice', () => {
    const runner = kubeRunner(scenario(false));
    runner.run(45_000);
    expect((runner.world as KubeWorld).counters.podsCreated).toBeGreaterThan(6);
    runner.run(180_000);
    // It then notices the surplus and deletes it: the double creation was real work wasted.
    expect(activePods(runner.world)).toHaveLength(6);
  });
});

describe('ReplicaSet as the loop in the simulated cluster', () => {
  it('converges to spec.replicas; failed writes back off 5 ms, 10 ms…; a crashed pod is not replaced, a failed node’s pods are', () => {
    const runner = kubeRunner(`
loop: kubernetes
controller: replicaset
cluster:
  nodes: [{ name: n1, cpu: "2" }, { name: n2, cpu: "2" }]
  latency: { podEviction: 30s }
objects:${replicaSetYaml(4)}
timeline:
  - { at: 20s, failWrites: 2 }
  - { at: 21s, scale: { kind: ReplicaSet, name: web, replicas: 6 } }
  - { at: 60s, crashPod: { app: web } }
  - { at: 90s, nodeFail: n1 }
`);
    runner.run(19_000);
    expect(activePods(runner.world)).toHaveLength(4);
    runner.run(59_000);
    const backoffs = runner.frames.map((f) => /backoff (\d+)ms/.exec(f.note ?? '')?.[1]).filter(Boolean);
    expect(backoffs.slice(0, 2)).toEqual(['5', '10']);
    expect(activePods(runner.world)).toHaveLength(6);
    runner.run(65_000);
    expect((runner.world as KubeWorld).counters.podsCreated).toBe(6);
    runner.run(240_000);
    const pods = activePods(runner.world);
    expect(pods).toHaveLength(6);
    expect(pods.every((p) => (p.spec as { nodeName?: string }).nodeName === 'n2')).toBe(true);
  });
});
