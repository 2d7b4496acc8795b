import type { Plan, Reconciler } from '../reconciler';
import type { ReconcileSummary, RolloutStep } from '../reconcile-summary';
import { enqueueForAndOwner } from '../reconciler';
import type { DeploymentSpec, DeploymentStatus, KObject, PodTemplate, ReplicaSetSpec, ReplicaSetStatus, Write } from '../types';
import { controllerOf, ownerRef, specOf, splitKey, statusOf } from '../types';

/**
 * The Deployment controller's RollingUpdate (kubernetes pkg/controller/deployment/rolling.go
 * rolloutRolling → reconcileNewReplicaSet, reconcileOldReplicaSets with cleanupUnhealthyReplicas
 * and scaleDownOldReplicaSetsForRollingUpdate; util/deployment_util.go NewRSNewReplicas,
 * ResolveFenceposts; sync.go calculateStatus). The new ReplicaSet is the one whose
 * pod-template-hash label matches the template's hash.
 * Simplifications: no proportional scaling of several active ReplicaSets during a rollout (sync.go
 * scale), no revision history cleanup, no Recreate strategy, no progress deadline.
 */

export const TEMPLATE_HASH = 'pod-template-hash';

/** Hashes kept by template: objects are never changed in place, and every reconcile and check asks again. */
const templateHashes = new WeakMap<PodTemplate, string>();

/** A stable short hash of the pod template (upstream: fnv32a of the template, safe-encoded). */
export function templateHash(t: PodTemplate): string {
  let hash = templateHashes.get(t);
  if (hash === undefined) {
    hash = fnvHash(JSON.stringify(t));
    templateHashes.set(t, hash);
  }
  return hash;
}

function fnvHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < 10; i++) {
    out += alphabet[h % alphabet.length];
    h = Math.floor(h / alphabet.length) || (h ^ 0x5bd1e995) >>> 0;
  }
  return out;
}

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const pct = Number(v.replace('%', ''));
  const x = (pct * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** ResolveFenceposts: surge rounds up, unavailable rounds down; both 0 → unavailable 1. */
export function resolveFenceposts(spec: DeploymentSpec): { maxSurge: number; maxUnavailable: number } {
  const maxSurge = scaled(spec.strategy.maxSurge, spec.replicas, true);
  let maxUnavailable = scaled(spec.strategy.maxUnavailable, spec.replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

const replicasOf = (rs: KObject) => specOf<ReplicaSetSpec>(rs).replicas;
const availableOf = (rs: KObject) => statusOf<Partial<ReplicaSetStatus>>(rs).availableReplicas ?? 0;
const sum = (list: KObject[], f: (rs: KObject) => number) => list.reduce((s, rs) => s + f(rs), 0);

/** NewRSNewReplicas for RollingUpdate. */
export function newRSNewReplicas(d: DeploymentSpec, allRSs: KObject[], newRSReplicas: number): number {
  const { maxSurge } = resolveFenceposts(d);
  const current = sum(allRSs, replicasOf);
  const maxTotal = d.replicas + maxSurge;
  if (current >= maxTotal) return newRSReplicas;
  const scaleUp = Math.min(maxTotal - current, d.replicas - newRSReplicas);
  return newRSReplicas + scaleUp;
}

const scaleRS = (rs: KObject, replicas: number): Write => ({ verb: 'update', object: { ...rs, spec: { ...rs.spec, replicas } } });

/** reconcileOldReplicaSets: how far each old ReplicaSet may be scaled down now. */
export function scaleDownOld(d: DeploymentSpec, oldRSs: KObject[], newRS: KObject | null, newReplicas: number): Map<KObject, number> {
  const out = new Map<KObject, number>();
  const oldPods = sum(oldRSs, replicasOf);
  if (oldPods === 0) return out;
  const all = oldPods + newReplicas;
  const { maxUnavailable } = resolveFenceposts(d);
  const minAvailable = d.replicas - maxUnavailable;
  const newUnavailable = newReplicas - (newRS ? availableOf(newRS) : 0);
  const maxScaledDown = all - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return out;
  const oldest = [...oldRSs].sort(
    (a, b) => a.metadata.creationTimestamp - b.metadata.creationTimestamp || (a.metadata.name < b.metadata.name ? -1 : 1),
  );
  // cleanupUnhealthyReplicas: unavailable pods of old sets go first, they serve nobody.
  let cleaned = 0;
  for (const rs of oldest) {
    if (cleaned >= maxScaledDown) break;
    const unhealthy = replicasOf(rs) - availableOf(rs);
    if (replicasOf(rs) === 0 || unhealthy <= 0) continue;
    const n = Math.min(maxScaledDown - cleaned, unhealthy);
    out.set(rs, replicasOf(rs) - n);
    cleaned += n;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: then available ones, keeping minAvailable.
  const available = sum(oldRSs, availableOf) + (newRS ? availableOf(newRS) : 0);
  if (available <= minAvailable) return out;
  const total = Math.min(available - minAvailable, maxScaledDown - cleaned);
  let done = 0;
  for (const rs of oldest) {
    if (done >= total) break;
    const current = out.get(rs) ?? replicasOf(rs);
    if (current === 0) continue;
    const n = Math.min(current, total - done);
    out.set(rs, current - n);
    done += n;
  }
  return out;
}

function deploymentStatus(d: KObject, newRS: KObject | null, all: KObject[]): DeploymentStatus {
  const st = (rs: KObject) => statusOf<Partial<ReplicaSetStatus>>(rs);
  const available = sum(all, (rs) => st(rs).availableReplicas ?? 0);
  return {
    replicas: sum(all, (rs) => st(rs).replicas ?? 0),
    updatedReplicas: newRS ? (st(newRS).replicas ?? 0) : 0,
    readyReplicas: sum(all, (rs) => st(rs).readyReplicas ?? 0),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specOf<DeploymentSpec>(d).replicas - available),
    observedGeneration: d.metadata.generation,
  };
}

export const deploymentReconciler: Reconciler<null> = {
  name: 'deployment',
  forKind: 'Deployment',
  watches: ['ReplicaSet'],
  initialMemory: () => null,
  mapEvent: (event, memory) => ({ requests: enqueueForAndOwner('Deployment', event), memory }),

  reconcile({ request, view }): Plan<null> {
    const { namespace, name } = splitKey(request);
    const d = view.objects.find((o) => o.kind === 'Deployment' && o.metadata.namespace === namespace && o.metadata.name === name);
    if (!d) return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: { kind: 'deploymentGone', request } };
    const spec = specOf<DeploymentSpec>(d);
    const owned = view.objects.filter((o) => o.kind === 'ReplicaSet' && controllerOf(o)?.uid === d.metadata.uid);
    const hash = templateHash(spec.template);
    const newRS = owned.find((rs) => rs.metadata.labels[TEMPLATE_HASH] === hash) ?? null;
    const oldRSs = owned.filter((rs) => rs !== newRS);
    const writes: Write[] = [];
    const steps: RolloutStep[] = [];
    let newReplicas = newRS ? replicasOf(newRS) : 0;

    if (d.metadata.deletionTimestamp === undefined) {
      if (!newRS) {
        newReplicas = newRSNewReplicas(spec, owned, 0);
        const template = { labels: { ...spec.template.labels, [TEMPLATE_HASH]: hash }, containers: spec.template.containers };
        writes.push({
          verb: 'create',
          object: {
            kind: 'ReplicaSet',
            metadata: {
              namespace,
              name: `${name}-${hash}`,
              labels: { ...spec.template.labels, [TEMPLATE_HASH]: hash },
              ownerReferences: [ownerRef(d)],
            },
            spec: { replicas: newReplicas, selector: { ...spec.selector, [TEMPLATE_HASH]: hash }, template } satisfies ReplicaSetSpec,
            status: {},
          },
        });
        steps.push({ kind: 'createReplicaSet', name: `${name}-${hash}`, replicas: newReplicas });
      } else if (newReplicas !== spec.replicas) {
        const target = newReplicas > spec.replicas ? spec.replicas : newRSNewReplicas(spec, owned, newReplicas);
        if (target !== newReplicas) {
          writes.push(scaleRS(newRS, target));
          steps.push({ kind: 'scaleNew', name: newRS.metadata.name, from: newReplicas, to: target });
          newReplicas = target;
        }
      }
      // rolloutRolling returns after a scale-up; old sets wait for the next sync.
      if (!writes.length) {
        for (const [rs, to] of scaleDownOld(spec, oldRSs, newRS, newReplicas)) {
          if (to === replicasOf(rs)) continue;
          writes.push(scaleRS(rs, to));
          steps.push({ kind: 'scaleOld', name: rs.metadata.name, from: replicasOf(rs), to });
        }
      }
    }
    const status = deploymentStatus(d, newRS, owned);
    const old = d.status as Partial<DeploymentStatus>; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
    const batches: Write[][] = writes.length ? [writes] : [];
    if (
      JSON.stringify(status) !==
      JSON.stringify({
        replicas: old.replicas,
        updatedReplicas: old.updatedReplicas,
        readyReplicas: old.readyReplicas,
        availableReplicas: old.availableReplicas,
        unavailableReplicas: old.unavailableReplicas,
        observedGeneration: old.observedGeneration,
      })
    ) {
      batches.push([{ verb: 'updateStatus', object: { ...d, status: { ...status } }, retryOnConflict: true }]);
    }
    const { maxSurge, maxUnavailable } = resolveFenceposts(spec);
    const summary: ReconcileSummary = {
      kind: 'deploymentRollout',
      available: status.availableReplicas,
      desired: spec.replicas,
      updated: status.updatedReplicas,
      maxSurge,
      maxUnavailable,
      steps,
    };
    return { batches, outcome: { kind: 'ok' }, memory: null, summary };
  },
};
