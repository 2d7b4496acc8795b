// check: every reachable state of a small scenario explored, as `loopscope check --format json`
// explores it, and the document that command prints returned as data (counterexample traces inline).
import type { CheckRun } from '../sim/check/check';
import { checkScenarioAsync } from '../sim/check/check';
import { runJson } from '../sim/check/json';
import { exitCode } from '../sim/check/outcome';
import type { ExploreStats, Outcome, PropertyKind, Trace, VerdictStatus } from './types';
import { countOption, policyOption } from './options';
import type { Scenario } from './scenario';
import { resolveScenario } from './scenario';

/** Options of `check`; each mirrors a `loopscope check` flag. */
export interface CheckOptions {
  /** Stop expanding after this many steps from the start (`--depth`). */
  depth?: number;
  /** Stop after this many distinct states (`--max-states`; default 2 000 000). */
  maxStates?: number;
  /** Worker threads for the search (`--workers`); default 1: the search runs in this thread. */
  workers?: number;
  /** One of the loop's policies to check instead of the scenario's (`--policy`). */
  policy?: string;
  /** Convergence bound K in periods (`--within`; default per policy). */
  within?: number;
  /** Aborting stops the search: the partial result is returned, undecided verdicts unknown (exit code 130, as Ctrl-C). */
  signal?: AbortSignal;
}

/** One property's verdict. */
export interface VerdictResult {
  property: string;
  kind: PropertyKind;
  /** One sentence: what is claimed. */
  claim: string;
  status: VerdictStatus;
  /** Whether this configuration promises it: only a promised property can fail the check. */
  promised: boolean;
  /** What the verdict means for the run: a violated unpromised property is a `finding`. */
  outcome: Outcome;
  detail: string;
  /** eventually: the bound (ms) within which it must hold once the environment stops acting. */
  withinMs?: number;
  /** eventually: the longest settle time seen (ms); null: never settles. */
  settleMs?: number | null;
  /** The steps to the violation (or, for sometimes, to a witness): environment moves by label, or `tick`. */
  path?: string[];
  /** A liveness counterexample: path[prefixLength …] is a cycle repeated for ever. */
  lasso?: { prefixLength: number; cycleLength: number };
}

/** The other history a differential property compared the counterexample with. */
export interface OtherHistoryResult {
  label: string;
  /** What differs between the two histories. */
  difference: string;
  trace: Trace;
}

/** The shortest run that violates a property, as a trace. */
export interface CounterexampleResult {
  property: string;
  promised: boolean;
  /** The environment's moves by label, and `tick` where time passed. */
  steps: string[];
  /** A liveness counterexample: the trace's frames from `cycleStartFrame` on repeat for ever. */
  lasso?: { prefixLength: number; cycleLength: number; cycleStartFrame?: number };
  /** The run, frame by frame (loadable by the lab as a trace file). */
  trace: Trace;
  other?: OtherHistoryResult;
}

/** One checked configuration: the scenario with its own policy, or the one asked for. */
export interface CheckRunResult {
  scenario: string;
  file: string;
  loop: string;
  policy?: string;
  outcome: 'holds' | 'violated' | 'unknown';
  /** The environment's alphabet: each timeline entry's label. */
  environment: string[];
  stats: ExploreStats;
  verdicts: VerdictResult[];
  counterexamples: CounterexampleResult[];
}

/** The result of `check`: what `loopscope check --format json` prints. */
export interface CheckResult {
  /** 0 every promised property holds · 1 a promised property is violated · 3 a bound was reached first · 130 aborted. */
  exitCode: number;
  runs: CheckRunResult[];
}

/** Ctrl-C's exit code, which the CLI gives an interrupted search. */
const INTERRUPTED = 130;

/** The trace of a counterexample: always inline here, since the API writes no files. */
function inline(from: { trace: Trace } | { traceFile: string }): Trace {
  if ('trace' in from) return from.trace;
  throw new Error(`check: a counterexample trace went to ${from.traceFile}, but the API writes no files`);
}

function runResult(run: CheckRun): CheckRunResult {
  const json = runJson(run, () => ({}));
  return {
    ...json,
    counterexamples: json.counterexamples.map((ce) => ({
      property: ce.property,
      promised: ce.promised,
      steps: ce.steps,
      ...(ce.lasso ? { lasso: ce.lasso } : {}),
      trace: inline(ce),
      ...(ce.other ? { other: { label: ce.other.label, difference: ce.other.difference, trace: inline(ce.other) } } : {}),
    })),
  };
}

/**
 * Explores every reachable state of a scenario (a file, or a handle from `loadScenario`): its
 * timeline is what the environment may do, at any instant, in any order.
 * @throws InputError for a bad scenario file, a scenario check cannot explore, or a bad policy; UsageError for a bad option.
 */
export async function check(source: Scenario | string, options: CheckOptions = {}): Promise<CheckResult> {
  const maxDepth = countOption('--depth', options.depth);
  const maxStates = countOption('--max-states', options.maxStates);
  const workers = countOption('--workers', options.workers) ?? 1;
  const withinPeriods = countOption('--within', options.within);
  const asked = policyOption(options.policy);
  const { entry, scenario, variant } = resolveScenario(source);
  const policy = asked ?? variant;
  const run = await checkScenarioAsync(entry, scenario, {
    ...(policy !== undefined ? { policy } : {}),
    ...(maxDepth ? { maxDepth } : {}),
    ...(maxStates ? { maxStates } : {}),
    ...(withinPeriods ? { withinPeriods } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    memo: true,
    symmetry: true,
    workers,
  });
  const runs = [run];
  return { exitCode: options.signal?.aborted ? INTERRUPTED : exitCode(runs), runs: runs.map(runResult) };
}
