// A step policy for the Incus HPA, as a loopscope policy module: the compare step of the loop,
// a pure function (observation, config, memory) → Decision, run sandboxed in sim, check and real.
// Out of [min, max] it goes straight to the bound; on load it adds one pod plus one per 20 points
// above the threshold, clamped to max; below threshold/2 it removes one pod a period (the oldest),
// from the second period in a row (hysteresis, counted in memory.state); it waits while a pod starts, and
// deletes its own instances left Stopped or in Error.
//   loopscope check examples/hpa-policy/check.yaml      → holds on these bounds
//   loopscope sim examples/hpa-policy/check.yaml        → one run, as a timeline
import type { Decision, HpaAction, JsonValue, Policy } from 'loopscope/policy';
import { averagePercent, oldestFirst, ownedInstances } from 'loopscope/policy';

/** Each full 20 points of memory above the threshold adds one more pod to a step up. */
const STEP_PERCENT = 20;
/** Periods in a row below threshold/2 before a step down (capped: the explorer needs finite state). */
const LOW_PERIODS = 2;

const lowPeriodsOf = (state: JsonValue | undefined): number =>
  state !== null && typeof state === 'object' && !Array.isArray(state) && typeof state.low === 'number' ? state.low : 0;

export const policy: Policy = (input) => {
  const { config, memory } = input;
  const owned = ownedInstances(input);
  const active = owned.filter((i) => i.status === 'Running' || i.status === 'Starting');
  const starting = active.filter((i) => i.status === 'Starting').length;
  const cleanup: HpaAction[] = owned
    .filter((i) => i.status === 'Stopped' || i.status === 'Error')
    .map((i) => ({ kind: 'delete', name: i.name, waitForStop: true }));
  const count = active.length;
  const avg = averagePercent(active);
  const threshold = config.memoryThreshold;
  const low = avg !== null && avg < threshold / 2 ? Math.min(lowPeriodsOf(memory.state) + 1, LOW_PERIODS) : 0;
  const avgText = avg === null ? 'no pod measured' : `avg ${avg}%`;
  const decide = (desired: number, actions: HpaAction[], comparison: string, verdict: string): Decision => ({
    running: count,
    averagePercent: avg,
    desired,
    actions: [...cleanup, ...actions],
    comparison,
    verdict: cleanup.length ? `${verdict} + remove ${cleanup.length} stopped` : verdict,
    memory: { recommendations: memory.recommendations, state: { low } },
  });
  const creates = (n: number): HpaAction[] => Array.from({ length: n }, () => ({ kind: 'create' }));
  const deletes = (n: number): HpaAction[] =>
    oldestFirst(active)
      .slice(0, n)
      .map((i) => ({ kind: 'delete', name: i.name, waitForStop: true }));

  if (count < config.minPods)
    return decide(
      config.minPods,
      creates(config.minPods - count),
      `${count} pods < min ${config.minPods}`,
      `create ${config.minPods - count}`,
    );
  if (count > config.maxPods)
    return decide(
      config.maxPods,
      deletes(count - config.maxPods),
      `${count} pods > max ${config.maxPods}`,
      `delete ${count - config.maxPods} oldest`,
    );
  if (starting > 0) return decide(count, [], `${avgText}, ${starting} starting`, 'wait for it');
  if (avg !== null && avg >= threshold && count < config.maxPods) {
    const step = 1 + Math.floor((avg - threshold) / STEP_PERCENT);
    const n = Math.min(step, config.maxPods - count);
    return decide(
      count + n,
      creates(n),
      `${avgText} ≥ threshold ${threshold}%: step ${step}, ${count} pods < max ${config.maxPods}`,
      `create ${n}`,
    );
  }
  if (low >= LOW_PERIODS && count > config.minPods) {
    return decide(
      count - 1,
      deletes(1),
      `${avgText} < threshold/2 for ${LOW_PERIODS}+ periods, ${count} pods > min ${config.minPods}`,
      'delete 1 oldest',
    );
  }
  return decide(count, [], `${avgText}, ${count} pods${low ? ` (low ${low}/${LOW_PERIODS})` : ''}`, 'no scale action');
};
