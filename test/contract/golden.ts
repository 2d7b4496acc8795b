import { createHash } from 'node:crypto';
import { runnerFor } from '../../sim/loops';
import { SHIPPED_SCENARIOS } from './scenarios';

/** Where the pinned hashes live; `npm run golden` rewrites it after an intended change. */
export const GOLDEN_FILE = 'test/contract/golden-traces.json';

/** The scenarios pinned: every shipped one except the benchmark's (it runs for a simulated day). */
export const GOLDEN_SCENARIOS = SHIPPED_SCENARIOS.filter((f) => !f.includes('/bench-'));

/** sha256 of a scenario's whole trace (`loopscope sim <file> --json`), and its frame count. */
export function traceDigest(file: string): { sha256: string; frames: number } {
  const { scenario, runner } = runnerFor(file);
  runner.run(scenario.durationMs);
  const text = JSON.stringify(runner.trace());
  return { sha256: createHash('sha256').update(text).digest('hex'), frames: runner.frames.length };
}
