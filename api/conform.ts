// conform: a real Incus HPA run (the trace `loopscope real --out` writes) replayed against the
// model, as `loopscope conform --json` replays it, with the report returned as data. It reads a
// file and runs the model: no Incus daemon is needed.
import { conform as replay } from '../sim/conform/conform';
import type { RealTrace } from '../sim/conform/load';
import { loadTracePolicies, parseRealTrace, readRealTrace } from '../sim/conform/load';
import { conformExitCode } from '../sim/conform/report';
import type { ConformReport, Trace } from './types';
import { UsageError } from '../cli/usage';

/** Options of `conform`. */
export interface ConformOptions {
  /** The policy module of a run whose policy is module:<file>, when it is not where the run found it (`--policy-module`). */
  policyModule?: string;
  /** What reports and messages call a trace given as an object (default "trace"); a file is called by its path. */
  name?: string;
}

/** The result of `conform`. */
export interface ConformResult {
  /** The report `loopscope conform --json` prints. */
  report: ConformReport;
  /** What `loopscope conform` would exit with: 0 the run conforms and kept its promises · 1 a divergence or a broken promise. */
  exitCode: number;
}

/**
 * Replays a real Incus HPA run against the model: a trace file written by `loopscope real --out`,
 * or that trace already parsed (its frames keep their `io` records).
 * @throws InputError when the file or object is not the trace of a real run with I/O records, or a policy module it names cannot be found; UsageError for a bad option.
 */
export async function conform(source: string | Trace, options: ConformOptions = {}): Promise<ConformResult> {
  if (options.policyModule !== undefined && typeof options.policyModule !== 'string')
    throw new UsageError('--policy-module', `expected a file path, got "${String(options.policyModule)}"`);
  let file: string;
  let real: RealTrace;
  if (typeof source === 'string') {
    file = source;
    real = readRealTrace(file);
  } else {
    file = options.name ?? 'trace';
    real = parseRealTrace(file, source);
  }
  const report = replay(file, real, loadTracePolicies(file, real, options.policyModule));
  return { report, exitCode: conformExitCode(report) };
}
