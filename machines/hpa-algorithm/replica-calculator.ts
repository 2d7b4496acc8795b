/**
 * The Kubernetes HPA's replica calculation for one resource Utilization target, shared by the
 * Incus HPA's `kubernetes` policy and the HorizontalPodAutoscaler controller on the simulated
 * plane. Follows Kubernetes 1.35 (see ./release.ts for the older tolerance test):
 * kubernetes pkg/controller/podautoscaler/replica_calculator.go GetResourceReplicas, groupPods,
 * calculateRequests, and metrics/utilization.go GetResourceUtilizationRatio. Integer arithmetic
 * as upstream's int64 (milli-values, bytes).
 */
import type { MetricPod, ReadinessTiming, ResourceName } from './group-pods';
import { groupPods } from './group-pods';
import type { KubernetesRelease, Tolerances } from './release';
import { withinTolerance } from './release';

export interface ReplicaInput {
  pods: readonly MetricPod[];
  currentReplicas: number;
  targetUtilization: number;
  resource: ResourceName;
  tolerances: Tolerances;
  release: KubernetesRelease;
  timing: ReadinessTiming;
}

export type ReplicaCalculation =
  /** utilization: percent of request (truncated); rawUtilization: average usage per counted pod. */
  | { ok: true; replicas: number; utilization: number; rawUtilization: number; note: string }
  /** The error GetResourceReplicas returns (the controller sets ScalingActive=False on it). */
  | { ok: false; error: string };

interface Ratio {
  ratio: number;
  utilization: number;
  raw: number;
}

/** GetResourceUtilizationRatio: summed usage over summed requests of pods with both, truncated. */
function utilizationRatio(metrics: Map<string, number>, requests: Map<string, number>, target: number): Ratio | null {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, value] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) return null;
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / target, utilization, raw: Math.trunc(metricsTotal / entries) };
}

export function calculateReplicas(input: ReplicaInput): ReplicaCalculation {
  const { pods, currentReplicas, targetUtilization: target, resource, tolerances, release } = input;
  const within = (r: number) => withinTolerance(release, tolerances, r);
  // metricsClient.GetResourceMetric: an empty PodMetricsList is an error.
  if (!pods.some((p) => p.metric !== null))
    return { ok: false, error: `unable to get metrics for resource ${resource}: no metrics returned from resource metrics API` };
  if (pods.length === 0) return { ok: false, error: 'no pods returned by selector while calculating replica count' };

  const groups = groupPods(pods, resource, input.timing);
  const metrics = new Map<string, number>();
  for (const p of pods) if (p.metric && !groups.ignored.has(p.name) && !groups.unready.has(p.name)) metrics.set(p.name, p.metric.value);
  if (metrics.size === 0) return { ok: false, error: 'did not receive metrics for targeted pods (pods might be unready)' };

  // calculateRequests: every listed pod's own request; one without is an error.
  const requests = new Map<string, number>();
  for (const p of pods) {
    if (p.request === null) return { ok: false, error: `missing request for ${resource} of Pod ${p.name}` };
    requests.set(p.name, p.request);
  }

  const first = utilizationRatio(metrics, requests, target);
  if (!first) return { ok: false, error: 'no metrics returned matched known pods' };
  const { ratio, utilization, raw } = first;
  const done = (replicas: number, note: string): ReplicaCalculation => ({ ok: true, replicas, utilization, rawUtilization: raw, note });

  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (within(ratio)) return done(currentReplicas, `ratio ${ratio.toFixed(2)} within tolerance`);
    return done(Math.ceil(ratio * groups.readyPodCount), `ceil(${ratio.toFixed(2)} × ${groups.readyPodCount} ready)`);
  }

  if (groups.missing.size > 0) {
    if (ratio < 1.0) {
      // On a scale-down a pod without a metric uses 100 % of ITS OWN request (or the target, if higher).
      const fallback = Math.max(100, target);
      for (const name of groups.missing) metrics.set(name, Math.trunc((requests.get(name)! * fallback) / 100));
    } else if (ratio > 1.0) {
      for (const name of groups.missing) metrics.set(name, 0); // on a scale-up, 0 %
    }
  }
  if (scaleUpWithUnready) for (const name of groups.unready) metrics.set(name, 0);

  const again = utilizationRatio(metrics, requests, target);
  if (!again) return { ok: false, error: 'no metrics returned matched known pods' };
  const newRatio = again.ratio;
  if (within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)) {
    return done(
      currentReplicas,
      `ratio ${newRatio.toFixed(2)} with missing/unready pods counted: within tolerance or the direction flips, keep`,
    );
  }
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1.0 && newReplicas > currentReplicas) || (newRatio > 1.0 && newReplicas < currentReplicas)) {
    return done(currentReplicas, 'rescaled count points the other way: keep');
  }
  return done(newReplicas, `ceil(${newRatio.toFixed(2)} × ${metrics.size} pods incl. missing/unready)`);
}
