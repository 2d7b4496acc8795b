/**
 * Which Kubernetes release's HPA arithmetic to follow. loopscope follows Kubernetes 1.35 by
 * default; the tolerance test changed between releases, so a scenario may pick an older one:
 * - ≤ 1.32: replica_calculator.go tests `math.Abs(1.0-usageRatio) <= c.tolerance` — one
 *   cluster-wide --horizontal-pod-autoscaler-tolerance, so a ratio of exactly 1.10 is OUTSIDE a
 *   0.1 tolerance (|1 − 1.1| = 0.10000000000000009 in float64).
 * - 1.33, 1.34: `Tolerances.isWithin`: `(1.0-scaleDown) <= usageRatio && usageRatio <= (1.0+scaleUp)`
 *   (KEP-4951), so 1.10 is inside; per-HPA behavior.*.tolerance exists behind the alpha
 *   HPAConfigurableTolerance gate, off by default (the API server drops the field).
 * - 1.35: the same test; HPAConfigurableTolerance is beta and on by default (pkg/features
 *   kube_features.go: {1.33 Alpha false}, {1.35 Beta true}), so behavior.*.tolerance applies.
 */
export const KUBERNETES_RELEASES = ['1.32', '1.33', '1.34', '1.35'] as const;
export type KubernetesRelease = (typeof KUBERNETES_RELEASES)[number];
export const DEFAULT_KUBERNETES_RELEASE: KubernetesRelease = '1.35';

/** Scale-up and scale-down tolerances (replica_calculator.go Tolerances). */
export interface Tolerances {
  scaleDown: number;
  scaleUp: number;
}

/** --horizontal-pod-autoscaler-tolerance (kube-controller-manager default 0.1). */
export const DEFAULT_TOLERANCE = 0.1;

const minor = (r: KubernetesRelease) => Number(r.split('.')[1]);

/** Whether the change is too small to act on ("within tolerance") in the given release. */
export function withinTolerance(release: KubernetesRelease, t: Tolerances, usageRatio: number): boolean {
  // ≤ 1.32 had one tolerance; it is passed as both fields.
  if (minor(release) <= 32) return Math.abs(1.0 - usageRatio) <= t.scaleUp;
  return 1.0 - t.scaleDown <= usageRatio && usageRatio <= 1.0 + t.scaleUp;
}

/** Whether the release honours behavior.scaleUp/scaleDown.tolerance by default (the feature gate). */
const perHpaToleranceEnabled = (release: KubernetesRelease) => minor(release) >= 35;

/**
 * horizontal.go tolerancesForHpa: the cluster-wide tolerance for both directions, replaced per
 * direction by the HPA's behavior.*.tolerance when the HPAConfigurableTolerance gate is on.
 */
export function tolerancesForHpa(
  release: KubernetesRelease,
  clusterTolerance: number,
  behavior?: { scaleUp?: { tolerance?: number }; scaleDown?: { tolerance?: number } },
): Tolerances {
  if (!perHpaToleranceEnabled(release)) return { scaleDown: clusterTolerance, scaleUp: clusterTolerance };
  return { scaleDown: behavior?.scaleDown?.tolerance ?? clusterTolerance, scaleUp: behavior?.scaleUp?.tolerance ?? clusterTolerance };
}
