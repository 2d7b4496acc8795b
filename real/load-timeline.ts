// A scenario's demand timeline, for driving a real run like the simulated one:
// the initial `world.demand` and each timeline entry with a `demand` (other faults are sim-only).
import type { HpaScenario } from '../sim/loops/incus-hpa';
import { parseHpaScenario } from '../sim/loops/incus-hpa';
import { InputError } from '../sim/scenario/errors';
import { readYamlFile, scenarioNameOf } from '../sim/scenario/load';

export interface LoadTimeline {
  initial: number;
  steps: { at: number; bytes: number }[];
  durationMs: number;
}

export function loadTimelineOf(scenario: HpaScenario): LoadTimeline {
  const steps = scenario.timeline.flatMap((e) => ('fault' in e && e.fault.kind === 'demand' ? [{ at: e.at, bytes: e.fault.bytes }] : []));
  return { initial: scenario.world.demandBytes, steps: steps.sort((a, b) => a.at - b.at), durationMs: scenario.durationMs };
}

export function loadLoadTimeline(file: string): LoadTimeline {
  const doc = readYamlFile(file);
  if (!doc || typeof doc !== 'object' || !('loop' in doc) || doc.loop !== 'incus-hpa') {
    throw new InputError(file, 'loop', 'expected an incus-hpa scenario (loop: incus-hpa)');
  }
  return loadTimelineOf(parseHpaScenario(file, scenarioNameOf(file), doc));
}
