/** The explorer benchmark's HPA configurations (shared by bench/explorer*.ts and the SPIN comparison). */
import { DEFAULT_CONFIG } from '../machines/incus-hpa';
import type { HpaConfig } from '../machines/incus-hpa';
import type { LoadedScenario } from '../sim/loops/registry';
import { DEFAULT_PARAMS } from '../sim/loops/incus-hpa';
import type { TimelineEntry } from '../sim/runner';
import type { HpaFault, HpaWorld, SimInstance } from '../sim/worlds/incus-hpa';
import { createHpaWorld } from '../sim/worlds/incus-hpa';

const MB = 1e6;

/** A bounded HPA configuration whose state space grows with maxPods and the number of moves. */
export function benchScenario(maxPods: number, moves: TimelineEntry<HpaFault, HpaConfig>[], policy: HpaConfig['policy']): LoadedScenario {
  const config: HpaConfig = {
    ...DEFAULT_CONFIG,
    policy,
    minPods: 1,
    maxPods,
    memoryThreshold: 50,
    limitsMemoryBytes: 1000 * MB,
    backoffInitialMs: 5_000,
    backoffMaxMs: 15_000,
    downscaleStabilizationMs: 30_000,
  };
  const instances: SimInstance[] = [
    { name: 'pod-a', owner: config.name, status: 'Running', limitBytes: 1000 * MB, stressBytes: 0, serves: true, createdAt: 0 },
    { name: 'podman-cache', owner: null, status: 'Running', limitBytes: 1000 * MB, stressBytes: 0, serves: false, createdAt: 0 },
  ];
  const world: HpaWorld = createHpaWorld(1, { ...DEFAULT_PARAMS, baselineBytes: 50 * MB }, instances, 300 * MB);
  return {
    file: `bench:${maxPods}`,
    name: `bench-${policy}-max${maxPods}-${moves.length}moves`,
    description: '',
    seed: 1,
    durationMs: 0,
    config,
    world,
    timeline: moves,
  };
}

const at = 0;
export const SMALL_MOVES: TimelineEntry<HpaFault, HpaConfig>[] = [
  { at, fault: { kind: 'demand', bytes: 2500 * MB } },
  { at, fault: { kind: 'kill', instance: 'pod-a' } },
  { at, fault: { kind: 'failApi', calls: 1 } },
  { at, fault: { kind: 'restartController' } },
  { at, fault: { kind: 'demand', bytes: 100 * MB } },
  { at, fault: { kind: 'failApi', calls: 1 } },
];
export const LARGE_MOVES: TimelineEntry<HpaFault, HpaConfig>[] = [
  ...SMALL_MOVES,
  { at, fault: { kind: 'slowApi', factor: 10, forMs: 30_000 } },
  { at, fault: { kind: 'demand', bytes: 1500 * MB } },
  { at, fault: { kind: 'restartController' } },
  { at, fault: { kind: 'deleteInstance', instance: 'pod-a' } },
  { at, fault: { kind: 'failApi', calls: 1 } },
];
