import type { Decision, Policy } from '../types';

/**
 * The talk's lab rule, exactly as written in Forge-Operator-Lab cmd/main.go `runHPALoop`,
 * quirks included (they are what the checker is for):
 * - pods are instances whose name starts with the prefix (anyone's instances);
 * - only Running pods with memory.total > 0 count; percent = floor(usage*100/total);
 * - average = floor(sum / running) (Go integer division);
 * - running = 0 and min > 0 → create one; avg ≥ threshold and running < max → create one;
 *   avg < threshold/2 (integer division) and running > min → delete the LAST pod in the list,
 *   whatever its status; stop is fired without waiting, then delete follows at once;
 * - at most one action per period; Stopped pods are ignored when counting.
 */
export const seedPolicy: Policy = ({ observation, config, memory }) => {
  const pods = observation.instances.filter((i) => i.name.startsWith(config.namePrefix));
  let sum = 0;
  let running = 0;
  for (const pod of pods) {
    if (pod.status !== 'Running' || pod.memoryTotal <= 0) continue;
    sum += Math.floor((pod.memoryUsage * 100) / pod.memoryTotal);
    running++;
  }
  const base = { policy: 'seed' as const, running, memory };
  const threshold = config.memoryThreshold;

  if (running === 0) {
    if (config.minPods > 0) {
      return {
        ...base,
        averagePercent: null,
        desired: 1,
        actions: [{ kind: 'create' }],
        comparison: `0 pods running, min ${config.minPods} > 0`,
        verdict: 'create 1 pod',
      };
    }
    return { ...base, averagePercent: null, desired: 0, actions: [], comparison: '0 pods running, min 0', verdict: 'no scale action' };
  }

  const avg = Math.floor(sum / running);
  if (avg >= threshold) {
    if (running < config.maxPods) {
      return {
        ...base,
        averagePercent: avg,
        desired: running + 1,
        actions: [{ kind: 'create' }],
        comparison: `avg ${avg}% ≥ threshold ${threshold}%, ${running} pods < max ${config.maxPods}`,
        verdict: 'create 1 pod',
      };
    }
    // The lab logs "already at max" and falls through to the scale-down test, which cannot hold.
  }
  const half = Math.floor(threshold / 2);
  if (avg < half) {
    if (running > config.minPods) {
      const victim = pods[pods.length - 1];
      if (victim) {
        return {
          ...base,
          averagePercent: avg,
          desired: running - 1,
          actions: [{ kind: 'delete', name: victim.name, waitForStop: false }],
          comparison: `avg ${avg}% < threshold/2 ${half}%, ${running} pods > min ${config.minPods}`,
          verdict: `delete ${victim.name} (last in the list)`,
        };
      }
    }
    return {
      ...base,
      averagePercent: avg,
      desired: running,
      actions: [],
      comparison: `avg ${avg}% < threshold/2 ${half}%, ${running} pods = min ${config.minPods}`,
      verdict: 'already at min: no scale action',
    };
  }
  const atMax = avg >= threshold;
  return {
    ...base,
    averagePercent: avg,
    desired: running,
    actions: [],
    comparison: atMax
      ? `avg ${avg}% ≥ threshold ${threshold}%, ${running} pods = max ${config.maxPods}`
      : `threshold/2 ${half}% ≤ avg ${avg}% < threshold ${threshold}%`,
    verdict: atMax ? 'already at max: no scale action' : 'no scale action',
  } satisfies Decision;
};
