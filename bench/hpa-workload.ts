import type { HpaConfig } from '../machines/incus-hpa';
import { DEFAULT_CONFIG } from '../machines/incus-hpa';
import { DEFAULT_PARAMS } from '../sim/loops/incus-hpa';
import type { TimelineEntry } from '../sim/runner';
import type { HpaFault, HpaWorld, SimInstance } from '../sim/worlds/incus-hpa';
import { createHpaWorld } from '../sim/worlds/incus-hpa';

export interface Workload {
  name: string;
  pods: number;
  hours: number;
  world: HpaWorld;
  config: HpaConfig;
  timeline: TimelineEntry<HpaFault, HpaConfig>[];
  untilMs: number;
}

const GB = 1e9;

/** N owned pods and a demand that swings between 30% and 90% of their memory every 30 min. */
export function hpaWorkload(pods: number, hours: number, policy: HpaConfig['policy']): Workload {
  const config: HpaConfig = {
    ...DEFAULT_CONFIG,
    policy,
    minPods: Math.ceil(pods / 2),
    maxPods: pods * 2,
    memoryThreshold: 60,
    limitsMemoryBytes: GB,
  };
  const instances: SimInstance[] = Array.from({ length: pods }, (_, i) => ({
    name: `pod${String(i).padStart(5, '0')}`,
    owner: config.name,
    status: 'Running',
    limitBytes: GB,
    stressBytes: 0,
    serves: true,
    createdAt: 0,
  }));
  const timeline: TimelineEntry<HpaFault, HpaConfig>[] = [];
  for (let step = 0; step * 30 < hours * 60; step++) {
    const level = 0.3 + 0.6 * (0.5 + 0.5 * Math.sin(step / 3));
    timeline.push({ at: step * 30 * 60_000, fault: { kind: 'demand', bytes: Math.round(level * pods * GB) } });
  }
  return {
    name: `${hours} h, ${pods} pods, ${policy}`,
    pods,
    hours,
    world: createHpaWorld(42, DEFAULT_PARAMS, instances),
    config,
    timeline,
    untilMs: hours * 3_600_000,
  };
}
