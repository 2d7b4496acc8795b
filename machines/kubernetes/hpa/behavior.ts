/**
 * The HPA's `behavior` (autoscaling/v2), as in Kubernetes 1.35, from kubernetes
 * pkg/controller/podautoscaler/horizontal.go:
 * normalizeDesiredReplicasWithBehaviors → stabilizeRecommendationWithBehaviors, then
 * convertDesiredReplicasWithBehaviorRate with calculateScaleUpLimitWithScalingRules /
 * calculateScaleDownLimitWithBehaviors over the scale events of each policy's period; defaults
 * from pkg/apis/autoscaling/v2/defaults.go. Pure functions over plain data; times in ms.
 */

export type PolicyType = 'Pods' | 'Percent';
export type SelectPolicy = 'Max' | 'Min' | 'Disabled';
export interface ScalingPolicy {
  type: PolicyType;
  value: number;
  periodSeconds: number;
}
export interface ScalingRules {
  stabilizationWindowSeconds: number;
  selectPolicy: SelectPolicy;
  policies: ScalingPolicy[];
}
export interface Behavior {
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
}
/** As written in the HPA: each direction may also carry a tolerance (KEP-4951, HPAConfigurableTolerance). */
export type RulesSpec = Partial<ScalingRules> & { tolerance?: number };
export type BehaviorSpec = { scaleUp?: RulesSpec; scaleDown?: RulesSpec };

export interface TimestampedRecommendation {
  at: number;
  replicas: number;
}
export interface ScaleEvent {
  at: number;
  change: number;
}

/** SetDefaults_HorizontalPodAutoscalerBehavior: up: 0 s window, max(100 % , 4 pods) per 15 s;
 * down: 300 s window (the controller's downscale stabilisation), 100 % per 15 s. */
export function withDefaults(b: BehaviorSpec, downscaleWindowSeconds = 300): Behavior {
  return {
    scaleUp: {
      stabilizationWindowSeconds: b.scaleUp?.stabilizationWindowSeconds ?? 0,
      selectPolicy: b.scaleUp?.selectPolicy ?? 'Max',
      policies: b.scaleUp?.policies ?? [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    },
    scaleDown: {
      stabilizationWindowSeconds: b.scaleDown?.stabilizationWindowSeconds ?? downscaleWindowSeconds,
      selectPolicy: b.scaleDown?.selectPolicy ?? 'Max',
      policies: b.scaleDown?.policies ?? [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    },
  };
}

/** stabilizeRecommendationWithBehaviors: up to the lowest recommendation of the up window, down
 * to the highest of the down window; records the raw recommendation (reusing a stale slot). */
export function stabilizeWithBehaviors(recs: TimestampedRecommendation[], now: number, current: number, desired: number, b: Behavior) {
  const upCutoff = now - b.scaleUp.stabilizationWindowSeconds * 1000;
  const downCutoff = now - b.scaleDown.stabilizationWindowSeconds * 1000;
  let up = desired;
  let down = desired;
  let oldIndex = -1;
  recs.forEach((r, i) => {
    if (r.at > upCutoff) up = Math.min(up, r.replicas);
    if (r.at > downCutoff) down = Math.max(down, r.replicas);
    if (r.at < upCutoff && r.at < downCutoff) oldIndex = i;
  });
  let replicas = current;
  if (replicas < up) replicas = up;
  if (replicas > down) replicas = down;
  const sample = { at: now, replicas: desired };
  const next = oldIndex >= 0 ? recs.map((r, i) => (i === oldIndex ? sample : r)) : [...recs, sample];
  const reason = replicas === desired ? 'ReadyForNewScale' : desired >= current ? 'ScaleUpStabilized' : 'ScaleDownStabilized';
  return { replicas, recommendations: next, reason };
}

/** getReplicasChangePerPeriod: the pods added (or removed) within the last periodSeconds. */
function changeInPeriod(periodSeconds: number, events: ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.filter((e) => e.at > cutoff).reduce((s, e) => s + e.change, 0);
}

export function scaleUpLimit(current: number, upEvents: ScaleEvent[], downEvents: ScaleEvent[], rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  let result = rules.selectPolicy === 'Min' ? Infinity : -Infinity;
  for (const p of rules.policies) {
    const start = current - changeInPeriod(p.periodSeconds, upEvents, now) + changeInPeriod(p.periodSeconds, downEvents, now);
    // The Percent proposal rounds up so a small set can always grow.
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = rules.selectPolicy === 'Min' ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

export function scaleDownLimit(
  current: number,
  upEvents: ScaleEvent[],
  downEvents: ScaleEvent[],
  rules: ScalingRules,
  now: number,
): number {
  if (rules.selectPolicy === 'Disabled') return current;
  let result = rules.selectPolicy === 'Min' ? -Infinity : Infinity;
  for (const p of rules.policies) {
    const start = current - changeInPeriod(p.periodSeconds, upEvents, now) + changeInPeriod(p.periodSeconds, downEvents, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = rules.selectPolicy === 'Min' ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** convertDesiredReplicasWithBehaviorRate. */
export function convertWithBehaviorRate(args: {
  current: number;
  desired: number;
  min: number;
  max: number;
  upEvents: ScaleEvent[];
  downEvents: ScaleEvent[];
  behavior: Behavior;
  now: number;
}) {
  const { current, desired, min, max } = args;
  if (desired > current) {
    const limit = Math.max(current, scaleUpLimit(current, args.upEvents, args.downEvents, args.behavior.scaleUp, args.now));
    const maximum = max > limit ? limit : max;
    const reason = max > limit ? 'ScaleUpLimit' : 'TooManyReplicas';
    if (desired > maximum) return { replicas: maximum, reason };
  } else if (desired < current) {
    const limit = Math.min(current, scaleDownLimit(current, args.upEvents, args.downEvents, args.behavior.scaleDown, args.now));
    const minimum = min < limit ? limit : min;
    const reason = min < limit ? 'ScaleDownLimit' : 'TooFewReplicas';
    if (desired < minimum) return { replicas: minimum, reason };
  }
  return { replicas: desired, reason: 'DesiredWithinRange' };
}

/** storeScaleEvent: keep the events of the longest policy period, add this one. */
export function recordScaleEvent(
  upEvents: ScaleEvent[],
  downEvents: ScaleEvent[],
  behavior: Behavior,
  previous: number,
  next: number,
  now: number,
) {
  const longest = (r: ScalingRules) => Math.max(0, ...r.policies.map((p) => p.periodSeconds)) * 1000;
  const keepUp = upEvents.filter((e) => e.at > now - longest(behavior.scaleUp));
  const keepDown = downEvents.filter((e) => e.at > now - longest(behavior.scaleDown));
  if (next > previous) return { upEvents: [...keepUp, { at: now, change: next - previous }], downEvents: keepDown };
  return { upEvents: keepUp, downEvents: [...keepDown, { at: now, change: previous - next }] };
}
