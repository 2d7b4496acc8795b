export type { MetricPod, ReplicaCalculation } from './replica-calculator';
export { calculateReplicas } from './replica-calculator';
export type { Recommendation } from './horizontal';
export { convertDesiredReplicasWithRules, scaleUpLimit, stabilizeRecommendation } from './horizontal';
