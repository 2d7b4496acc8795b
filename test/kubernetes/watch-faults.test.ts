import { describe, expect, it } from 'vitest';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import { activePods, kubeRunner, replicaSetYaml } from './helpers';

const scenario = (timeline: string) => `
loop: kubernetes
seed: 11
controller: replicaset
cluster:
  nodes: [{ name: n1, cpu: "8" }]
  resync: 2m
objects:${replicaSetYaml(2)}
timeline:
${timeline}`;

describe('watch faults: dropped events, reordering, a controller restart', () => {
  it('dropped Pod events leave expectations unmet (no double creation) until the relist at resync repairs the cache', () => {
    const runner = kubeRunner(scenario(`  - { at: 30s, dropWatch: { kind: Pod, count: 3 } }
  - { at: 31s, scale: { kind: ReplicaSet, name: web, replicas: 5 } }`));
    runner.run(100_000);
    const world = runner.world as KubeWorld;
    expect(world.counters.watchDropped).toBe(3);
    expect(world.counters.podsCreated).toBe(5);
    expect(runner.frames.at(-1)!.note ?? '').not.toMatch(/create/);
    runner.run(125_000);
    // The relist at 2m delivered the missing pods: the cache agrees with the server again.
    expect(Object.values(world.store.objects).filter((o) => o.kind === 'Pod')).toHaveLength(5);
    expect(Object.keys((runner.world as KubeWorld).informer!.cache).filter((k) => k.startsWith('Pod/'))).toHaveLength(5);
    expect((runner.world as KubeWorld).counters.podsCreated).toBe(5);
    expect(runner.frames.some((f) => f.note?.includes('resync'))).toBe(true);
  });

  it('reordered watch events across kinds still converge to exactly spec.replicas', () => {
    const runner = kubeRunner(scenario(`  - { at: 30s, reorderWatch: { count: 20, upTo: 3s } }
  - { at: 31s, scale: { kind: ReplicaSet, name: web, replicas: 6 } }
  - { at: 33s, scale: { kind: ReplicaSet, name: web, replicas: 3 } }`));
    runner.run(90_000);
    expect(activePods(runner.world)).toHaveLength(3);
  });

  it('a restarted controller relists and carries on from the cluster state, creating nothing twice', () => {
    const runner = kubeRunner(scenario(`  - { at: 30s, scale: { kind: ReplicaSet, name: web, replicas: 4 } }
  - { at: 30.03s, restartController: true }`.replace('30.03s', '30030')));
    runner.run(90_000);
    expect(activePods(runner.world)).toHaveLength(4);
    expect((runner.world as KubeWorld).counters.podsCreated).toBe(4);
    expect(runner.frames.some((f) => f.event === 'controller.restart')).toBe(true);
  });
});
