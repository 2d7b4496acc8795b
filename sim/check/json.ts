import type { CheckRun } from './check';
import type { Artifacts, Counterexample } from './artifacts';
import { otherTracePath } from './artifacts';
import type { PathStep } from './model';
import { movesAndChoices } from './model';
import { exitCode, isPromised, outcomeOf, runOutcome } from './outcome';
import { lassoOf } from './lasso-trace';

const lassoLengths = (l: { prefix: number; cycle: number }) => ({ prefixLength: l.prefix, cycleLength: l.cycle });

const finite = (ms: number | undefined) => (ms === undefined ? undefined : Number.isFinite(ms) ? ms : null);

const stepLabel = (run: CheckRun, s: PathStep) => (s.kind === 'tick' ? 'tick' : run.alphabet[s.index]!.label);

/** One run as `--format json` reports it. */
export function runJson(run: CheckRun, files: (ce: Counterexample) => Artifacts) {
  const { moves, choices } = movesAndChoices(run.alphabet);
  return {
    scenario: run.scenario.name,
    file: run.scenario.file,
    loop: run.loop,
    ...(run.policy !== undefined ? { policy: run.policy } : {}),
    outcome: runOutcome(run),
    environment: moves.map((m) => m.label),
    ...(choices.length ? { choices: choices.map((m) => m.label) } : {}),
    stats: run.result.stats,
    verdicts: run.result.verdicts.map((v) => ({
      property: v.property.name,
      kind: v.property.kind,
      claim: v.property.claim,
      status: v.status,
      promised: isPromised(run, v.property.name),
      outcome: outcomeOf(run, v),
      detail: v.detail,
      ...(v.property.withinMs !== undefined ? { withinMs: v.property.withinMs } : {}),
      // null: never settles
      ...(v.settleMs !== undefined ? { settleMs: finite(v.settleMs) } : {}),
      ...(v.path ? { path: v.path.map((s) => stepLabel(run, s)) } : {}),
      // A liveness counterexample: path[prefixLength …] is the cycle, repeated for ever.
      ...(v.path && v.cycleStart !== undefined ? { lasso: { prefixLength: v.cycleStart, cycleLength: v.path.length - v.cycleStart } } : {}),
    })),
    counterexamples: run.counterexamples.map((ce) => {
      const { trace, test } = files(ce);
      return {
        property: ce.property,
        promised: isPromised(run, ce.property),
        steps: ce.path.map((s) => stepLabel(run, s)),
        // The trace's frames from lasso.cycleStart on repeat for ever (prefixLength/cycleLength count steps).
        ...(lassoOf(run, ce) ? { lasso: { ...lassoLengths(lassoOf(run, ce)!), cycleStartFrame: ce.trace.lasso?.cycleStart } } : {}),
        // With --out the trace is a file (as the lab loads it); otherwise it is inline.
        ...(trace !== undefined ? { traceFile: trace } : { trace: ce.trace }),
        ...(test !== undefined ? { testFile: test } : {}),
        // A differential finding: the other history it was compared with, and what differs.
        ...(ce.other
          ? {
              other: {
                label: ce.other.label,
                difference: ce.other.difference,
                ...(trace !== undefined ? { traceFile: otherTracePath(trace) } : { trace: ce.other.trace }),
              },
            }
          : {}),
      };
    }),
  };
}

/** `--format json`: one document; `runs` holds one object per checked configuration. */
export function checkJson(runs: readonly CheckRun[], files: (ce: Counterexample) => Artifacts): string {
  return JSON.stringify({ exitCode: exitCode(runs), runs: runs.map((run) => runJson(run, files)) }, null, 2) + '\n';
}
