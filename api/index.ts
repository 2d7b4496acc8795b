/**
 * loopscope's programmatic API: `import { loadScenario, simulate, check, conform } from 'loopscope'`.
 *
 * Each function does what the CLI command of the same name does and returns, as data, what that
 * command prints with --json: `simulate` the trace of `loopscope sim --json`, `check` the document of
 * `loopscope check --format json`, `conform` the report of `loopscope conform --json`, each with the
 * exit code the command would give. Nothing is printed and the process is never exited; bad input
 * throws an InputError (or InputErrors, several lines) or a UsageError whose message is the line the
 * CLI prints for the same mistake (an option's message names the flag it mirrors). docs/api.md.
 */
export type { LoadOptions, Scenario } from './scenario';
export { loadScenario } from './scenario';
export type { SimulateOptions, SimulationResult, SimulationSummary } from './simulate';
export { simulate } from './simulate';
export type { CheckOptions, CheckResult, CheckRunResult, CounterexampleResult, OtherHistoryResult, VerdictResult } from './check';
export { check } from './check';
export type { ConformOptions, ConformResult } from './conform';
export { conform } from './conform';

export type {
  ConformReport,
  ControllerSummary,
  Divergence,
  DivergencePart,
  EnvMoveUsed,
  ExploreStats,
  Frame,
  LoopId,
  Outcome,
  Phase,
  PropertyKind,
  PropertyResult,
  StopReason,
  Trace,
  VerdictStatus,
} from './types';

/** Bad input in a file: names the file, the field and what was expected (the CLI exits 2 on it). */
export { InputError, InputErrors } from '../sim/scenario/errors';
/** A bad option: names the flag it mirrors and what was expected (the CLI exits 2 on it). */
export { UsageError } from '../cli/usage';
