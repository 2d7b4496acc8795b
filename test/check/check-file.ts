// What the tests of shipped examples ask of a check: run the explorer on a scenario file, read its
// verdicts by property name, and name the environment moves of a counterexample path.
import type { CheckRun } from '../../sim/check/check';
import { checkScenario } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';

export const movesOf = (run: CheckRun, steps: readonly { kind: string; index?: number }[]) =>
  steps.flatMap((s) => (s.kind === 'env' && s.index !== undefined ? [run.alphabet[s.index]!.label] : []));

export function checkFile(file: string) {
  const { entry, scenario } = loadScenario(file);
  const run = checkScenario(entry, scenario);
  return { run, verdicts: Object.fromEntries(run.result.verdicts.map((v) => [v.property.name, v.status])) };
}
