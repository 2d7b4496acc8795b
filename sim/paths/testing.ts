import { formatTimeline } from '../format';
import { loadScenario } from '../loops';
import { runCoverage } from './run-coverage';

/** What one scenario's run takes, for a test to assert on (ids as `loopscope paths` names them). */
export interface PathCoverage {
  transitions: string[];
  states: string[];
  /** The run as `loopscope sim` prints it, to read when a test fails. */
  timeline: string;
}

/**
 * Runs a scenario file as `loopscope sim` does, read again at every call, and returns the machine
 * transitions and states it took: what the tests `loopscope paths` writes assert on.
 */
export function pathCoverage(file: string): PathCoverage {
  const { entry, scenario } = loadScenario(file);
  const run = runCoverage(entry, scenario);
  return { transitions: [...run.transitions], states: [...run.states], timeline: formatTimeline(run.trace, entry.columns) };
}
