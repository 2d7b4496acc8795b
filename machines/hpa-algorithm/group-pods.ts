/**
 * groupPods from kubernetes pkg/controller/podautoscaler/replica_calculator.go (release 1.35):
 * which pods count, which are unready (metric set aside on a scale-down, counted at 0 % on a
 * scale-up), which have no metric, and which are ignored. Times are ms on one clock.
 */

export type ResourceName = 'cpu' | 'memory';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** One sample from metrics.k8s.io: its value, when it was taken and over which window. */
export interface PodMetric {
  value: number;
  timestamp: number;
  windowMs: number;
}

/** A pod as the HPA sees it, whatever runs it (a pod on the plane, an Incus instance). */
export interface MetricPod {
  name: string;
  phase: PodPhase;
  /** metadata.deletionTimestamp is set. */
  deleting: boolean;
  /** status.startTime (the kubelet acknowledged the pod); null when not set. */
  startTime: number | null;
  /** The PodReady condition; null when the pod has none. */
  ready: { status: boolean; lastTransitionTime: number } | null;
  /** The pod's request for the resource; null when a container has none. */
  request: number | null;
  /** The pod's metric; null when the metrics API has none for it. */
  metric: PodMetric | null;
}

/** --horizontal-pod-autoscaler-cpu-initialization-period and -initial-readiness-delay. */
export interface ReadinessTiming {
  now: number;
  cpuInitializationPeriodMs: number;
  delayOfInitialReadinessStatusMs: number;
}

/** kube-controller-manager defaults (pkg/controller/podautoscaler/config/v1alpha1/defaults.go). */
export const DEFAULT_CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
export const DEFAULT_INITIAL_READINESS_DELAY_MS = 30_000;

export interface PodGroups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

export function groupPods(pods: readonly MetricPod[], resource: ResourceName, timing: ReadinessTiming): PodGroups {
  const groups: PodGroups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    // Only deleting and Failed pods are ignored: a Succeeded pod with a metric still counts.
    if (pod.deleting || pod.phase === 'Failed') {
      groups.ignored.add(pod.name);
      continue;
    }
    if (pod.phase === 'Pending') {
      groups.unready.add(pod.name);
      continue;
    }
    const metric = pod.metric;
    if (!metric) {
      groups.missing.add(pod.name);
      continue;
    }
    if (resource === 'cpu') {
      let unready: boolean;
      const cond = pod.ready;
      if (!cond || pod.startTime === null) unready = true;
      else if (pod.startTime + timing.cpuInitializationPeriodMs > timing.now) {
        // Still within the initialisation period: ignore the sample if the pod is unready or no
        // whole metric window was collected since its last readiness transition.
        unready = !cond.status || metric.timestamp < cond.lastTransitionTime + metric.windowMs;
      } else {
        // Afterwards: ignore it only if the pod is unready and has never been ready.
        unready = !cond.status && pod.startTime + timing.delayOfInitialReadinessStatusMs > cond.lastTransitionTime;
      }
      if (unready) {
        groups.unready.add(pod.name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}
