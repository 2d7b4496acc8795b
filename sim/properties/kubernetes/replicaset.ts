import type { ControllerConfig, KObject, ReplicaSetSpec } from '../../../machines/kubernetes';
import { isPodReady, specOf } from '../../../machines/kubernetes';
import type { Expectations } from '../../../machines/kubernetes/expectations';
import { satisfied } from '../../../machines/kubernetes/expectations';
import { isActive } from '../../../machines/kubernetes/reconcilers/replicaset';
import type { CheckProperty } from '../../check/model';
import type { KubeWorld } from '../../worlds/kubernetes';
import { store as st } from '../../worlds/kubernetes';
import type { KubeView } from './view';
import { contextOf, controllerQuiescent, objectsOf, ownedBy, worldAt } from './view';
import type { ControllerContext } from '../../../machines/kubernetes';

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

const replicasOf = (rs: KObject) => specOf<ReplicaSetSpec>(rs).replicas;
const activePods = (world: KubeWorld, rs: KObject) => ownedBy(world, rs, 'Pod').filter(isActive);

/** Every expected ADDED/DELETED has been observed (SatisfiedExpectations' Fulfilled, not its timeout). */
function fulfilled(exp: Expectations, key: string): boolean {
  const e = exp[key];
  return !e || (e.add <= 0 && e.del <= 0);
}

const expectationsOf = (v: KubeView): Expectations =>
  (contextOf(v).memory as { expectations?: Expectations } | undefined)?.expectations ?? {}; // cast: unchecked: the replicaset reconciler's memory

/** Never more active pods than spec.replicas: only claimed when no move can lower spec.replicas
 * (then a surplus can only come from the controller creating past its target). */
export const noExtraPods: Property = {
  name: 'no-extra-pods',
  kind: 'always',
  claim: 'no ReplicaSet ever has more active pods than spec.replicas (the controller never creates past its target)',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'ReplicaSet').every((rs) => activePods(w, rs).length <= replicasOf(rs));
  },
};

/**
 * No surplus at rest: when the controller is quiescent, its expectations were fulfilled by what it
 * observed (controller_utils.go ControlleeExpectations.Fulfilled) and its cache holds the current
 * ReplicaSet, the active pods it owns (FilterActivePods) are at most spec.replicas. Expectations
 * satisfied only by ExpectationsTimeout do not count: the timeout is passive (nothing re-enqueues
 * the ReplicaSet when it passes), so upstream too may hold surplus pods until the next event.
 */
export const noSurplusAtRest: Property = {
  name: 'no-surplus-at-rest',
  kind: 'always',
  claim:
    'once the controller is idle with fulfilled expectations and a fresh ReplicaSet in its cache, no ReplicaSet has more active pods than spec.replicas',
  holds: (v) => {
    const w = worldAt(v);
    const ctx = contextOf(v);
    if (!controllerQuiescent(w, ctx)) return true;
    const exp = expectationsOf(v);
    return objectsOf(w, 'ReplicaSet').every((rs) => {
      const key = `${rs.metadata.namespace}/${rs.metadata.name}`;
      // A dropped ReplicaSet event hides a scale-down until the relist: it must have seen the current spec.
      const cached = w.informer?.cache[st.storeKeyOf(rs)];
      if (!fulfilled(exp, key) || cached?.metadata.resourceVersion !== rs.metadata.resourceVersion) return true;
      return activePods(w, rs).length <= replicasOf(rs);
    });
  },
};

/** Every ReplicaSet has exactly spec.replicas active pods, all ready. */
function replicaSetsConverged(world: KubeWorld): boolean {
  return objectsOf(world, 'ReplicaSet').every((rs) => {
    const active = activePods(world, rs);
    return active.length === replicasOf(rs) && active.every(isPodReady);
  });
}

export const reachesReplicas: Property = {
  name: 'reaches-replicas',
  kind: 'sometimes',
  claim: 'some run reaches spec.replicas ready pods for every ReplicaSet (the bounds let it work)',
  holds: (v) => replicaSetsConverged(worldAt(v)),
};

/** The expectations at work: a reconcile that acts on nothing because its own writes are not yet seen. */
export const waitsForExpectations: Property = {
  name: 'waits-for-expectations',
  kind: 'sometimes',
  claim: 'some run has a reconcile hold back because the watch has not yet shown the controller its own creations/deletions',
  holds: (v) => {
    const ctx = contextOf(v);
    if (!v.snapshot.matches('deciding') || !ctx.current || !ctx.plan) return false;
    const acts = ctx.plan.batches.some((b) => b.some((w) => w.verb === 'create' || w.verb === 'delete'));
    return !acts && !satisfied(expectationsOf(v), ctx.current, v.t);
  },
};

export function replicaSetConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every ReplicaSet has exactly spec.replicas active pods, all ready, and it stays so`,
    holds: (v) => replicaSetsConverged(worldAt(v)),
  };
}
