import type { MetricPod } from '../../hpa-algorithm';
import { calculateReplicas, convertDesiredReplicasWithRules, stabilizeRecommendation } from '../../hpa-algorithm';
import type { HpaConfig, ObservedInstance } from '../../incus-hpa';
import { DEFAULT_CONFIG, seedPolicy } from '../../incus-hpa';
import type { Plan, Reconciler } from '../reconciler';
import type { DeploymentSpec, KObject, PodSpec, PodStatus } from '../types';
import { matches, specOf, splitKey, statusOf } from '../types';
import type { BehaviorSpec, ScaleEvent, TimestampedRecommendation } from './behavior';
import { convertWithBehaviorRate, recordScaleEvent, stabilizeWithBehaviors, withDefaults } from './behavior';

/**
 * The HorizontalPodAutoscaler controller on the simulated plane (kubernetes
 * pkg/controller/podautoscaler/horizontal.go reconcileAutoscaler): every 15 s (the controller's
 * --horizontal-pod-autoscaler-sync-period; its queue re-adds each HPA after that period) it reads
 * the target's /scale and its pods' CPU from metrics.k8s.io, computes the replica count with the
 * foundation's kubernetes policy functions (replica_calculator.go), normalises it — without
 * `behavior`: downscale stabilisation + convertDesiredReplicasWithRules; with it: stabilisation
 * windows and Pods/Percent policies — and writes /scale and the status with its conditions.
 * options.policy = 'seed' swaps in the talk's seed rule (one pod up/down per period) for comparison.
 */

export interface HpaSpec {
  scaleTargetRef: { kind: 'Deployment'; name: string };
  minReplicas: number;
  maxReplicas: number;
  targetCPUUtilization: number;
  behavior?: BehaviorSpec;
}

export interface HpaMemoryEntry { recommendations: TimestampedRecommendation[]; upEvents: ScaleEvent[]; downEvents: ScaleEvent[] }
export type HpaMemory = Record<string, HpaMemoryEntry>;

export const HPA_SYNC_PERIOD_MS = 15_000;
const TOLERANCE = 0.1;
const DOWNSCALE_WINDOW_MS = 300_000;

/** groupPods for a CPU metric (replica_calculator.go): ready pods with a metric report usage over
 * their own request; Pending or not-ready pods are unready; deleted, Failed or Succeeded pods are ignored. */
export function metricPods(pods: KObject[], podCpuMilli: Record<string, number>): MetricPod[] {
  return pods.map((p) => {
    const st = statusOf<PodStatus>(p);
    const request = specOf<PodSpec>(p).containers.reduce((s, c) => s + c.cpuMilli, 0);
    const gone = p.metadata.deletionTimestamp !== undefined || st.phase === 'Failed' || st.phase === 'Succeeded';
    const usage = podCpuMilli[`${p.metadata.namespace}/${p.metadata.name}`];
    return { name: p.metadata.name, state: gone ? 'ignored' : st.ready ? 'ready' : 'pending', usage: usage ?? null, request };
  });
}

/** The seed rule reads Incus-shaped instances: the same pods, as the talk's lab would list them. */
function seedInstances(pods: readonly MetricPod[], created: ReadonlyMap<string, number>): ObservedInstance[] {
  return pods.map((p) => ({
    name: p.name, status: p.state === 'ignored' ? 'Stopped' : p.state === 'ready' ? 'Running' : 'Starting', owner: 'hpa',
    memoryUsage: p.usage ?? 0, memoryTotal: p.state === 'ready' && p.usage === null ? 0 : (p.request ?? 0), createdAt: created.get(p.name) ?? 0,
  }));
}

interface Condition { type: string; status: 'True' | 'False'; reason: string }

export const hpaReconciler: Reconciler<HpaMemory> = {
  name: 'hpa',
  forKind: 'HorizontalPodAutoscaler',
  watches: ['Deployment', 'Pod'],
  initialMemory: () => ({}),
  // Only the HPA's own events enqueue it, and always after the sync period (enqueueHPA:
  // queue.AddRateLimited with a fixed-interval limiter); the requeue after each sync does the rest.
  mapEvent: (event, memory) => {
    if (event.object.kind !== 'HorizontalPodAutoscaler') return { requests: [], memory };
    const key = `${event.object.metadata.namespace}/${event.object.metadata.name}`;
    if (event.type === 'DELETED') { const next = { ...memory }; delete next[key]; return { requests: [], memory: next }; }
    return { requests: [key], memory, addAfterMs: HPA_SYNC_PERIOD_MS };
  },

  reconcile({ request, view, memory, now, options }): Plan<HpaMemory> {
    const { namespace, name } = splitKey(request);
    const period = typeof options.syncPeriodMs === 'number' ? options.syncPeriodMs : HPA_SYNC_PERIOD_MS;
    const hpa = view.objects.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.namespace === namespace && o.metadata.name === name);
    if (!hpa) return { batches: [], outcome: { kind: 'ok' }, memory, summary: `${request} is gone` };
    const spec = specOf<HpaSpec>(hpa);
    const target = view.objects.find((o) => o.kind === 'Deployment' && o.metadata.namespace === namespace && o.metadata.name === spec.scaleTargetRef.name);
    if (!target) {
      const status = { summary: `target deployment/${spec.scaleTargetRef.name} not found`, conditions: [{ type: 'AbleToScale', status: 'False', reason: 'FailedGetScale' }] };
      return { batches: [[{ verb: 'updateStatus', object: { ...hpa, status }, retryOnConflict: true }]], outcome: { kind: 'error', message: `deployment ${spec.scaleTargetRef.name} not found` }, memory, summary: status.summary };
    }
    const dspec = specOf<DeploymentSpec>(target);
    const current = dspec.replicas;
    const pods = view.objects.filter((o) => o.kind === 'Pod' && o.metadata.namespace === namespace && matches(dspec.selector, o.metadata.labels));
    const observed = metricPods(pods, view.podCpuMilli);
    const entry: HpaMemoryEntry = memory[request] ?? { recommendations: [], upEvents: [], downEvents: [] };
    const conditions: Condition[] = [{ type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound' }];
    let desired: number;
    let next = entry;
    let how: string;
    let utilization: number | null = null;

    if (current === 0 && spec.minReplicas !== 0) {
      desired = 0;
      conditions[0] = { type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled' };
      how = 'scaling is disabled since the replica count of the target is zero';
    } else if (current > spec.maxReplicas) {
      desired = spec.maxReplicas; how = `current ${current} > max ${spec.maxReplicas}`;
    } else if (current < spec.minReplicas) {
      desired = spec.minReplicas; how = `current ${current} < min ${spec.minReplicas}`;
    } else if (options.policy === 'seed') {
      const config: HpaConfig = { ...DEFAULT_CONFIG, minPods: spec.minReplicas, maxPods: spec.maxReplicas, memoryThreshold: spec.targetCPUUtilization, namePrefix: '' };
      const created = new Map(pods.map((p) => [p.metadata.name, p.metadata.creationTimestamp]));
      const d = seedPolicy({ observation: { at: now, instances: seedInstances(observed, created) }, config, memory: { recommendations: [] } });
      utilization = d.averagePercent;
      desired = Math.min(spec.maxReplicas, Math.max(spec.minReplicas, current + (d.desired - d.running)));
      how = `seed rule: ${d.comparison} → ${d.desired > d.running ? 'one more pod' : d.desired < d.running ? 'one pod fewer' : 'no scale action'}`;
    } else {
      const calc = calculateReplicas(observed, current, spec.targetCPUUtilization, TOLERANCE);
      utilization = calc.utilization;
      if (!spec.behavior) {
        const stab = stabilizeRecommendation(entry.recommendations, now, DOWNSCALE_WINDOW_MS, calc.replicas);
        const rule = convertDesiredReplicasWithRules(current, stab.replicas, spec.minReplicas, spec.maxReplicas);
        desired = rule.replicas;
        next = { ...entry, recommendations: stab.recommendations };
        conditions.push({ type: 'AbleToScale', status: 'True', reason: stab.replicas !== calc.replicas ? 'ScaleDownStabilized' : 'ReadyForNewScale' });
        conditions.push({ type: 'ScalingLimited', status: rule.condition === 'DesiredWithinRange' ? 'False' : 'True', reason: rule.condition });
        how = `${calc.note} → ${calc.replicas}${stab.replicas !== calc.replicas ? `, stabilised to ${stab.replicas}` : ''} (${rule.condition})`;
      } else {
        const behavior = withDefaults(spec.behavior);
        const stab = stabilizeWithBehaviors(entry.recommendations, now, current, calc.replicas, behavior);
        const rate = convertWithBehaviorRate({ current, desired: stab.replicas, min: spec.minReplicas, max: spec.maxReplicas, upEvents: entry.upEvents, downEvents: entry.downEvents, behavior, now });
        desired = rate.replicas;
        next = { ...entry, recommendations: stab.recommendations };
        conditions.push({ type: 'AbleToScale', status: 'True', reason: stab.reason });
        conditions.push({ type: 'ScalingLimited', status: rate.replicas === stab.replicas ? 'False' : 'True', reason: rate.reason });
        how = `${calc.note} → ${calc.replicas}, ${stab.reason} ${stab.replicas}, ${rate.reason} ${rate.replicas}`;
      }
    }
    const rescale = desired !== current;
    if (rescale && spec.behavior) next = { ...next, ...recordScaleEvent(next.upEvents, next.downEvents, withDefaults(spec.behavior), current, desired, now) };
    const util = utilization === null ? 'cpu <unknown>' : `cpu ${utilization}%/${spec.targetCPUUtilization}%`;
    const status = {
      currentReplicas: current, desiredReplicas: desired, currentCPUUtilizationPercentage: utilization,
      ...(rescale ? { lastScaleTime: now } : (hpa.status.lastScaleTime !== undefined ? { lastScaleTime: hpa.status.lastScaleTime } : {})),
      conditions, summary: `${util}, replicas ${current}${rescale ? ` → ${desired}` : ''}`,
    };
    const batches = [
      ...(rescale ? [[{ verb: 'scale' as const, kind: 'Deployment', namespace, name: target.metadata.name, replicas: desired }]] : []),
      [{ verb: 'updateStatus' as const, object: { ...hpa, status }, retryOnConflict: true }],
    ];
    return { batches, outcome: { kind: 'ok', requeueAfterMs: period }, memory: { ...memory, [request]: next }, summary: `${util}: ${how}${rescale ? ` → scale ${current} → ${desired}` : ' → keep'}` };
  },
};
