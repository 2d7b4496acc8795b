import type { ControllerConfig, KObject } from '../../../machines/kubernetes';
import { isPodReady, matches, specOf } from '../../../machines/kubernetes';
import type { ApplicationSpec } from '../../../machines/kubernetes/reconcilers/application';
import { APPLICATION_FINALIZER } from '../../../machines/kubernetes/reconcilers/application';
import type { DatabaseSpec, DatabaseStatus } from '../../../machines/kubernetes/reconcilers/database';
import type { QueueScalerSpec } from '../../../machines/kubernetes/reconcilers/queue-scaler';
import { isActive } from '../../../machines/kubernetes/reconcilers/replicaset';
import type { CheckProperty } from '../../check/model';
import type { KubeWorld } from '../../worlds/kubernetes';
import { store as st } from '../../worlds/kubernetes';
import { objectsOf, ownedBy, worldAt } from './view';
import type { ControllerContext } from '../../../machines/kubernetes';

/**
 * The seed operators' claims: the Application operator's finalizer (seed 001,
 * eminetto/k8s-operator-talk), the Database operator's failover (seed 002, "The Operator
 * Pattern") and the talk's queue-length scaler (seed 000).
 */

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

// ---- Application (seed 001) ------------------------------------------------------------------

const appChildren = (w: KubeWorld, app: KObject) => {
  const name = app.metadata.name;
  return {
    deployment: w.store.objects[st.storeKey('Deployment', name, `${name}-deployment`)],
    service: w.store.objects[st.storeKey('Service', name, `${name}-service`)],
  };
};

/**
 * A finalizer exists so that the operator cleans up before the object goes: when an Application
 * leaves the store, nothing of it may be left for the garbage collector. The world's monitor
 * counts the dependents the GC had to delete because their Application went
 * (sim/worlds/kubernetes removeObject); history the state keeps, so the explorer can check it.
 */
export const cleanupBeforeFinalizer: Property = {
  name: 'cleanup-before-finalizer',
  kind: 'always',
  claim:
    "the operator deletes an Application's Deployment and Service before it removes its finalizer (nothing is left for the garbage collector)",
  holds: (v) => (worldAt(v).collected.Application ?? 0) === 0,
};

/** Every live Application has its Deployment (replicas, image) and Service; a deleted one has gone with them. */
function applicationsConverged(w: KubeWorld): boolean {
  return objectsOf(w, 'Application').every((app) => {
    if (app.metadata.deletionTimestamp !== undefined) return false;
    const { deployment, service } = appChildren(w, app);
    const s = specOf<ApplicationSpec>(app);
    const d = deployment?.spec as { replicas?: number; template?: { containers: { image: string }[] } } | undefined; // cast: unchecked: the spec fields the model's Deployments carry
    return (
      app.metadata.finalizers.includes(APPLICATION_FINALIZER) &&
      service !== undefined &&
      d?.replicas === s.replicas &&
      d.template?.containers[0]?.image === s.image
    );
  });
}

export function applicationConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every Application has its finalizer, its Deployment (replicas, image) and Service, or is gone; and it stays so`,
    holds: (v) => applicationsConverged(worldAt(v)),
  };
}

export const deletesApplication: Property = {
  name: 'deletes-application',
  kind: 'sometimes',
  claim: 'some run deletes an Application all the way (its finalizer is removed, it leaves the store)',
  holds: (v) => objectsOf(worldAt(v), 'Application').length === 0,
};

// ---- Database (seed 002) -----------------------------------------------------------------------

const livePods = (w: KubeWorld, db: KObject) => ownedBy(w, db, 'Pod').filter((p) => p.metadata.deletionTimestamp === undefined);

/** Split brain is the failure a database failover must never cause. */
export const onePrimary: Property = {
  name: 'one-primary',
  kind: 'always',
  claim: 'no Database ever has two pods labelled role=primary that are not being deleted (no split brain)',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'Database').every((db) => livePods(w, db).filter((p) => p.metadata.labels.role === 'primary').length <= 1);
  },
};

function databasesReady(w: KubeWorld): boolean {
  return objectsOf(w, 'Database').every((db) => {
    const status = db.status as DatabaseStatus; // cast: unchecked: the status the database operator writes
    const pods = livePods(w, db);
    const primary = pods.filter((p) => p.metadata.labels.role === 'primary');
    const replicas = pods.filter((p) => p.metadata.labels.role === 'replica');
    return (
      (status.phase === 'Ready' || status.phase === 'Degraded') &&
      primary.length === 1 &&
      isPodReady(primary[0]!) &&
      status.primary === primary[0]!.metadata.name &&
      replicas.length === specOf<DatabaseSpec>(db).replicas &&
      replicas.every(isPodReady)
    );
  });
}

export function databaseConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every Database has one ready primary (the one its status names) and spec.replicas ready replicas, and it stays so`,
    holds: (v) => databasesReady(worldAt(v)),
  };
}

export const failsOver: Property = {
  name: 'fails-over',
  kind: 'sometimes',
  claim: 'some run promotes a replica (the failover path is reached)',
  holds: (v) => objectsOf(worldAt(v), 'Database').some((db) => ((db.status as DatabaseStatus).failovers ?? 0) > 0), // cast: unchecked: the status the database operator writes
};

// ---- QueueScaler (seed 000, the talk's example operator) ------------------------------------

const scalerTarget = (w: KubeWorld, qs: KObject) => {
  const ref = specOf<QueueScalerSpec>(qs).scaleTargetRef;
  return w.store.objects[st.storeKey(ref.kind, qs.metadata.namespace, ref.name)];
};

export const workersWithinBounds: Property = {
  name: 'within-bounds',
  kind: 'always',
  claim: "every QueueScaler keeps its Deployment's spec.replicas within [minReplicas, maxReplicas]",
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'QueueScaler').every((qs) => {
      const target = scalerTarget(w, qs);
      const { minReplicas, maxReplicas } = specOf<QueueScalerSpec>(qs);
      const replicas = (target?.spec as { replicas?: number } | undefined)?.replicas ?? minReplicas; // cast: unchecked: the spec field a scaler's target carries
      return replicas >= minReplicas && replicas <= maxReplicas;
    });
  },
};

/** Drained and scaled back: the queue is empty and the workers are back at minReplicas, ready. */
function queuesDrained(w: KubeWorld): boolean {
  return objectsOf(w, 'QueueScaler').every((qs) => {
    const spec = specOf<QueueScalerSpec>(qs);
    const queue = w.queues.find((q) => q.name === spec.queue);
    const target = scalerTarget(w, qs);
    if (!queue || !target) return false;
    const workers = objectsOf(w, 'Pod').filter(
      (p) =>
        p.metadata.namespace === qs.metadata.namespace &&
        matches((target.spec as { selector: Record<string, string> }).selector, p.metadata.labels) && // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
        isActive(p),
    ); // cast: unchecked: the spec field a scaler's target carries
    return (
      queue.length === 0 &&
      (target.spec as { replicas: number }).replicas === spec.minReplicas && // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
      workers.length === spec.minReplicas &&
      workers.every(isPodReady)
    ); // cast: unchecked: the spec field a scaler's target carries
  });
}

export function queueScalerConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every queue is drained and its workers are back at minReplicas, ready, and it stays so`,
    holds: (v) => queuesDrained(worldAt(v)),
  };
}

export const scalesWorkersUp: Property = {
  name: 'scales-up',
  kind: 'sometimes',
  claim: 'some run gives a queue more workers than minReplicas (the backlog is worth scaling for)',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'QueueScaler').some(
      (qs) => ((scalerTarget(w, qs)?.spec as { replicas?: number } | undefined)?.replicas ?? 0) > specOf<QueueScalerSpec>(qs).minReplicas, // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
    ); // cast: unchecked: the spec field a scaler's target carries
  },
};
