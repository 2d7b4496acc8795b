import type { CheckRun } from './check';
import type { Verdict } from './model';

/**
 * What a verdict means for the run: only a property the configuration promises can fail it;
 * a violated unpromised property is a finding (reported, not failed).
 */
export type Outcome = 'holds' | 'violated' | 'finding' | 'unknown';

/** `loopscope check` exit codes (2, bad input, is the CLI's; 130, interrupted, as every command's). */
export const EXIT = { holds: 0, violated: 1, badInput: 2, unknown: 3, interrupted: 130 } as const;

/** Whether Ctrl-C (or SIGTERM) stopped one of the searches: what they report is partial. */
export const wasInterrupted = (runs: readonly CheckRun[]) => runs.some((run) => run.result.stats.stopped === 'interrupted');

export const isPromised = (run: CheckRun, name: string) => run.promises.includes(name);

export function outcomeOf(run: CheckRun, verdict: Verdict<unknown, unknown>): Outcome {
  if (verdict.status === 'violated') return isPromised(run, verdict.property.name) ? 'violated' : 'finding';
  return verdict.status;
}

/**
 * The run as a whole: violated when a promised property is violated; otherwise unknown when a
 * bound (depth, states, or an eventually-property's horizon) left a promised one undecided.
 */
export function runOutcome(run: CheckRun): 'holds' | 'violated' | 'unknown' {
  const promised = run.result.verdicts.filter((v) => isPromised(run, v.property.name));
  if (promised.some((v) => v.status === 'violated')) return 'violated';
  if (promised.some((v) => v.status === 'unknown')) return 'unknown';
  return 'holds';
}

/** Over several runs (--table): an interruption wins (the report is partial), then any
 * violation, then any unknown. */
export function exitCode(runs: readonly CheckRun[]): number {
  if (wasInterrupted(runs)) return EXIT.interrupted;
  const outcomes = runs.map(runOutcome);
  if (outcomes.includes('violated')) return EXIT.violated;
  if (outcomes.includes('unknown')) return EXIT.unknown;
  return EXIT.holds;
}

/** One line for the end of the text report: why the exit code is what it is. */
export function summaryLine(runs: readonly CheckRun[]): string {
  const all = runs.flatMap((run) => run.result.verdicts.map((v) => outcomeOf(run, v)));
  const count = (o: Outcome) => all.filter((x) => x === o).length;
  const code = exitCode(runs);
  const why =
    code === EXIT.interrupted
      ? 'interrupted before the search was complete (what was found stays, the undecided verdicts are unknown)'
      : code === EXIT.violated
        ? 'a promised property is violated'
        : code === EXIT.unknown
          ? 'a bound was reached before every promised property was decided'
          : 'every promised property holds';
  return `result: ${why} (${count('violated')} violated, ${count('unknown')} unknown, ${count('finding')} finding${count('finding') === 1 ? '' : 's'} on unpromised properties) · exit ${code}\n`;
}
