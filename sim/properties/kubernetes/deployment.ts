import type { ControllerConfig, DeploymentSpec, KObject, ReplicaSetSpec } from '../../../machines/kubernetes';
import { isPodReady, specOf } from '../../../machines/kubernetes';
import { TEMPLATE_HASH, resolveFenceposts, templateHash } from '../../../machines/kubernetes/reconcilers/deployment';
import { isActive } from '../../../machines/kubernetes/reconcilers/replicaset';
import type { CheckProperty } from '../../check/model';
import type { KubeWorld } from '../../worlds/kubernetes';
import { contextOf, objectsOf, ownedBy, worldAt } from './view';
import type { ControllerContext } from '../../../machines/kubernetes';

/**
 * The Deployment controller's RollingUpdate contract (kubernetes docs, "Deployments": "Deployment
 * ensures that only a certain number of Pods are down while they are being updated … at most 125%
 * of the desired number of Pods are up (25% max surge)"; rolling.go). The ReplicaSet controller
 * runs as a built-in with fresh reads; the Deployment controller is the one under study.
 */

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

const replicaSetsOf = (w: KubeWorld, d: KObject) => ownedBy(w, d, 'ReplicaSet');
const podsOf = (w: KubeWorld, d: KObject) => replicaSetsOf(w, d).flatMap((rs) => ownedBy(w, rs, 'Pod'));

/** At most replicas + maxSurge active pods, at every instant (no move may lower replicas). */
export const maxSurge: Property = {
  name: 'max-surge',
  kind: 'always',
  claim: 'no Deployment ever has more than spec.replicas + maxSurge active pods',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'Deployment').every((d) => {
      const spec = specOf<DeploymentSpec>(d);
      return podsOf(w, d).filter(isActive).length <= spec.replicas + resolveFenceposts(spec).maxSurge;
    });
  },
};

/**
 * The controller's scale-downs keep replicas − maxUnavailable pods ready: whenever a write of the
 * controller scaling a ReplicaSet down is on its way and takes ready pods away, the ready pods each
 * ReplicaSet keeps (at most its new size; the ReplicaSet controller deletes not-ready pods first)
 * still add up to replicas − maxUnavailable. Only claimed when no move takes pods down on its own (crash, delete,
 * node failure): then only the controller's decisions remove ready pods.
 */
export const minAvailable: Property = {
  name: 'min-available',
  kind: 'always',
  claim: 'the controller never scales a ReplicaSet down so far that fewer than spec.replicas − maxUnavailable pods stay ready',
  holds: (v) => {
    const ctx = contextOf(v);
    if (!v.snapshot.matches('writing') || !ctx.plan) return true;
    const batch = ctx.plan.batches[ctx.batchIndex] ?? [];
    const target = new Map<string, number>();
    for (const write of batch)
      if (write.verb === 'update' && write.object.kind === 'ReplicaSet')
        target.set(write.object.metadata.uid, specOf<ReplicaSetSpec>(write.object).replicas);
    if (target.size === 0) return true;
    const w = worldAt(v);
    return objectsOf(w, 'Deployment').every((d) => {
      const spec = specOf<DeploymentSpec>(d);
      const rss = replicaSetsOf(w, d);
      if (!rss.some((rs) => (target.get(rs.metadata.uid) ?? Infinity) < specOf<ReplicaSetSpec>(rs).replicas)) return true;
      const ready = rss.map((rs) => ownedBy(w, rs, 'Pod').filter(isPodReady).length);
      const kept = rss.reduce((n, rs, i) => n + Math.min(ready[i]!, target.get(rs.metadata.uid) ?? specOf<ReplicaSetSpec>(rs).replicas), 0);
      // Removing only pods that are not ready yet is no loss (cleanupUnhealthyReplicas).
      return kept >= spec.replicas - resolveFenceposts(spec).maxUnavailable || kept === ready.reduce((a, b) => a + b, 0);
    });
  },
};

/** Rolled out: the current template's ReplicaSet has spec.replicas ready pods, no other pod is active. */
function deploymentsRolledOut(w: KubeWorld): boolean {
  return objectsOf(w, 'Deployment').every((d) => {
    const spec = specOf<DeploymentSpec>(d);
    const hash = templateHash(spec.template);
    const rss = replicaSetsOf(w, d);
    const current = rss.find((rs) => rs.metadata.labels[TEMPLATE_HASH] === hash);
    if (!current) return false;
    const active = rss.flatMap((rs) => ownedBy(w, rs, 'Pod').filter(isActive));
    return (
      active.length === spec.replicas &&
      active.every((p) => isPodReady(p) && p.metadata.labels[TEMPLATE_HASH] === hash) &&
      rss.every((rs) => rs === current || specOf<ReplicaSetSpec>(rs).replicas === 0)
    );
  });
}

export const rollsOut: Property = {
  name: 'rolls-out',
  kind: 'sometimes',
  claim: 'some run reaches a finished rollout of the current template (the bounds let it work)',
  holds: (v) => deploymentsRolledOut(worldAt(v)),
};

export function deploymentConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every Deployment runs spec.replicas ready pods of its current template, old ReplicaSets at 0, and it stays so`,
    holds: (v) => deploymentsRolledOut(worldAt(v)),
  };
}
