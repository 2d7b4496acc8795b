import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_PARAMS, applyWrite, createKubeWorld, kubeWorldModel, settle, storeKey } from '../../sim/worlds/kubernetes';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import type { KObject, NewObject } from '../../machines/kubernetes';

const cm = (name: string, extra: Partial<NewObject['metadata']> = {}): NewObject => ({
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name, ...extra },
  spec: { data: 'x' },
});

function world(): KubeWorld {
  let w = createKubeWorld(1, DEFAULT_KUBE_PARAMS, []);
  w = applyWrite(
    w,
    {
      verb: 'create',
      object: { kind: 'Node', metadata: { namespace: '', name: 'n1' }, spec: { cpuMilli: 1000, maxPods: 110 }, status: { ready: true } },
    },
    0,
  ).world;
  return w;
}
const get = (w: KubeWorld, kind: string, name: string, ns = 'default') => w.store.objects[storeKey(kind, ns, name)];

describe('API server store (resourceVersion, generation, optimistic concurrency)', () => {
  it('every write bumps resourceVersion; only spec changes bump generation; a stale write conflicts', () => {
    let w = applyWrite(world(), { verb: 'create', object: cm('a') }, 0).world;
    const a = get(w, 'ConfigMap', 'a')!;
    expect(a.metadata.generation).toBe(1);
    w = applyWrite(w, { verb: 'updateStatus', object: { ...a, status: { seen: true } } }, 1).world;
    const b = get(w, 'ConfigMap', 'a')!;
    expect(b.metadata.resourceVersion).toBeGreaterThan(a.metadata.resourceVersion);
    expect(b.metadata.generation).toBe(1);
    const stale = applyWrite(w, { verb: 'update', object: { ...a, spec: { data: 'y' } } }, 2);
    expect(stale.error).toMatch(/^Conflict/);
    w = applyWrite(w, { verb: 'update', object: { ...b, spec: { data: 'y' } } }, 2).world;
    expect(get(w, 'ConfigMap', 'a')!.metadata.generation).toBe(2);
    expect(get(w, 'ConfigMap', 'a')!.status).toEqual({ seen: true });
  });

  it('generateName gets a random suffix from the seeded generator', () => {
    const name = (seed: number) => {
      const w = createKubeWorld(seed, DEFAULT_KUBE_PARAMS, []);
      return applyWrite(w, { verb: 'create', object: { ...cm(''), metadata: { namespace: 'default', generateName: 'web-' } } }, 0).object!
        .metadata.name;
    };
    expect(name(1)).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(name(1)).toBe(name(1));
    expect(name(1)).not.toBe(name(2));
  });
});

describe('finalizers and deletionTimestamp; garbage collection by ownerReferences', () => {
  it('DELETE of an object with a finalizer only marks it; removing the finalizer lets it go, and its dependents follow', () => {
    let w = applyWrite(world(), { verb: 'create', object: cm('owner', { finalizers: ['example.com/cleanup'] }) }, 0).world;
    const owner = get(w, 'ConfigMap', 'owner')!;
    w = applyWrite(
      w,
      {
        verb: 'create',
        object: cm('child', { ownerReferences: [{ kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid, controller: true }] }),
      },
      0,
    ).world;
    w = applyWrite(w, { verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'owner' }, 10).world;
    const marked = get(w, 'ConfigMap', 'owner')!;
    expect(marked.metadata.deletionTimestamp).toBe(10);
    expect(get(w, 'ConfigMap', 'child')).toBeDefined();
    // A second DELETE changes nothing.
    w = applyWrite(w, { verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'owner' }, 20).world;
    expect(get(w, 'ConfigMap', 'owner')!.metadata.deletionTimestamp).toBe(10);
    const latest = get(w, 'ConfigMap', 'owner') as KObject;
    w = applyWrite(w, { verb: 'update', object: { ...latest, metadata: { ...latest.metadata, finalizers: [] } } }, 30).world;
    expect(get(w, 'ConfigMap', 'owner')).toBeUndefined();
    expect(get(w, 'ConfigMap', 'child')).toBeUndefined();
  });

  it('a pod on a node is deleted gracefully: Terminating, then gone after the grace period', () => {
    let w = applyWrite(
      world(),
      {
        verb: 'create',
        object: {
          kind: 'Pod',
          metadata: { namespace: 'default', name: 'p' },
          spec: { containers: [{ name: 'c', image: 'i', cpuMilli: 100 }] },
          status: { phase: 'Pending', ready: false, restarts: 0 },
        },
      },
      0,
    ).world;
    w = settle(w, 10_000);
    expect((get(w, 'Pod', 'p')!.spec as { nodeName?: string }).nodeName).toBe('n1');
    expect(get(w, 'Pod', 'p')!.status).toMatchObject({ phase: 'Running', ready: true });
    w = applyWrite(w, { verb: 'delete', kind: 'Pod', namespace: 'default', name: 'p' }, 10_000).world;
    expect(get(w, 'Pod', 'p')!.metadata.deletionTimestamp).toBe(10_000);
    w = settle(w, 10_000 + DEFAULT_KUBE_PARAMS.terminationGraceMs);
    expect(get(w, 'Pod', 'p')).toBeUndefined();
  });

  it('the scheduler leaves a pod Pending when no node has room, with a FailedScheduling event', () => {
    let w = applyWrite(
      world(),
      {
        verb: 'create',
        object: {
          kind: 'Pod',
          metadata: { namespace: 'default', name: 'big' },
          spec: { containers: [{ name: 'c', image: 'i', cpuMilli: 5000 }] },
          status: { phase: 'Pending', ready: false, restarts: 0 },
        },
      },
      0,
    ).world;
    w = settle(w, 5000);
    expect((get(w, 'Pod', 'big')!.spec as { nodeName?: string }).nodeName).toBeUndefined();
    expect(kubeWorldModel.summary(w, 5000)).toMatchObject({ events: [expect.objectContaining({ reason: 'FailedScheduling' })] });
  });
});
