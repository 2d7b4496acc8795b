import type { HpaAction, ObservedInstance, Policy, PolicyMemory } from '../types';

/**
 * The Kubernetes HPA algorithm for a memory Utilization target, from kubernetes/kubernetes
 * pkg/controller/podautoscaler: replica_calculator.go (GetResourceReplicas, groupPods,
 * metricsclient.GetResourceUtilizationRatio) and horizontal.go (reconcileAutoscaler,
 * stabilizeRecommendation, convertDesiredReplicasWithRules, calculateScaleUpLimit), for an
 * HPA with no `behavior` field.
 *
 * Mapping Incus onto pods: the HPA's pods are the instances carrying its owner key; a pod's
 * request is memory.total (the limit) and its metric memory.usage. Running with a limit →
 * ready with a metric; Running without a known total → missing metric; Starting → pending
 * (groupPods puts Pending pods in unreadyPods); Stopping/Stopped/Error → ignored (like pods
 * with a deletionTimestamp or phase Failed). currentReplicas = Starting + Running.
 */

/** GetResourceUtilizationRatio: utilisation of summed usage over summed requests, truncated. */
function utilizationRatio(metrics: Map<string, number>, requests: Map<string, number>, target: number) {
  let metricsTotal = 0;
  let requestsTotal = 0;
  for (const [name, value] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += value;
    requestsTotal += request;
  }
  if (requestsTotal === 0) return null; // upstream: "no metrics returned matched known pods"
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / target, utilization };
}

export interface ReplicaCalculation {
  replicas: number;
  utilization: number | null;
  note: string;
}

/** GetResourceReplicas for one resource (memory): no CPU-only readiness rules apply. */
export function calculateReplicas(
  pods: ObservedInstance[], currentReplicas: number, target: number, tolerance: number,
): ReplicaCalculation {
  const metrics = new Map<string, number>();
  const requests = new Map<string, number>();
  const unready: ObservedInstance[] = [];
  const missing: ObservedInstance[] = [];
  let readyPodCount = 0;
  for (const pod of pods) {
    if (pod.status === 'Starting') { unready.push(pod); continue; } // Pending pods
    if (pod.status !== 'Running') continue; // deletionTimestamp / Failed → ignored
    if (pod.memoryTotal <= 0) { missing.push(pod); continue; }
    metrics.set(pod.name, pod.memoryUsage);
    requests.set(pod.name, pod.memoryTotal);
    readyPodCount++;
  }
  // Requests of pods without metrics: the limit every instance gets (what the pod spec would say).
  const first = pods.find((p) => p.memoryTotal > 0);
  const defaultRequest = first ? first.memoryTotal : 0;
  for (const pod of [...unready, ...missing]) requests.set(pod.name, pod.memoryTotal > 0 ? pod.memoryTotal : defaultRequest);

  const initial = utilizationRatio(metrics, requests, target);
  if (!initial) return { replicas: currentReplicas, utilization: null, note: 'no metrics for any ready pod: keep' };
  const { ratio, utilization } = initial;

  const scaleUpWithUnready = unready.length > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missing.length === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) {
      return { replicas: currentReplicas, utilization, note: `ratio ${ratio.toFixed(2)} within tolerance ${tolerance}` };
    }
    return { replicas: Math.ceil(ratio * readyPodCount), utilization,
      note: `ceil(${ratio.toFixed(2)} × ${readyPodCount} ready)` };
  }
  if (missing.length > 0) {
    if (ratio < 1.0) {
      // On a scale-down, treat missing pods as using 100% of the request (or the target if higher).
      const fallback = Math.max(100, target);
      for (const pod of missing) metrics.set(pod.name, ((requests.get(pod.name) ?? 0) * fallback) / 100);
    } else if (ratio > 1.0) {
      for (const pod of missing) metrics.set(pod.name, 0); // on a scale-up, assume 0%
    }
  }
  if (scaleUpWithUnready) for (const pod of unready) metrics.set(pod.name, 0);

  const rerun = utilizationRatio(metrics, requests, target);
  if (!rerun) return { replicas: currentReplicas, utilization, note: 'no metrics: keep' };
  const newRatio = rerun.ratio;
  if (Math.abs(1.0 - newRatio) <= tolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)) {
    return { replicas: currentReplicas, utilization, note: 'change too small or direction flips once missing/unready pods are counted: keep' };
  }
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1.0 && newReplicas > currentReplicas) || (newRatio > 1.0 && newReplicas < currentReplicas)) {
    return { replicas: currentReplicas, utilization, note: 'rescaled count points the other way: keep' };
  }
  return { replicas: newReplicas, utilization, note: `ceil(${newRatio.toFixed(2)} × ${metrics.size} pods incl. missing/unready)` };
}

/** stabilizeRecommendation: the max recommendation inside the window; replaces one stale sample. */
export function stabilizeRecommendation(memory: PolicyMemory, now: number, windowMs: number, recommendation: number) {
  let max = recommendation;
  let oldIndex = -1;
  const cutoff = now - windowMs;
  memory.recommendations.forEach((rec, i) => {
    if (rec.at < cutoff) oldIndex = i;
    else if (rec.replicas > max) max = rec.replicas;
  });
  const sample = { at: now, replicas: recommendation };
  const recommendations = oldIndex >= 0
    ? memory.recommendations.map((rec, i) => (i === oldIndex ? sample : rec))
    : [...memory.recommendations, sample];
  return { replicas: max, memory: { recommendations } };
}

/** calculateScaleUpLimit: max(2 × current, 4). */
export const scaleUpLimit = (current: number) => Math.max(2 * current, 4);

/** convertDesiredReplicasWithRules. */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number) {
  const limit = scaleUpLimit(current);
  const maximumAllowed = max > limit ? limit : max;
  const limitingReason = max > limit ? 'ScaleUpLimit' : 'TooManyReplicas';
  if (desired < min) return { replicas: min, condition: 'TooFewReplicas' };
  if (desired > maximumAllowed) return { replicas: maximumAllowed, condition: limitingReason };
  return { replicas: desired, condition: 'DesiredWithinRange' };
}

export const kubernetesPolicy: Policy = ({ observation, config, memory }) => {
  const owned = observation.instances.filter((i) => i.owner === config.name);
  const active = owned.filter((i) => i.status === 'Starting' || i.status === 'Running');
  const current = active.length;
  const target = config.memoryThreshold;
  let desired: number;
  let comparison: string;
  let utilization: number | null = null;
  let nextMemory = memory;

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
    const calc = calculateReplicas(owned, current, target, config.tolerance);
    utilization = calc.utilization;
    const stabilized = stabilizeRecommendation(memory, observation.at, config.downscaleStabilizationMs, calc.replicas);
    nextMemory = stabilized.memory;
    const rule = convertDesiredReplicasWithRules(current, stabilized.replicas, config.minPods, config.maxPods);
    desired = rule.replicas;
    const util = utilization === null ? 'no utilisation' : `utilisation ${utilization}% vs target ${target}%`;
    const stab = stabilized.replicas !== calc.replicas ? `, stabilised to ${stabilized.replicas} (max in ${config.downscaleStabilizationMs / 1000}s)` : '';
    comparison = `${util}: ${calc.note} → ${calc.replicas}${stab}; ${rule.condition} → ${desired}`;
  }

  const actions: HpaAction[] = [];
  if (desired > current) for (let i = current; i < desired; i++) actions.push({ kind: 'create' });
  if (desired < current) {
    // A ReplicaSet deletes not-ready pods first, then the newest (controller.ActivePods ordering).
    const victims = [...active].sort((a, b) => (a.status === b.status ? b.createdAt - a.createdAt : a.status === 'Starting' ? -1 : 1));
    for (const pod of victims.slice(0, current - desired)) actions.push({ kind: 'delete', name: pod.name, waitForStop: true });
  }
  return {
    policy: 'kubernetes', running: current, averagePercent: utilization, desired, actions, comparison,
    verdict: desired === current ? `keep ${current}` : `scale ${current} → ${desired}`, memory: nextMemory,
  };
};
