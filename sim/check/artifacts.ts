import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckRun } from './check';

export type Counterexample = CheckRun['counterexamples'][number];

/** Files written for one counterexample (--out, --emit-test). */
export interface Artifacts { trace?: string; test?: string }

/** scenario[.policy].property: the stem of every file written for one counterexample. */
export const artifactStem = (run: CheckRun, property: string) => `${run.scenario.name}${run.policy ? `.${run.policy}` : ''}.${property}`;

/** --out: each counterexample's trace as JSON (loadable by the lab). */
export function writeTraces(runs: readonly CheckRun[], dir: string): Map<Counterexample, string> {
  mkdirSync(dir, { recursive: true });
  const written = new Map<Counterexample, string>();
  for (const run of runs) {
    for (const ce of run.counterexamples) {
      const path = join(dir, `${artifactStem(run, ce.property)}.trace.json`);
      writeFileSync(path, JSON.stringify(ce.trace) + '\n');
      // A differential finding's other history, beside it (otherTracePath).
      if (ce.other) writeFileSync(otherTracePath(path), JSON.stringify(ce.other.trace) + '\n');
      written.set(ce, path);
    }
  }
  return written;
}

/** Where writeTraces puts a counterexample's other history (a differential finding), next to its trace. */
export const otherTracePath = (tracePath: string) => tracePath.replace(/\.trace\.json$/, '.other.trace.json');
