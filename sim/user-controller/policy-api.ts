/**
 * What a user's HPA policy module sees: `import { … } from 'loopscope/policy'`.
 *
 * A policy is the compare step of the Incus HPA (machines/incus-hpa): a pure function from what
 * the loop observed, its config and the memory it kept, to a Decision — the same signature as the
 * built-in seed, kubernetes and fixed policies (machines/incus-hpa/policies). The module exports
 * it as `policy`:
 *
 *   import type { Policy } from 'loopscope/policy';
 *   export const policy: Policy = ({ observation, config, memory }) => ({ … });
 *
 * What the simulator and the explorer need from a policy (the built-ins keep it too):
 * - pure: the same input gives the same Decision — no module-level variables carried between
 *   calls; what must persist goes in `memory.state` (plain JSON), which comes back next period;
 * - times read only as differences (observation.at − createdAt, at − memory's times): the explorer
 *   merges states that differ only by a shift in time;
 * - bounded memory: a counter in `memory.state` is capped, a list is pruned, or the explorer's
 *   states never end.
 * The sandbox takes away the clock and Math.random; a call has 1 s, then the period fails.
 *
 * This file is also evaluated INSIDE the module's sandbox (sim/user-controller/policy-sandbox.ts),
 * so it imports nothing at run time (types only) and touches nothing outside its arguments.
 */
import type { Decision as HpaDecision, ObservedInstance, PolicyInput } from '../../machines/incus-hpa/types';

export type {
  HpaAction,
  HpaConfig,
  JsonValue,
  Observation,
  ObservedInstance,
  PolicyInput,
  PolicyMemory,
} from '../../machines/incus-hpa/types';

/** A built-in policy's Decision; `policy` (the label) is filled in by loopscope: `module:<file>`. */
export type Decision = Omit<HpaDecision, 'policy'> & { policy?: string };
export type Policy = (input: PolicyInput) => Decision;

/** This HPA's own instances: those carrying its owner key (user.loopscope.hpa = config.name). */
export function ownedInstances({ observation, config }: PolicyInput): ObservedInstance[] {
  return observation.instances.filter((i) => i.owner === config.name);
}

/** floor(usage × 100 / total), as the seed computes it; null while Incus reports no memory.total. */
export function memoryPercent(i: ObservedInstance): number | null {
  return i.status === 'Running' && i.memoryTotal > 0 ? Math.floor((i.memoryUsage * 100) / i.memoryTotal) : null;
}

/** The floor of the mean memory percent over the Running instances that report one; null if none. */
export function averagePercent(instances: readonly ObservedInstance[]): number | null {
  const measured = instances.map(memoryPercent).filter((p): p is number => p !== null);
  return measured.length === 0 ? null : Math.floor(measured.reduce((s, p) => s + p, 0) / measured.length);
}

/** Oldest first (creation time, then name): who a scale-down removes first. */
export function oldestFirst(instances: readonly ObservedInstance[]): ObservedInstance[] {
  return [...instances].sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
}
