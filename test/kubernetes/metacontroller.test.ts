import { describe, expect, it } from 'vitest';
import { podServiceSync, sidecarSync } from '../../machines/kubernetes/metacontroller/hooks';
import { runnerFor } from '../../sim/loops';
import { activePods, objects } from './helpers';
import type { KObject } from '../../machines/kubernetes';

// Seed 003 (Metacontroller): CompositeController sync hook → desired children, diffed and applied
// by the framework; DecoratorController adds labels/annotations/attachments to matching objects.
const parent: KObject = {
  kind: 'PodService',
  metadata: {
    namespace: 'ns',
    name: 'ps',
    uid: 'u',
    resourceVersion: 1,
    generation: 1,
    creationTimestamp: 0,
    labels: {},
    annotations: {},
    ownerReferences: [],
    finalizers: [],
  },
  spec: { image: 'nginx', port: 80, cpu: 100 },
  status: {},
};

describe('sync hooks are pure functions of what is observed', () => {
  it('PodService → a Pod, a Service selecting it, an Ingress', () => {
    const answer = podServiceSync({ parent, children: {} });
    expect(answer.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(['Pod/ps', 'Service/ps', 'Ingress/ps']);
    expect(answer.children[1]!.spec).toEqual({ selector: { app: 'ps' }, port: 80 });
    expect(answer.status).toMatchObject({ phase: 'Pending' });
    expect(podServiceSync({ parent, children: {} })).toEqual(answer);
  });
  it('the sidecar decorator answers with labels, annotations and one attachment', () => {
    const answer = sidecarSync({ ...parent, kind: 'Pod', metadata: { ...parent.metadata, name: 'w' } });
    expect(answer.attachments.map((a) => a.metadata.name)).toEqual(['w-log-shipper']);
  });
});

describe('CompositeController (scenarios/kubernetes-metacontroller.yaml)', () => {
  it('creates the children, recreates a deleted Pod, applies a spec change by strategy, and lets the GC clean up', () => {
    const { runner } = runnerFor('scenarios/kubernetes-metacontroller.yaml');
    runner.run(30_000);
    const kinds = (k: string) => objects(runner.world, k).map((o) => o.metadata.name);
    expect(kinds('Pod')).toContain('podservice');
    expect(kinds('Service')).toEqual(['podservice']);
    expect(kinds('Ingress')).toEqual(['podservice']);
    expect(objects(runner.world, 'PodService')[0]!.status).toMatchObject({ phase: 'Running', observedGeneration: 1 });
    runner.run(2 * 60_000 + 30_000);
    const pod = activePods(runner.world).find((p) => p.metadata.name === 'podservice');
    expect(pod).toBeDefined();
    expect(pod!.metadata.creationTimestamp).toBeGreaterThan(2 * 60_000);
    runner.run(3 * 60_000 + 30_000);
    const updated = activePods(runner.world).find((p) => p.metadata.name === 'podservice')!;
    expect((updated.spec as { containers: { image: string }[] }).containers[0]!.image).toBe('nginx:1.28');
    expect((objects(runner.world, 'Service')[0]!.spec as { port: number }).port).toBe(8080);
    runner.run(6 * 60_000);
    for (const k of ['PodService', 'Service', 'Ingress']) expect(objects(runner.world, k)).toEqual([]);
    expect(activePods(runner.world).map((p) => p.metadata.name)).toEqual(['worker']);
  });

  it('the decorator (running alongside) marked the sidecar=inject pod and attached its config', () => {
    const { runner } = runnerFor('scenarios/kubernetes-metacontroller.yaml');
    runner.run(90_000);
    const worker = objects(runner.world, 'Pod').find((p) => p.metadata.name === 'worker')!;
    expect(worker.metadata.annotations['sidecar.example.com/log-shipper']).toBe('fluent-bit:3.1');
    expect(objects(runner.world, 'ConfigMap').map((c) => c.metadata.name)).toEqual(['worker-log-shipper']);
  });
});

describe('DecoratorController (scenarios/kubernetes-decorator.yaml)', () => {
  it('decorates exactly the matching pods, follows scale up and down', () => {
    const { runner } = runnerFor('scenarios/kubernetes-decorator.yaml');
    const check = (n: number) => {
      const api = activePods(runner.world).filter((p) => p.metadata.labels.app === 'api');
      expect(api).toHaveLength(n);
      expect(api.every((p) => p.metadata.labels['sidecar.example.com/decorated'] === 'true')).toBe(true);
      const batch = activePods(runner.world).filter((p) => p.metadata.labels.app === 'batch');
      expect(batch.every((p) => p.metadata.labels['sidecar.example.com/decorated'] === undefined)).toBe(true);
      expect(
        objects(runner.world, 'ConfigMap')
          .map((c) => c.metadata.name)
          .sort(),
      ).toEqual(api.map((p) => `${p.metadata.name}-log-shipper`).sort());
    };
    runner.run(50_000);
    check(2);
    runner.run(110_000);
    check(4);
    runner.run(4 * 60_000);
    check(1);
  });
});
