/**
 * The HPA controller's normalisation without `behavior`, shared by both HPA loops, as in
 * Kubernetes 1.35: from kubernetes/kubernetes pkg/controller/podautoscaler/horizontal.go (stabilizeRecommendation,
 * convertDesiredReplicasWithRules, calculateScaleUpLimit).
 */

export interface Recommendation {
  at: number;
  replicas: number;
}

/**
 * recordInitialRecommendation: the first time the controller sees an HPA (its recommendations are
 * in memory only, so also after every controller restart) it records the current replica count,
 * so nothing scales down during the first stabilisation window.
 * Only an HPA with no entry at all is seeded: upstream tests `a.recommendations[key] == nil`, so an
 * entry whose list is empty (horizontal_test.go's `recommendations: []timestampedRecommendation{}`,
 * as in TestScaleDown) is left empty and the sync may scale down at once.
 */
export function recordInitialRecommendation(
  recommendations: readonly Recommendation[] | undefined,
  current: number,
  now: number,
): Recommendation[] {
  return recommendations === undefined ? [{ at: now, replicas: current }] : [...recommendations];
}

/** stabilizeRecommendation: the max recommendation inside the window; replaces one stale sample. */
export function stabilizeRecommendation(recommendations: readonly Recommendation[], now: number, windowMs: number, recommendation: number) {
  let max = recommendation;
  let oldIndex = -1;
  const cutoff = now - windowMs;
  recommendations.forEach((rec, i) => {
    if (rec.at < cutoff) oldIndex = i;
    else if (rec.replicas > max) max = rec.replicas;
  });
  const sample = { at: now, replicas: recommendation };
  const next = oldIndex >= 0 ? recommendations.map((rec, i) => (i === oldIndex ? sample : rec)) : [...recommendations, sample];
  return { replicas: max, recommendations: next };
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
