export type { MetricPod, PodGroups, PodMetric, PodPhase, ReadinessTiming, ResourceName } from './group-pods';
export { DEFAULT_CPU_INITIALIZATION_PERIOD_MS, DEFAULT_INITIAL_READINESS_DELAY_MS, groupPods } from './group-pods';
export type { ReplicaCalculation, ReplicaInput } from './replica-calculator';
export { calculateReplicas } from './replica-calculator';
export type { KubernetesRelease, Tolerances } from './release';
export { DEFAULT_KUBERNETES_RELEASE, DEFAULT_TOLERANCE, tolerancesForHpa, withinTolerance } from './release';
export type { Recommendation } from './horizontal';
export { convertDesiredReplicasWithRules, recordInitialRecommendation, scaleUpLimit, stabilizeRecommendation } from './horizontal';
