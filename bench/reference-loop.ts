import type { HpaConfig, PolicyMemory } from '../machines/incus-hpa';
import { EMPTY_POLICY_MEMORY, backoffDelay, policyFor } from '../machines/incus-hpa';
import type { Observation } from '../machines/incus-hpa';
import type { OpResult } from '../sim/model';
import type { TimelineEntry } from '../sim/runner';
import type { HpaFault, HpaWorld } from '../sim/worlds/incus-hpa';
import { hpaWorldModel } from '../sim/worlds/incus-hpa';

/**
 * The HPA loop as plain functions, no state machine: the same world, the same policies, the
 * same timing (observe → decide at once → act sequentially → wait period; errors back off).
 * The benchmark runs it beside the machine to price the machine's overhead, and checks that
 * both make the same decisions.
 */
export function referenceLoop(world0: HpaWorld, config: HpaConfig, timeline: TimelineEntry<HpaFault, HpaConfig>[], until: number) {
  let world = world0;
  let t = 0;
  let next = 0;
  let memory: PolicyMemory = EMPTY_POLICY_MEMORY;
  let errors = 0;
  let periods = 0;
  const decisions: string[] = [];
  const applyTimeline = (now: number) => {
    for (; next < timeline.length && timeline[next]!.at <= now; next++) {
      const e = timeline[next]!;
      if ('fault' in e) world = hpaWorldModel.inject(world, e.fault, e.at).world;
    }
  };
  const call = (src: string, input: unknown): OpResult => {
    applyTimeline(t);
    const started = hpaWorldModel.begin(world, src, input, t);
    world = started.world;
    t = started.doneAt;
    applyTimeline(t); // changes that happen while the operation runs
    const done = hpaWorldModel.complete(world, started.opId, t);
    world = done.world;
    return done.result;
  };
  while (t <= until) {
    const observed = call('observe', { config });
    let failed = !observed.ok;
    if (observed.ok) {
      const decision = policyFor(config.policy)({ observation: observed.output as Observation, config, memory });
      memory = decision.memory;
      decisions.push(decision.verdict);
      for (const action of decision.actions) {
        if (t > until) break;
        const result =
          action.kind === 'create'
            ? call('createPod', { config })
            : call('deletePod', { config, name: action.name, waitForStop: action.waitForStop });
        if (!result.ok) {
          failed = true;
          break;
        }
      }
    }
    if (failed) {
      errors++;
      t += backoffDelay(config, errors);
      continue;
    }
    errors = 0;
    periods++;
    t += config.periodMs;
  }
  return { world, periods, decisions };
}
