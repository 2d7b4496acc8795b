import type { LoopEntry, LoadedScenario } from '../loops/registry';
import { createRunner } from '../loops/registry';
import type { Trace } from '../trace';
import { TransitionRecorder } from './machine-transitions';

/** What one run of a scenario took: machine transitions (ids: machine-transitions.ts) and machine states. */
export interface RunCoverage {
  transitions: Set<string>;
  states: Set<string>;
  trace: Trace;
}

/**
 * Runs a scenario as `loopscope sim` does (the Runner, its timeline, up to its duration) and notes
 * every machine transition it takes: for each frame the machine was sent an event for, the
 * transitions that event takes from the snapshot before it; at the start and at a controller
 * restart, the machine's eventless transitions from its initial state.
 */
export function runCoverage(
  entry: LoopEntry,
  scenario: LoadedScenario,
  recorder = new TransitionRecorder(entry.binding.machine),
): RunCoverage {
  const runner = createRunner(entry, scenario);
  const { binding } = entry;
  const transitions = new Set(recorder.initial(binding.machineInput(runner.config)));
  const states = new Set([runner.stateValue]);
  for (let next = runner.nextEventAt; next !== undefined && next <= scenario.durationMs; next = runner.nextEventAt) {
    const before = runner.snapshot;
    const frames = runner.frames.length;
    runner.processNext();
    if (runner.frames.length === frames) continue;
    const frame = runner.frames[runner.frames.length - 1]!;
    const taken =
      frame.event === 'controller.restart'
        ? recorder.initial(binding.machineInput(runner.config))
        : runner.lastEvent
          ? recorder.taken(before, runner.lastEvent)
          : [];
    for (const id of taken) transitions.add(id);
    states.add(runner.stateValue);
  }
  return { transitions, states, trace: runner.trace() };
}
