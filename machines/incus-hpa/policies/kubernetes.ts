import type { MetricPod } from '../../hpa-algorithm';
import {
  DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
  DEFAULT_INITIAL_READINESS_DELAY_MS,
  calculateReplicas,
  convertDesiredReplicasWithRules,
  recordInitialRecommendation,
  stabilizeRecommendation,
} from '../../hpa-algorithm';
import type { HpaAction, HpaConfig, ObservedInstance, Policy } from '../types';

/**
 * The Kubernetes HPA algorithm (Kubernetes 1.35 by default; `kubernetesRelease` picks an older
 * tolerance test) for a memory Utilization target: machines/hpa-algorithm (the replica calculation
 * and normalisation shared with the HPA controller on the simulated plane) with horizontal.go's
 * reconcileAutoscaler — recordInitialRecommendation, the [min, max] bounds, stabilizeRecommendation
 * and convertDesiredReplicasWithRules — for an HPA with no `behavior` field.
 *
 * Mapping Incus onto pods: the HPA's pods are the instances carrying its owner key; a pod's
 * request is its own memory.total (its limit), or the configured limits.memory while Incus does
 * not report it; its metric is memory.usage (none while memory.total is unknown). Starting →
 * phase Pending (unready); Running → Running and Ready; Stopping → deleting; Stopped, Error and
 * Frozen → Failed (ignored). Memory is not CPU, so the CPU initialisation rules do not apply.
 * currentReplicas = Starting + Running. Policy memory holds the recommendations; the machine
 * loses it on a restart, like the controller's in-memory map.
 */

/** groupPods' view of an Incus instance. */
export function metricPodOf(i: ObservedInstance, config: HpaConfig): MetricPod {
  const request = i.memoryTotal > 0 ? i.memoryTotal : config.limitsMemoryBytes > 0 ? config.limitsMemoryBytes : null;
  const base = {
    name: i.name,
    deleting: false,
    startTime: i.createdAt,
    ready: { status: true, lastTransitionTime: i.createdAt },
    request,
    metric: null,
  };
  if (i.status === 'Starting') return { ...base, phase: 'Pending', ready: { status: false, lastTransitionTime: i.createdAt } };
  // An ignored pod's request is never read; Incus reports no memory.total for a stopped instance,
  // which must not fail the sync as a pod without a request would.
  if (i.status === 'Stopping') return { ...base, phase: 'Running', deleting: true, request: request ?? 0 };
  if (i.status !== 'Running') return { ...base, phase: 'Failed', request: request ?? 0 };
  return { ...base, phase: 'Running', metric: i.memoryTotal > 0 ? { value: i.memoryUsage, timestamp: i.createdAt, windowMs: 0 } : null };
}

export const kubernetesPolicy: Policy = ({ observation, config, memory }) => {
  const owned = observation.instances.filter((i) => i.owner === config.name);
  const active = owned.filter((i) => i.status === 'Starting' || i.status === 'Running');
  const current = active.length;
  const target = config.memoryThreshold;
  const now = observation.at;
  // recordInitialRecommendation runs on every sync before anything else. The machine's policy
  // memory starts (and restarts) as an empty list and never empties after a sync: empty is the
  // controller's "no entry for this HPA yet".
  const seeded = recordInitialRecommendation(memory.recommendations.length > 0 ? memory.recommendations : undefined, current, now);
  let desired: number;
  let comparison: string;
  let utilization: number | null = null;
  let nextMemory = { recommendations: seeded };

  // reconcileAutoscaler: outside [min, max] the count is set straight to the bound. Upstream
  // also disables scaling when the scale target has 0 replicas; an Incus host has no replica
  // field, so 0 owned instances is not a user's scale-to-zero and min applies instead.
  if (current > config.maxPods) {
    desired = config.maxPods;
    comparison = `${current} pods > max ${config.maxPods}`;
  } else if (current < config.minPods) {
    desired = config.minPods;
    comparison = `${current} pods < min ${config.minPods}`;
  } else {
    const calc = calculateReplicas({
      pods: owned.map((i) => metricPodOf(i, config)),
      currentReplicas: current,
      targetUtilization: target,
      resource: 'memory',
      tolerances: { scaleDown: config.tolerance, scaleUp: config.tolerance },
      release: config.kubernetesRelease,
      timing: {
        now,
        cpuInitializationPeriodMs: DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
        delayOfInitialReadinessStatusMs: DEFAULT_INITIAL_READINESS_DELAY_MS,
      },
    });
    if (!calc.ok) {
      // computeReplicasForMetrics fails: no rescale, nothing recorded but the initial recommendation.
      desired = current;
      comparison = `ScalingActive=False FailedGetResourceMetric: the HPA was unable to compute the replica count: failed to get memory utilization: ${calc.error}`;
    } else {
      utilization = calc.utilization;
      const stabilized = stabilizeRecommendation(seeded, now, config.downscaleStabilizationMs, calc.replicas);
      nextMemory = { recommendations: stabilized.recommendations };
      const rule = convertDesiredReplicasWithRules(current, stabilized.replicas, config.minPods, config.maxPods);
      desired = rule.replicas;
      const stab =
        stabilized.replicas !== calc.replicas
          ? `, ScaleDownStabilized to ${stabilized.replicas} (max in ${config.downscaleStabilizationMs / 1000}s)`
          : '';
      comparison = `utilisation ${utilization}% vs target ${target}%: ${calc.note} → ${calc.replicas}${stab}; ${rule.condition} → ${desired}`;
    }
  }

  const actions: HpaAction[] = [];
  if (desired > current) for (let i = current; i < desired; i++) actions.push({ kind: 'create' });
  if (desired < current) {
    // A ReplicaSet deletes not-ready pods first, then the newest (controller.ActivePods ordering).
    const victims = [...active].sort((a, b) => (a.status === b.status ? b.createdAt - a.createdAt : a.status === 'Starting' ? -1 : 1));
    for (const pod of victims.slice(0, current - desired)) actions.push({ kind: 'delete', name: pod.name, waitForStop: true });
  }
  return {
    policy: 'kubernetes',
    running: current,
    averagePercent: utilization,
    desired,
    actions,
    comparison,
    verdict: desired === current ? `keep ${current}` : `scale ${current} → ${desired}`,
    memory: nextMemory,
  };
};
