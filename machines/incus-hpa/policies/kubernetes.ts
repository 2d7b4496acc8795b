import type { MetricPod } from '../../hpa-algorithm';
import { calculateReplicas, convertDesiredReplicasWithRules, stabilizeRecommendation } from '../../hpa-algorithm';
import type { HpaAction, ObservedInstance, Policy } from '../types';

/**
 * The Kubernetes HPA algorithm for a memory Utilization target (machines/hpa-algorithm: the
 * replica calculation and normalisation shared with the HPA controller on the simulated plane),
 * with horizontal.go's reconcileAutoscaler bounds, for an HPA with no `behavior` field.
 *
 * Mapping Incus onto pods: the HPA's pods are the instances carrying its owner key; a pod's
 * request is memory.total (the limit) and its metric memory.usage. Running with a limit →
 * ready with a metric; Running without a known total → missing metric; Starting → pending
 * (groupPods puts Pending pods in unreadyPods); Stopping/Stopped/Error → ignored (like pods
 * with a deletionTimestamp or phase Failed). currentReplicas = Starting + Running.
 */

/** groupPods, for Incus: Starting → Pending; Running → ready (no known limit → no metric); the rest ignored. */
export function metricPodOf(i: ObservedInstance): MetricPod {
  const request = i.memoryTotal > 0 ? i.memoryTotal : null;
  if (i.status === 'Starting') return { name: i.name, state: 'pending', usage: null, request };
  if (i.status !== 'Running') return { name: i.name, state: 'ignored', usage: null, request };
  return { name: i.name, state: 'ready', usage: request === null ? null : i.memoryUsage, request };
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
    const calc = calculateReplicas(owned.map(metricPodOf), current, target, config.tolerance);
    utilization = calc.utilization;
    const stabilized = stabilizeRecommendation(memory.recommendations, observation.at, config.downscaleStabilizationMs, calc.replicas);
    nextMemory = { recommendations: stabilized.recommendations };
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
