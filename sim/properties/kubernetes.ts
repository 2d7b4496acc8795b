import type { ControllerContext, KObject, PodStatus, ReplicaSetSpec } from '../../machines/kubernetes';
import { controllerOf, isPodReady, specOf, statusOf } from '../../machines/kubernetes';
import type { Expectations } from '../../machines/kubernetes/expectations';
import { isActive } from '../../machines/kubernetes/reconcilers/replicaset';
import type { KubeWorld } from '../worlds/kubernetes';
import { store as st } from '../worlds/kubernetes';

/** A broken invariant: when, and what went wrong. */
export interface Violation { t: number; property: string; message: string }

const replicaSet = (world: KubeWorld, namespace: string, name: string): KObject | undefined =>
  Object.values(world.store.objects).find((o) => o.kind === 'ReplicaSet' && o.metadata.namespace === namespace && o.metadata.name === name);

/** Pods whose controlling owner is the ReplicaSet (by uid, as the garbage collector sees ownership). */
export const ownedPods = (world: KubeWorld, rs: KObject): KObject[] =>
  Object.values(world.store.objects).filter((o) => o.kind === 'Pod' && controllerOf(o)?.uid === rs.metadata.uid);

/**
 * The controller has nothing left to do: every watch event has reached the handlers (no delivery
 * scheduled, none pending), the workqueue is empty (nothing queued, processing or waiting for a
 * requeue) and no write of its own is in flight.
 */
export function controllerQuiescent(world: KubeWorld, ctx: ControllerContext): boolean {
  const q = ctx.queue;
  return ctx.synced && ctx.current === null && q.queue.length === 0 && q.processing.length === 0 && q.waiting.length === 0
    && (world.informer?.pending.length ?? 0) === 0 && !world.agenda.some((a) => a.kind === 'deliver')
    && !world.ops.some((op) => op.kind === 'write');
}

/** Every expected ADDED/DELETED has been observed (SatisfiedExpectations' Fulfilled, not its timeout). */
const fulfilled = (exp: Expectations, key: string) => {
  const e = exp[key];
  return !e || (e.add <= 0 && e.del <= 0);
};

/**
 * Safety, "no more pods than replicas once expectations settle": when the controller is quiescent
 * and its expectations were fulfilled by what it observed (controller_utils.go
 * ControlleeExpectations.Fulfilled), the active pods it owns (FilterActivePods: not terminating,
 * not Succeeded/Failed) are at most spec.replicas — provided its cache holds the current ReplicaSet. Expectations satisfied only by
 * ExpectationsTimeout do not count: the timeout is passive (nothing re-enqueues the ReplicaSet when
 * it passes), so upstream too may hold surplus pods until the next event or resync.
 */
export function noMorePodsThanReplicas(world: KubeWorld, ctx: ControllerContext, now: number, namespace: string, name: string): Violation | null {
  const rs = replicaSet(world, namespace, name);
  if (!rs) return null;
  const expectations = (ctx.memory as { expectations?: Expectations } | undefined)?.expectations ?? {};
  if (!fulfilled(expectations, `${namespace}/${name}`) || !controllerQuiescent(world, ctx)) return null;
  // It must also have seen the current spec: a dropped ReplicaSet event hides a scale-down until the relist.
  const cached = world.informer?.cache[st.storeKeyOf(rs)];
  if (cached?.metadata.resourceVersion !== rs.metadata.resourceVersion) return null;
  const active = ownedPods(world, rs).filter(isActive);
  const replicas = specOf<ReplicaSetSpec>(rs).replicas;
  if (active.length <= replicas) return null;
  return { t: now, property: 'noMorePodsThanReplicas', message: `${active.length} active pods (${active.map((p) => p.metadata.name).join(', ')}) > spec.replicas ${replicas}, controller quiescent with expectations fulfilled` };
}

/** Convergence: the ReplicaSet has exactly spec.replicas active, ready pods. */
export function convergedReplicaSet(world: KubeWorld, now: number, namespace: string, name: string): Violation | null {
  const rs = replicaSet(world, namespace, name);
  if (!rs) return { t: now, property: 'converged', message: `ReplicaSet ${namespace}/${name} is gone` };
  const active = ownedPods(world, rs).filter(isActive);
  const ready = active.filter(isPodReady);
  const replicas = specOf<ReplicaSetSpec>(rs).replicas;
  if (active.length === replicas && ready.length === replicas) return null;
  const notReady = active.filter((p) => !isPodReady(p)).map((p) => `${p.metadata.name}(${statusOf<PodStatus>(p).phase}, node ${String((p.spec as { nodeName?: string }).nodeName)})`);
  return { t: now, property: 'converged', message: `spec.replicas ${replicas}, active ${active.length}, ready ${ready.length}${notReady.length ? `; not ready: ${notReady.join(', ')}` : ''}` };
}
