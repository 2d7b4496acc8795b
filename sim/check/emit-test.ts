import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED } from '../compiled';
import type { CheckRun } from './check';
import type { Counterexample } from './artifacts';
import { artifactStem } from './artifacts';
import { lassoOf } from './lasso-trace';
import type { EmittedStep, ReplaySpec } from './replay-property';

/** The replay helper the emitted tests import: the installed package's public entry (resolved from the
 * user's project), or from source the file itself by absolute path, so a test works from any directory. */
const HELPER = COMPILED ? 'loopscope/testing' : fileURLToPath(new URL('./replay-property.ts', import.meta.url));

const literal = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));

/** The source of one emitted vitest file. */
function emittedTestSource(run: CheckRun, ce: Counterexample, spec: ReplaySpec, testFile: string): string {
  // A URL relative to the test file: each segment escaped (a `#` or `%` in a name is not a fragment or an escape).
  const segments = relative(dirname(testFile), spec.scenario)
    .split(sep)
    .map((s) => (s === '..' ? s : encodeURIComponent(s)));
  const scenarioUrl = segments[0] === '..' ? segments.join('/') : `./${segments.join('/')}`;
  const verdict = run.result.verdicts.find((v) => v.property.name === ce.property)!;
  const what = `${run.scenario.name}${run.policy ? ` · policy ${run.policy}` : ''}`;
  const steps = spec.path.map((s) => `  ${JSON.stringify(s)},`).join('\n');
  return `// Emitted by \`loopscope check --emit-test\` (${what}): replays the shortest counterexample of
// ${ce.property} (${verdict.property.kind}) through the real Runner, from the scenario file as it is now.
// It fails while the configuration allows the violation and passes once the configuration is fixed
// (edit the scenario, or POLICY below to check another policy).
import { expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { replayProperty } from ${literal(HELPER)};

// Relative to this file: the test keeps working in a clone of the repository it is committed to.
const SCENARIO = fileURLToPath(new URL(${literal(scenarioUrl)}, import.meta.url));
const POLICY: string | undefined = ${literal(spec.policy)};
const WITHIN_PERIODS: number | undefined = ${literal(spec.withinPeriods)};
const PATH = [
${steps}
] as const;${spec.cycleStart !== undefined ? `\n/** A lasso: PATH[CYCLE_START …] is the cycle, repeated for ever. */\nconst CYCLE_START = ${spec.cycleStart};` : ''}

it(${literal(`${ce.property} holds along the counterexample found for ${what}`)}, () => {
  const { failures, timeline } = replayProperty({
    scenario: SCENARIO, property: ${literal(ce.property)}, path: PATH,${spec.cycleStart !== undefined ? ' cycleStart: CYCLE_START,' : ''}
    ...(POLICY !== undefined ? { policy: POLICY } : {}), ...(WITHIN_PERIODS !== undefined ? { withinPeriods: WITHIN_PERIODS } : {}),
  });
  expect(failures, \`the replay:\\n\${timeline}\`).toEqual([]);
});
`;
}

/** --emit-test DIR: one vitest file per counterexample; returns the file of each. */
export function emitTests(
  runs: readonly CheckRun[],
  dir: string,
  scenarioFile: string,
  withinPeriods?: number,
): Map<Counterexample, string> {
  mkdirSync(dir, { recursive: true });
  const written = new Map<Counterexample, string>();
  for (const run of runs) {
    for (const ce of run.counterexamples) {
      const path: EmittedStep[] = ce.path.map((s) => (s.kind === 'tick' ? s : { ...s, label: run.alphabet[s.index]!.label }));
      const spec: ReplaySpec = {
        scenario: resolve(scenarioFile),
        property: ce.property,
        path,
        ...(lassoOf(run, ce) ? { cycleStart: lassoOf(run, ce)!.prefix } : {}),
        ...(run.variant !== undefined ? { policy: run.variant } : {}),
        ...(withinPeriods !== undefined ? { withinPeriods } : {}),
      };
      const file = resolve(join(dir, `${artifactStem(run, ce.property)}.test.ts`));
      writeFileSync(file, emittedTestSource(run, ce, spec, file));
      written.set(ce, file);
    }
  }
  return written;
}
