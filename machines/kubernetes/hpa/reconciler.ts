import type { KubernetesRelease, MetricPod } from '../../hpa-algorithm';
import {
  DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
  DEFAULT_INITIAL_READINESS_DELAY_MS,
  DEFAULT_KUBERNETES_RELEASE,
  DEFAULT_TOLERANCE,
  calculateReplicas,
  convertDesiredReplicasWithRules,
  recordInitialRecommendation,
  stabilizeRecommendation,
  tolerancesForHpa,
} from '../../hpa-algorithm';
import type { HpaConfig, ObservedInstance } from '../../incus-hpa';
import { DEFAULT_CONFIG, seedPolicy } from '../../incus-hpa';
import type { Plan, Reconciler } from '../reconciler';
import type { DeploymentSpec, KObject, PodSpec, PodStatus } from '../types';
import { matches, specOf, splitKey, statusOf } from '../types';
import type { BehaviorSpec, ScaleEvent, TimestampedRecommendation } from './behavior';
import { convertWithBehaviorRate, recordScaleEvent, stabilizeWithBehaviors, withDefaults } from './behavior';

/**
 * The HorizontalPodAutoscaler controller on the simulated plane, as in Kubernetes 1.35
 * (pkg/controller/podautoscaler/horizontal.go reconcileAutoscaler; options.kubernetesRelease picks
 * 1.32–1.34 where the tolerance test differs): every 15 s (--horizontal-pod-autoscaler-sync-period;
 * its queue re-adds each HPA after that period) it reads the target's /scale, records the initial
 * recommendation (the current count, on first sight and after every controller restart), reads its
 * pods' CPU from metrics.k8s.io, computes the replica count (replica_calculator.go, shared with the
 * Incus HPA), normalises it — without `behavior`: downscale stabilisation +
 * convertDesiredReplicasWithRules; with it: stabilisation windows and Pods/Percent policies — and
 * writes /scale and the status with its conditions. A metrics failure sets ScalingActive=False.
 * options.policy = 'seed' swaps in the talk's seed rule (one pod up/down per period) for comparison.
 */

export interface HpaSpec {
  scaleTargetRef: { kind: 'Deployment'; name: string };
  minReplicas: number;
  maxReplicas: number;
  targetCPUUtilization: number;
  behavior?: BehaviorSpec;
}

export interface HpaMemoryEntry {
  recommendations: TimestampedRecommendation[];
  upEvents: ScaleEvent[];
  downEvents: ScaleEvent[];
}
export type HpaMemory = Record<string, HpaMemoryEntry>;

export const HPA_SYNC_PERIOD_MS = 15_000;
const DOWNSCALE_WINDOW_MS = 300_000;
/** metrics-server's default --metric-resolution: the window each CPU sample covers. */
export const METRIC_WINDOW_MS = 15_000;

/** The controller's flags the scenario may set in `options` (kube-controller-manager defaults). */
export interface HpaOptions {
  kubernetesRelease: KubernetesRelease;
  tolerance: number;
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
}

export function hpaOptionsOf(options: Record<string, unknown>): HpaOptions {
  const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d);
  return {
    kubernetesRelease: (options.kubernetesRelease as KubernetesRelease | undefined) ?? DEFAULT_KUBERNETES_RELEASE, // cast: unchecked: options come from the scenario's controller options; release names are checked where they are parsed
    tolerance: num(options.tolerance, DEFAULT_TOLERANCE),
    cpuInitializationPeriodMs: num(options.cpuInitializationPeriodMs, DEFAULT_CPU_INITIALIZATION_PERIOD_MS),
    initialReadinessDelayMs: num(options.initialReadinessDelayMs, DEFAULT_INITIAL_READINESS_DELAY_MS),
  };
}

/**
 * The pods as groupPods reads them. The sim keeps no status.startTime and no Ready condition
 * history: startTime is the creation time (the sim binds a pod 10 ms after it is created, unless
 * no node fits), a Ready pod's condition changed at readySince, a never-ready pod's at its start,
 * and a pod that was Ready and is no longer went unready at a time the sim does not keep — now,
 * the latest it can be. A CPU sample is taken now over metrics-server's 15 s window.
 */
export function metricPods(pods: KObject[], podCpuMilli: Record<string, number>, now: number): MetricPod[] {
  return pods.map((p) => {
    const st = statusOf<PodStatus>(p);
    const start = p.metadata.creationTimestamp;
    const usage = podCpuMilli[`${p.metadata.namespace}/${p.metadata.name}`];
    const lastTransitionTime = st.ready ? (st.readySince ?? start) : st.readySince !== undefined ? now : start;
    return {
      name: p.metadata.name,
      phase: st.phase,
      deleting: p.metadata.deletionTimestamp !== undefined,
      startTime: start,
      ready: { status: st.ready, lastTransitionTime },
      request: specOf<PodSpec>(p).containers.reduce((s, c) => s + c.cpuMilli, 0),
      metric: usage === undefined ? null : { value: usage, timestamp: now, windowMs: METRIC_WINDOW_MS },
    };
  });
}

/** The seed rule reads Incus-shaped instances: the same pods, as the talk's lab would list them. */
function seedInstances(pods: readonly MetricPod[], created: ReadonlyMap<string, number>): ObservedInstance[] {
  return pods.map((p) => {
    const running = p.phase === 'Running' && !p.deleting && p.ready?.status === true;
    const gone = p.deleting || p.phase === 'Failed' || p.phase === 'Succeeded';
    return {
      name: p.name,
      status: gone ? 'Stopped' : running ? 'Running' : 'Starting',
      owner: 'hpa',
      memoryUsage: p.metric?.value ?? 0,
      memoryTotal: running && p.metric !== null ? (p.request ?? 0) : 0,
      createdAt: created.get(p.name) ?? 0,
    };
  });
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message?: string;
}

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
    if (event.type === 'DELETED') {
      const next = { ...memory };
      delete next[key];
      return { requests: [], memory: next };
    }
    return { requests: [key], memory, addAfterMs: HPA_SYNC_PERIOD_MS };
  },

  reconcile({ request, view, memory, now, options }): Plan<HpaMemory> {
    const { namespace, name } = splitKey(request);
    const period = typeof options.syncPeriodMs === 'number' ? options.syncPeriodMs : HPA_SYNC_PERIOD_MS;
    const hpa = view.objects.find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.namespace === namespace && o.metadata.name === name,
    );
    if (!hpa) return { batches: [], outcome: { kind: 'ok' }, memory, summary: `${request} is gone` };
    const spec = specOf<HpaSpec>(hpa);
    const target = view.objects.find(
      (o) => o.kind === 'Deployment' && o.metadata.namespace === namespace && o.metadata.name === spec.scaleTargetRef.name,
    );
    if (!target) {
      const status = {
        summary: `target deployment/${spec.scaleTargetRef.name} not found`,
        conditions: [{ type: 'AbleToScale', status: 'False', reason: 'FailedGetScale' }],
      };
      return {
        batches: [[{ verb: 'updateStatus', object: { ...hpa, status }, retryOnConflict: true }]],
        outcome: { kind: 'error', message: `deployment ${spec.scaleTargetRef.name} not found` },
        memory,
        summary: status.summary,
      };
    }
    const dspec = specOf<DeploymentSpec>(target);
    const current = dspec.replicas;
    const opts = hpaOptionsOf(options);
    const pods = view.objects.filter(
      (o) => o.kind === 'Pod' && o.metadata.namespace === namespace && matches(dspec.selector, o.metadata.labels),
    );
    const observed = metricPods(pods, view.podCpuMilli, now);
    const known = memory[request];
    // recordInitialRecommendation: right after reading the scale, before anything else; only an HPA
    // with no entry is seeded (horizontal.go: `if a.recommendations[key] == nil`), never an entry
    // whose list is empty. (The seed rule reads no recommendations: it keeps none, so they do not
    // split the explorer's states.)
    const seeded =
      options.policy === 'seed' ? (known?.recommendations ?? []) : recordInitialRecommendation(known?.recommendations, current, now);
    const entry: HpaMemoryEntry = { recommendations: seeded, upEvents: known?.upEvents ?? [], downEvents: known?.downEvents ?? [] };
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
      desired = spec.maxReplicas;
      how = `current ${current} > max ${spec.maxReplicas}`;
    } else if (current < spec.minReplicas) {
      desired = spec.minReplicas;
      how = `current ${current} < min ${spec.minReplicas}`;
    } else if (options.policy === 'seed') {
      const config: HpaConfig = {
        ...DEFAULT_CONFIG,
        minPods: spec.minReplicas,
        maxPods: spec.maxReplicas,
        memoryThreshold: spec.targetCPUUtilization,
        namePrefix: '',
      };
      const created = new Map(pods.map((p) => [p.metadata.name, p.metadata.creationTimestamp]));
      const d = seedPolicy({
        observation: { at: now, instances: seedInstances(observed, created) },
        config,
        memory: { recommendations: [] },
      });
      utilization = d.averagePercent;
      desired = Math.min(spec.maxReplicas, Math.max(spec.minReplicas, current + (d.desired - d.running)));
      how = `seed rule: ${d.comparison} → ${d.desired > d.running ? 'one more pod' : d.desired < d.running ? 'one pod fewer' : 'no scale action'}`;
    } else {
      const calc = calculateReplicas({
        pods: observed,
        currentReplicas: current,
        targetUtilization: spec.targetCPUUtilization,
        resource: 'cpu',
        tolerances: tolerancesForHpa(opts.kubernetesRelease, opts.tolerance, spec.behavior),
        release: opts.kubernetesRelease,
        timing: {
          now,
          cpuInitializationPeriodMs: opts.cpuInitializationPeriodMs,
          delayOfInitialReadinessStatusMs: opts.initialReadinessDelayMs,
        },
      });
      if (!calc.ok) {
        // computeReplicasForMetrics fails (every metric invalid): ScalingActive=False with the metric's
        // reason, setCurrentReplicasAndMetricsInStatus (desiredReplicas stays), no rescale.
        const message = `the HPA was unable to compute the replica count: failed to get cpu utilization: ${calc.error}`;
        const status = {
          currentReplicas: current,
          desiredReplicas: (hpa.status as { desiredReplicas?: number }).desiredReplicas ?? 0, // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
          currentCPUUtilizationPercentage: null,
          ...(hpa.status.lastScaleTime !== undefined ? { lastScaleTime: hpa.status.lastScaleTime } : {}),
          conditions: [
            { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale' },
            { type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message },
          ],
          summary: `cpu <unknown>, replicas ${current}: FailedGetResourceMetric`,
        };
        // The HPA's queue re-adds the key after the sync period whatever the result (NewDefaultHPARateLimiter).
        return {
          batches: [[{ verb: 'updateStatus', object: { ...hpa, status }, retryOnConflict: true }]],
          outcome: { kind: 'ok', requeueAfterMs: period },
          memory: { ...memory, [request]: entry },
          summary: `FailedGetResourceMetric: ${calc.error} → keep ${current}`,
        };
      }
      utilization = calc.utilization;
      if (!spec.behavior) {
        const stab = stabilizeRecommendation(entry.recommendations, now, DOWNSCALE_WINDOW_MS, calc.replicas);
        const rule = convertDesiredReplicasWithRules(current, stab.replicas, spec.minReplicas, spec.maxReplicas);
        desired = rule.replicas;
        next = { ...entry, recommendations: stab.recommendations };
        conditions.push({
          type: 'AbleToScale',
          status: 'True',
          reason: stab.replicas !== calc.replicas ? 'ScaleDownStabilized' : 'ReadyForNewScale',
        });
        conditions.push({
          type: 'ScalingLimited',
          status: rule.condition === 'DesiredWithinRange' ? 'False' : 'True',
          reason: rule.condition,
        });
        how = `${calc.note} → ${calc.replicas}${stab.replicas !== calc.replicas ? `, stabilised to ${stab.replicas}` : ''} (${rule.condition})`;
      } else {
        const behavior = withDefaults(spec.behavior);
        const stab = stabilizeWithBehaviors(entry.recommendations, now, current, calc.replicas, behavior);
        const rate = convertWithBehaviorRate({
          current,
          desired: stab.replicas,
          min: spec.minReplicas,
          max: spec.maxReplicas,
          upEvents: entry.upEvents,
          downEvents: entry.downEvents,
          behavior,
          now,
        });
        desired = rate.replicas;
        next = { ...entry, recommendations: stab.recommendations };
        conditions.push({ type: 'AbleToScale', status: 'True', reason: stab.reason });
        conditions.push({ type: 'ScalingLimited', status: rate.replicas === stab.replicas ? 'False' : 'True', reason: rate.reason });
        how = `${calc.note} → ${calc.replicas}, ${stab.reason} ${stab.replicas}, ${rate.reason} ${rate.replicas}`;
      }
    }
    const rescale = desired !== current;
    if (rescale && spec.behavior)
      next = { ...next, ...recordScaleEvent(next.upEvents, next.downEvents, withDefaults(spec.behavior), current, desired, now) };
    const util = utilization === null ? 'cpu <unknown>' : `cpu ${utilization}%/${spec.targetCPUUtilization}%`;
    const status = {
      currentReplicas: current,
      desiredReplicas: desired,
      currentCPUUtilizationPercentage: utilization,
      ...(rescale ? { lastScaleTime: now } : hpa.status.lastScaleTime !== undefined ? { lastScaleTime: hpa.status.lastScaleTime } : {}),
      conditions,
      summary: `${util}, replicas ${current}${rescale ? ` → ${desired}` : ''}`,
    };
    const batches = [
      ...(rescale ? [[{ verb: 'scale' as const, kind: 'Deployment', namespace, name: target.metadata.name, replicas: desired }]] : []),
      [{ verb: 'updateStatus' as const, object: { ...hpa, status }, retryOnConflict: true }],
    ];
    return {
      batches,
      outcome: { kind: 'ok', requeueAfterMs: period },
      memory: { ...memory, [request]: next },
      summary: `${util}: ${how}${rescale ? ` → scale ${current} → ${desired}` : ' → keep'}`,
    };
  },
};
