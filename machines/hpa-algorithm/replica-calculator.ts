/**
 * The Kubernetes HPA's replica calculation for one resource metric, shared by the Incus HPA's
 * `kubernetes` policy and the HorizontalPodAutoscaler controller on the simulated plane. From
 * kubernetes/kubernetes pkg/controller/podautoscaler replica_calculator.go (GetResourceReplicas,
 * groupPods) and metrics/utilization.go (GetResourceUtilizationRatio).
 */

/** A pod as groupPods sorts it, whatever runs it (an Incus instance, a pod on the plane). */
export interface MetricPod {
  name: string;
  /** pending: unready (Pending / not ready); ready: counted; ignored: deleting or Failed. */
  state: 'pending' | 'ready' | 'ignored';
  /** The metric (e.g. memory or CPU usage); null when the metrics API has none for the pod. */
  usage: number | null;
  /** The pod's request for the resource; null when unknown. */
  request: number | null;
}

export interface ReplicaCalculation {
  replicas: number;
  utilization: number | null;
  note: string;
}

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

/** GetResourceReplicas for one resource; the CPU-only readiness rules are not modelled. */
export function calculateReplicas(pods: readonly MetricPod[], currentReplicas: number, target: number, tolerance: number): ReplicaCalculation {
  const metrics = new Map<string, number>();
  const requests = new Map<string, number>();
  const unready: MetricPod[] = [];
  const missing: MetricPod[] = [];
  let readyPodCount = 0;
  for (const pod of pods) {
    if (pod.state === 'ignored') continue;
    if (pod.state === 'pending') { unready.push(pod); continue; }
    if (pod.usage === null || pod.request === null) { missing.push(pod); continue; }
    metrics.set(pod.name, pod.usage);
    requests.set(pod.name, pod.request);
    readyPodCount++;
  }
  // A pod whose request is unknown (an Incus instance whose limit could not be read) is given the
  // first known request: every instance of one HPA gets the same limit.
  const defaultRequest = pods.find((p) => p.request !== null)?.request ?? 0;
  for (const pod of [...unready, ...missing]) requests.set(pod.name, pod.request ?? defaultRequest);

  const initial = utilizationRatio(metrics, requests, target);
  if (!initial) return { replicas: currentReplicas, utilization: null, note: 'no metrics for any ready pod: keep' };
  const { ratio, utilization } = initial;

  const scaleUpWithUnready = unready.length > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missing.length === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) {
      return { replicas: currentReplicas, utilization, note: `ratio ${ratio.toFixed(2)} within tolerance ${tolerance}` };
    }
    return { replicas: Math.ceil(ratio * readyPodCount), utilization, note: `ceil(${ratio.toFixed(2)} × ${readyPodCount} ready)` };
  }
  if (missing.length > 0) {
    if (ratio < 1.0) {
      // On a scale-down, a missing pod counts as using 100% of its request (or the target if higher).
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
