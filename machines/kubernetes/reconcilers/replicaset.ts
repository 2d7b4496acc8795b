import type { Expectations } from '../expectations';
import { creationObserved, deleteExpectations, deletionObserved, expect, satisfied } from '../expectations';
import type { Plan, Reconciler } from '../reconciler';
import type { ReconcileSummary } from '../reconcile-summary';
import type { KObject, NewObject, PodSpec, PodStatus, ReplicaSetSpec, ReplicaSetStatus, Write } from '../types';
import { controllerOf, isPodReady, keyOf, ownerRef, specOf, splitKey, statusOf } from '../types';

/**
 * The ReplicaSet controller (kubernetes pkg/controller/replicaset/replica_set.go):
 * syncReplicaSet → manageReplicas only when expectations are satisfied; creations in
 * slowStartBatch (1, 2, 4 …, controller.SlowStartInitialBatchSize = 1), at most burstReplicas
 * (500) per sync; deletions ranked by getPodsToDelete; then the status update.
 * Simplifications: no adoption/orphaning of pods (only pods whose controllerRef is this RS);
 * the status update is issued after a successful manage (upstream also after a failed one);
 * on a Conflict it is retried once against the latest object (replica_set_utils.go updateReplicaSetStatus).
 */

export const BURST_REPLICAS = 500;
const SLOW_START_INITIAL_BATCH = 1;

export interface ReplicaSetMemory {
  expectations: Expectations;
}

/** FilterActivePods: not Succeeded/Failed and not being deleted. */
export const isActive = (p: KObject) => {
  const phase = statusOf<PodStatus>(p).phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && p.metadata.deletionTimestamp === undefined;
};

const podsOwnedBy = (owner: KObject, objects: KObject[]) =>
  objects.filter((o) => o.kind === 'Pod' && controllerOf(o)?.uid === owner.metadata.uid);

/** slowStartBatch's batch sizes for `count` calls: 1, 2, 4 … until the count is reached. */
export function slowStartBatches(count: number, initial = SLOW_START_INITIAL_BATCH): number[] {
  const sizes: number[] = [];
  let remaining = count;
  for (let size = Math.min(remaining, initial); size > 0; size = Math.min(2 * size, remaining)) {
    sizes.push(size);
    remaining -= size;
  }
  return sizes;
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * controller.ActivePodsWithRanks.Less (pkg/controller/controller_utils.go), the order in which
 * pods are deleted: unassigned < assigned; Pending < Unknown < Running; not ready < ready;
 * lower pod-deletion-cost < higher; more pods of this set on the same node first (doubled up);
 * ready for a shorter time first; more restarts first; newer first.
 */
export function getPodsToDelete(active: KObject[], count: number): KObject[] {
  const onNode = new Map<string, number>();
  for (const p of active) {
    const node = specOf<PodSpec>(p).nodeName;
    if (node) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const rank = (p: KObject) => {
    const n = specOf<PodSpec>(p).nodeName;
    return n ? (onNode.get(n) ?? 0) : 0;
  };
  const cost = (p: KObject) => Number(p.metadata.annotations[DELETION_COST] ?? 0);
  const sorted = [...active].sort((a, b) => {
    const sa = specOf<PodSpec>(a);
    const sb = specOf<PodSpec>(b);
    const ta = statusOf<PodStatus>(a);
    const tb = statusOf<PodStatus>(b);
    if (!sa.nodeName !== !sb.nodeName) return sa.nodeName ? 1 : -1;
    if (PHASE_RANK[ta.phase] !== PHASE_RANK[tb.phase]) return (PHASE_RANK[ta.phase] ?? 1) - (PHASE_RANK[tb.phase] ?? 1);
    if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1;
    if (cost(a) !== cost(b)) return cost(a) - cost(b);
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (isPodReady(a) && isPodReady(b) && ta.readySince !== tb.readySince) return (tb.readySince ?? 0) - (ta.readySince ?? 0);
    if (ta.restarts !== tb.restarts) return tb.restarts - ta.restarts;
    if (a.metadata.creationTimestamp !== b.metadata.creationTimestamp) return b.metadata.creationTimestamp - a.metadata.creationTimestamp;
    return a.metadata.name < b.metadata.name ? -1 : 1;
  });
  return sorted.slice(0, count);
}

/** The pod a ReplicaSet creates from its template (controller.GetPodFromTemplate). */
function podFromTemplate(rs: KObject): NewObject {
  const spec = specOf<ReplicaSetSpec>(rs);
  return {
    kind: 'Pod',
    metadata: {
      namespace: rs.metadata.namespace,
      generateName: `${rs.metadata.name}-`,
      labels: { ...spec.template.labels },
      ownerReferences: [ownerRef(rs)],
    },
    spec: { containers: spec.template.containers.map((c) => ({ ...c })) },
    status: { phase: 'Pending', ready: false, restarts: 0 },
  };
}

/** calculateStatus (replica_set_utils.go). */
function replicaSetStatus(rs: KObject, active: KObject[], now: number): ReplicaSetStatus {
  const minReady = (specOf<ReplicaSetSpec>(rs).minReadySeconds ?? 0) * 1000;
  const ready = active.filter(isPodReady);
  const available = ready.filter((p) => now - (statusOf<PodStatus>(p).readySince ?? now) >= minReady);
  return {
    replicas: active.length,
    readyReplicas: ready.length,
    availableReplicas: available.length,
    observedGeneration: rs.metadata.generation,
  };
}

const sameStatus = (a: ReplicaSetStatus, b: Partial<ReplicaSetStatus>) =>
  a.replicas === b.replicas &&
  a.readyReplicas === b.readyReplicas &&
  a.availableReplicas === b.availableReplicas &&
  a.observedGeneration === b.observedGeneration;

export const replicaSetReconciler: Reconciler<ReplicaSetMemory> = {
  name: 'replicaset',
  forKind: 'ReplicaSet',
  watches: ['Pod'],
  initialMemory: () => ({ expectations: {} }),

  /** addPod / updatePod / deletePod: lower expectations, enqueue the owning ReplicaSet. */
  mapEvent(event, memory) {
    const o = event.object;
    if (o.kind === 'ReplicaSet') {
      if (event.type === 'DELETED')
        return { requests: [keyOf(o)], memory: { expectations: deleteExpectations(memory.expectations, keyOf(o)) } };
      return { requests: [keyOf(o)], memory };
    }
    const owner = controllerOf(o);
    const oldOwner = event.old ? controllerOf(event.old) : undefined;
    const keys = new Set<string>();
    let expectations = memory.expectations;
    if (owner?.kind === 'ReplicaSet') {
      const rsKey = `${o.metadata.namespace}/${owner.name}`;
      keys.add(rsKey);
      if (event.type === 'ADDED')
        expectations =
          o.metadata.deletionTimestamp !== undefined
            ? deletionObserved(expectations, rsKey, keyOf(o))
            : creationObserved(expectations, rsKey);
      if (event.type === 'DELETED') expectations = deletionObserved(expectations, rsKey, keyOf(o));
      // updatePod: a pod that just got a deletionTimestamp counts as deleted (graceful deletion).
      if (event.type === 'MODIFIED' && o.metadata.deletionTimestamp !== undefined && event.old?.metadata.deletionTimestamp === undefined) {
        expectations = deletionObserved(expectations, rsKey, keyOf(o));
      }
    }
    if (oldOwner?.kind === 'ReplicaSet') keys.add(`${o.metadata.namespace}/${oldOwner.name}`);
    return { requests: [...keys], memory: { expectations } };
  },

  /** options.expectations: false switches the expectations check off (to show what it prevents). */
  reconcile({ request, view, memory, now, options }): Plan<ReplicaSetMemory> {
    const { namespace, name } = splitKey(request);
    const rs = view.objects.find((o) => o.kind === 'ReplicaSet' && o.metadata.namespace === namespace && o.metadata.name === name);
    if (!rs) {
      return {
        batches: [],
        outcome: { kind: 'ok' },
        memory: { expectations: deleteExpectations(memory.expectations, request) },
        summary: { kind: 'replicaSetGone', request },
      };
    }
    const spec = specOf<ReplicaSetSpec>(rs);
    const active = podsOwnedBy(rs, view.objects).filter(isActive);
    const useExpectations = options.expectations !== false;
    const needsSync = (!useExpectations || satisfied(memory.expectations, request, now)) && rs.metadata.deletionTimestamp === undefined;
    const batches: Write[][] = [];
    let expectations = memory.expectations;
    let summary: ReconcileSummary;
    const diff = active.length - spec.replicas;
    if (!needsSync) {
      const e = memory.expectations[request]!;
      summary = { kind: 'replicaSetWaiting', active: active.length, desired: spec.replicas, add: e.add, del: e.del };
    } else if (diff < 0) {
      const n = Math.min(-diff, BURST_REPLICAS);
      expectations = expect(expectations, request, n, [], now);
      for (const size of slowStartBatches(n))
        batches.push(Array.from({ length: size }, () => ({ verb: 'create' as const, object: podFromTemplate(rs) })));
      summary = { kind: 'replicaSetCreate', active: active.length, desired: spec.replicas, count: n, batches: slowStartBatches(n) };
    } else if (diff > 0) {
      const victims = getPodsToDelete(active, Math.min(diff, BURST_REPLICAS));
      expectations = expect(expectations, request, 0, victims.map(keyOf), now);
      batches.push(victims.map((p) => ({ verb: 'delete' as const, kind: 'Pod', namespace, name: p.metadata.name })));
      summary = { kind: 'replicaSetDelete', active: active.length, desired: spec.replicas, pods: victims.map((p) => p.metadata.name) };
    } else {
      summary = { kind: 'replicaSetInSync', active: active.length, desired: spec.replicas };
    }
    const status = replicaSetStatus(rs, active, now);
    const written = rs.status as Partial<ReplicaSetStatus>; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
    if (!sameStatus(status, written)) {
      batches.push([{ verb: 'updateStatus', object: { ...rs, status: { ...status } }, retryOnConflict: true }]);
    }
    return { batches, outcome: { kind: 'ok' }, memory: { expectations }, summary };
  },

  /** manageReplicas after slowStartBatch: creations that failed or were skipped will never be
   * observed, so lower the expectations for them; same for failed deletions. */
  afterWrites(memory, request, done, skipped) {
    let expectations = memory.expectations;
    const failedCreates =
      done.filter((d) => d.error !== undefined && d.write.verb === 'create').length + skipped.filter((w) => w.verb === 'create').length;
    for (let i = 0; i < failedCreates; i++) expectations = creationObserved(expectations, request);
    for (const d of done) {
      if (d.error !== undefined && d.write.verb === 'delete')
        expectations = deletionObserved(expectations, request, `${d.write.namespace}/${d.write.name}`);
    }
    return { expectations };
  },
};
