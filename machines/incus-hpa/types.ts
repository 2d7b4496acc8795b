/** What the HPA controller knows and decides. Plain data only: no world, no I/O. */
import type { KubernetesRelease } from '../hpa-algorithm/release';
import { DEFAULT_KUBERNETES_RELEASE } from '../hpa-algorithm/release';

export type PolicyName = 'seed' | 'kubernetes' | 'fixed';
export const POLICY_NAMES: readonly PolicyName[] = ['seed', 'kubernetes', 'fixed'];
/** A user's policy module, by its file relative to the working directory (`policy: { module }`). */
export type ModulePolicyId = `module:${string}`;
/** What a config names: a built-in policy or a user's module (registered in ./policies). */
export type PolicyId = PolicyName | ModulePolicyId;
export const isModulePolicy = (id: string): id is ModulePolicyId => id.startsWith('module:');

/** The controller's configuration: the seed's hpa.yaml keys plus loopscope's own. */
export interface HpaConfig {
  /** HPA name; instances it creates carry `user.loopscope.hpa=<name>` (see OWNER_KEY). */
  name: string;
  minPods: number;
  maxPods: number;
  /** Target memory utilisation in percent (1..100). */
  memoryThreshold: number;
  /** Accepted for compatibility with the seed's hpa.yaml; the seed never reads it. */
  cpuThreshold?: number;
  policy: PolicyId;
  /** The loop's period; the seed relied on systemd's RestartSec=10 + run time. */
  periodMs: number;
  /** Instances whose name starts with this are the seed's "pods". */
  namePrefix: string;
  /** limits.memory given to created instances, in bytes (0 = none). */
  limitsMemoryBytes: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** kubernetes policy: tolerance (default 0.1) and scale-down stabilisation window (300 s). */
  tolerance: number;
  downscaleStabilizationMs: number;
  /** kubernetes policy: the Kubernetes release whose HPA arithmetic to follow (default 1.35). */
  kubernetesRelease: KubernetesRelease;
}

export const OWNER_KEY = 'user.loopscope.hpa';

export const DEFAULT_CONFIG: HpaConfig = {
  name: 'hpa',
  minPods: 1,
  maxPods: 5,
  memoryThreshold: 70,
  policy: 'seed',
  periodMs: 15_000,
  namePrefix: 'pod',
  limitsMemoryBytes: 1024 ** 3,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
  tolerance: 0.1,
  downscaleStabilizationMs: 300_000,
  kubernetesRelease: DEFAULT_KUBERNETES_RELEASE,
};

/** Incus instance statuses the loop can see (the sim adds the transitional ones). */
export type InstanceStatus = 'Starting' | 'Running' | 'Stopping' | 'Stopped' | 'Frozen' | 'Error';

/** One instance as the observe actor reports it (Incus: GET /1.0/instances?recursion=2). */
export interface ObservedInstance {
  name: string;
  status: InstanceStatus;
  /** Value of the owner key, or null when absent. */
  owner: string | null;
  /** state.memory.usage and state.memory.total in bytes; total is the limit, 0 if unknown. */
  memoryUsage: number;
  memoryTotal: number;
  /** Creation time in ms (the world's clock). */
  createdAt: number;
}

export interface Observation {
  /** When the observation was taken, ms on the runner's clock. */
  at: number;
  instances: ObservedInstance[];
}

export type HpaAction =
  | { kind: 'create' }
  /** waitForStop=false reproduces the seed: stop is fired and delete follows at once. */
  | { kind: 'delete'; name: string; waitForStop: boolean };

export interface TimestampedRecommendation {
  at: number;
  replicas: number;
}

/** Plain JSON: what a policy module may keep between periods (the explorer hashes it). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** State a policy carries between periods (the kubernetes policy's recommendations). */
export interface PolicyMemory {
  recommendations: TimestampedRecommendation[];
  /** A policy module's own state (e.g. a PID's integral); the built-in policies keep none. */
  state?: JsonValue;
}

export const EMPTY_POLICY_MEMORY: PolicyMemory = { recommendations: [] };

export interface Decision {
  policy: PolicyId;
  /** Pods the policy counted as running (its own definition). */
  running: number;
  /** Average memory percent the policy computed, null when it could not. */
  averagePercent: number | null;
  /** Replica count the policy aims at after this period's actions. */
  desired: number;
  actions: HpaAction[];
  /** The comparison in words, e.g. "avg 63% ≥ threshold 40%, 2 pods < max 5". */
  comparison: string;
  /** What will be done, in words. */
  verdict: string;
  memory: PolicyMemory;
}

export interface PolicyInput {
  observation: Observation;
  config: HpaConfig;
  memory: PolicyMemory;
}

export type Policy = (input: PolicyInput) => Decision;
