export * from './types';
export * from './machine';
export * from './policies';
export { calculateReplicas, stabilizeRecommendation, convertDesiredReplicasWithRules, scaleUpLimit } from './policies/kubernetes';
