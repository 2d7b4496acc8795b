import { describe, expect, it } from 'vitest';
import {
  convertWithBehaviorRate,
  scaleDownLimit,
  scaleUpLimit,
  stabilizeWithBehaviors,
  withDefaults,
} from '../../machines/kubernetes/hpa/behavior';
import { runnerFor } from '../../sim/loops';
import type { KubeSummary } from '../../sim/loops/kubernetes-world-schema';
import { objects } from './helpers';

// kubernetes pkg/controller/podautoscaler/horizontal.go: stabilizeRecommendationWithBehaviors,
// convertDesiredReplicasWithBehaviorRate, calculateScaleUpLimitWithScalingRules,
// calculateScaleDownLimitWithBehaviors; defaults from pkg/apis/autoscaling/v2/defaults.go.
describe('HPA behavior: policies and stabilisation windows', () => {
  const b = withDefaults({});

  it('defaults: scale up by max(4 pods, 100%) per 15 s; scale down 100% per 15 s after a 300 s window', () => {
    expect(scaleUpLimit(2, [], [], b.scaleUp, 0)).toBe(6);
    expect(scaleUpLimit(10, [], [], b.scaleUp, 0)).toBe(20);
    expect(scaleDownLimit(10, [], [], b.scaleDown, 0)).toBe(0);
    expect(b.scaleDown.stabilizationWindowSeconds).toBe(300);
  });

  it('Pods and Percent policies count the changes already made in their period; selectPolicy picks', () => {
    const rules = {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max' as const,
      policies: [
        { type: 'Pods' as const, value: 2, periodSeconds: 60 },
        { type: 'Percent' as const, value: 50, periodSeconds: 60 },
      ],
    };
    // 10 pods, 4 added 30 s ago: the period started at 6 → Pods: 8, Percent: ceil(6 × 1.5) = 9.
    const up = [{ at: 30_000, change: 4 }];
    expect(scaleUpLimit(10, up, [], rules, 60_000)).toBe(9);
    expect(scaleUpLimit(10, up, [], { ...rules, selectPolicy: 'Min' }, 60_000)).toBe(8);
    expect(scaleUpLimit(10, up, [], { ...rules, selectPolicy: 'Disabled' }, 60_000)).toBe(10);
    // Once the event left the period, the full allowance is back.
    expect(scaleUpLimit(10, up, [], rules, 100_000)).toBe(15);
    const down = {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max' as const,
      policies: [
        { type: 'Percent' as const, value: 10, periodSeconds: 60 },
        { type: 'Pods' as const, value: 1, periodSeconds: 60 },
      ],
    };
    expect(scaleDownLimit(10, [], [], down, 0)).toBe(9); // Max change: min(trunc(9), 9)
    expect(scaleDownLimit(30, [], [], down, 0)).toBe(27);
  });

  it('ScaleUpLimit and TooFewReplicas reasons (ScalingLimited)', () => {
    expect(
      convertWithBehaviorRate({ current: 2, desired: 10, min: 1, max: 20, upEvents: [], downEvents: [], behavior: b, now: 0 }),
    ).toEqual({ replicas: 6, reason: 'ScaleUpLimit' });
    expect(convertWithBehaviorRate({ current: 2, desired: 10, min: 1, max: 5, upEvents: [], downEvents: [], behavior: b, now: 0 })).toEqual(
      { replicas: 5, reason: 'TooManyReplicas' },
    );
    expect(convertWithBehaviorRate({ current: 5, desired: 1, min: 2, max: 5, upEvents: [], downEvents: [], behavior: b, now: 0 })).toEqual({
      replicas: 2,
      reason: 'TooFewReplicas',
    });
  });

  it('the down window holds the highest recommendation; the up window the lowest', () => {
    const windows = withDefaults({ scaleUp: { stabilizationWindowSeconds: 60 }, scaleDown: { stabilizationWindowSeconds: 120 } });
    const recs = [
      { at: 0, replicas: 8 },
      { at: 50_000, replicas: 3 },
    ];
    expect(stabilizeWithBehaviors(recs, 100_000, 5, 2, windows)).toMatchObject({ replicas: 5, reason: 'ScaleDownStabilized' });
    expect(stabilizeWithBehaviors(recs, 100_000, 5, 9, windows)).toMatchObject({ replicas: 5, reason: 'ScaleUpStabilized' });
    expect(stabilizeWithBehaviors(recs, 160_000, 5, 2, windows).replicas).toBe(3);
    expect(stabilizeWithBehaviors(recs, 200_000, 5, 2, windows).replicas).toBe(2);
  });
});

function replicasOverTime(policy?: string, until = 21 * 60_000) {
  const { runner } = runnerFor('scenarios/kubernetes-hpa.yaml', policy ? { policy } : {});
  runner.run(until);
  return runner.frames.map((f) => ({ t: f.t, replicas: (f.world as KubeSummary).deployments[0]!.ready.split('/').map(Number)[1]! }));
}

/** How often the desired count changes direction (up→down or down→up). */
function reversals(series: { t: number; replicas: number }[], from: number): number {
  let last = 0;
  let count = 0;
  for (let i = 1; i < series.length; i++) {
    if (series[i]!.t < from) continue;
    const d = Math.sign(series[i]!.replicas - series[i - 1]!.replicas);
    if (d !== 0 && last !== 0 && d !== last) count++;
    if (d !== 0) last = d;
  }
  return count;
}

describe('stabilisation under a load that swings every 2 minutes (scenarios/kubernetes-hpa.yaml)', () => {
  it('the kubernetes HPA scales up once and holds; the seed rule on the same plane flaps', () => {
    const k8s = replicasOverTime();
    const seed = replicasOverTime('seed');
    const after = (s: typeof k8s, t: number) => s.filter((p) => p.t >= t).map((p) => p.replicas);
    expect(Math.min(...after(k8s, 90_000))).toBe(6);
    expect(reversals(k8s, 0)).toBe(0);
    expect(reversals(seed, 0)).toBeGreaterThanOrEqual(8);
    expect(Math.min(...after(seed, 90_000))).toBe(1);
  });

  it('once the load stays low (from 19m), the HPA scales down only 300 s after its last high recommendation', () => {
    const k8s = replicasOverTime('kubernetes', 30 * 60_000);
    // The last sync that saw the high load was at 18:46.5; 300 s later the window lets go.
    const firstLow = k8s.find((p) => p.t > 19 * 60_000 && p.replicas === 1)!;
    expect(firstLow.t).toBeGreaterThanOrEqual(18 * 60_000 + 46_500 + 300_000);
    expect(firstLow.t).toBeLessThan(24 * 60_000 + 5_000);
  });
});

describe('scenarios/kubernetes-hpa-behavior.yaml: behavior policies on the plane', () => {
  it('scales up by max(2 pods, 50 %) per 30 s and down by 1 pod per 20 s after a 60 s window, with ScalingLimited set', () => {
    const { runner } = runnerFor('scenarios/kubernetes-hpa-behavior.yaml');
    runner.run(12 * 60_000);
    const steps: number[] = [];
    for (const f of runner.frames) {
      const r = Number((f.world as KubeSummary).deployments[0]!.ready.split('/')[1]);
      if (steps.at(-1) !== r) steps.push(r);
    }
    expect(steps.slice(0, 6)).toEqual([2, 4, 6, 9, 14, 20]);
    expect(steps.slice(6, 10)).toEqual([19, 18, 17, 16]);
    const firstDown = runner.frames.find((f) => f.note?.includes('scale 20 → 19'))!;
    expect(firstDown.t).toBeGreaterThanOrEqual(6 * 60_000 + 45_000);
    expect(runner.frames.some((f) => f.note?.includes('ScaleUpLimit 4'))).toBe(true);
    // The last sync (12 → … still stepping down) reports why it is limited, as kubectl describe hpa would.
    const hpa = objects(runner.world, 'HorizontalPodAutoscaler')[0]!;
    const conditions = (hpa.status as { conditions: { type: string; status: string; reason: string }[] }).conditions;
    expect(conditions).toContainEqual(expect.objectContaining({ type: 'AbleToScale', status: 'True' }));
    expect(conditions).toContainEqual(expect.objectContaining({ type: 'ScalingLimited', status: 'True', reason: 'ScaleDownLimit' }));
  });
});
