// What the loops' check tests share: a check scenario searched in-process as `loopscope check FILE`
// searches it, and the readings of its result the pinned tables compare (verdicts, the environment's
// moves on a path).
import type { CheckOptions, CheckRun } from '../../sim/check/check';
import { checkScenario } from '../../sim/check/check';
import type { PathStep } from '../../sim/check/model';
import { loadScenario } from '../../sim/loops';

export function checkFile(file: string, options: CheckOptions = {}): CheckRun {
  const { entry, scenario } = loadScenario(file);
  return checkScenario(entry, scenario, options);
}

/** Every property's status, by name. */
export const verdictsOf = (run: CheckRun): Record<string, string> =>
  Object.fromEntries(run.result.verdicts.map((v) => [v.property.name, v.status]));

/** One property's verdict (the test names a property the scenario checks). */
export function verdictOf(run: CheckRun, name: string): CheckRun['result']['verdicts'][number] {
  const found = run.result.verdicts.find((v) => v.property.name === name);
  if (!found)
    throw new Error(
      `${run.scenario.name}: no verdict for ${name} (checked: ${run.result.verdicts.map((v) => v.property.name).join(', ')})`,
    );
  return found;
}

/** The environment's moves on a path, each with the step it happens at. */
export const envMoves = (run: CheckRun, path: readonly PathStep[] | undefined): { at: number; label: string }[] =>
  (path ?? []).flatMap((s, at) => (s.kind === 'env' ? [{ at, label: run.alphabet[s.index]!.label }] : []));

/** The same moves as "step: label" lines, the form the pinned tables read best in. */
export const movesAt = (run: CheckRun, path: readonly PathStep[] | undefined): string[] =>
  envMoves(run, path).map((m) => `${m.at}: ${m.label}`);
