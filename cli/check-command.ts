import type { Command } from 'commander';
import { scenarioArgument } from './shipped';
import { mkdirSync } from 'node:fs';
import type { Artifacts, Counterexample } from '../sim/check/artifacts';
import type { TraceFormat } from '../sim/check/artifacts';
import { TRACE_FORMATS, otherTracePath, writeTraces } from '../sim/check/artifacts';
import type { CheckRun } from '../sim/check/check';
import { checkOf, checkScenarioAsync, variantNames } from '../sim/check/check';
import { parseBytes } from '../sim/units';
import { isCheckScenario, notACheckScenarioWarning, UNMARKED_BOUNDS } from './check-bounds';
import { progressReporter } from './check-progress';
import { PARALLEL_FROM_CORES, defaultWorkers } from '../sim/check/parallel';
import { emitTests } from '../sim/check/emit-test';
import { checkJson } from '../sim/check/json';
import { lassoOf } from '../sim/check/lasso-trace';
import { junitReport } from '../sim/check/junit';
import { EXIT, exitCode, summaryLine, wasInterrupted } from '../sim/check/outcome';
import type { LoopEntry } from '../sim/loops/registry';
import { LOOPS } from '../sim/loops/registry';
import { findingsTable, formatReport } from '../sim/check/report';
import { formatTimeline } from '../sim/format';
import type { Frame } from '../sim/trace';
import { loadScenario } from '../sim/loops';
import { didYouMean } from '../sim/scenario/suggest';
import { CHECK_EXIT_CODES, UsageError } from './usage';
import { diskOptions } from './check-disk';
import { errorCode } from '../sim/error-code';

interface CheckFlags {
  checkpoint?: string;
  checkpointEvery?: string;
  spill?: string;
  depth?: string;
  maxStates?: string;
  maxMemory?: string;
  progress?: boolean;
  memo?: boolean;
  symmetry?: boolean;
  workers?: string;
  out?: string;
  traceFormat?: string;
  policy?: string;
  within?: string;
  table?: boolean;
  format?: string;
  emitTest?: string;
}

const FORMATS = ['text', 'json', 'junit'] as const;
type Format = (typeof FORMATS)[number];

function positive(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new UsageError(option, `expected a whole number ≥ 1, got "${text}"`);
  return Number(text);
}

function formatOf(text: string | undefined): Format {
  const format = FORMATS.find((f) => f === (text ?? 'text'));
  if (!format) throw new UsageError('--format', `expected one of ${FORMATS.join(', ')}, got "${text}"${didYouMean(text, FORMATS)}`);
  return format;
}

/** --trace-format: checked before anything is searched or written. */
function traceFormatOf(text: string | undefined, out: string | undefined): TraceFormat {
  const format = TRACE_FORMATS.find((f) => f === (text ?? 'json'));
  if (!format)
    throw new UsageError('--trace-format', `expected one of ${TRACE_FORMATS.join(', ')}, got "${text}"${didYouMean(text, TRACE_FORMATS)}`);
  if (text !== undefined && out === undefined)
    throw new UsageError('--trace-format', 'applies to the traces --out writes: add --out <dir>');
  return format;
}

function byteSize(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const bytes = parseBytes(text);
  if (bytes === null || bytes < 1) throw new UsageError(option, `expected a size such as 2GiB, 512MB or a number of bytes, got "${text}"`);
  return bytes;
}

/** Creates an output directory up front, so a bad path is bad input before minutes of search. */
function outputDir(option: string, dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(option, `expected a directory that can be created and written, got "${dir}" (${errorCode(e) ?? 'error'})`);
  }
  return dir;
}

/** The policies each loop declares, for --help. */
const policiesHelp = () =>
  Object.values(LOOPS)
    .flatMap((l: LoopEntry) => (l.policies ? [`${l.id}: ${l.policies.names.join('|')}`] : []))
    .join('; ');

function printText(
  runs: readonly CheckRun[],
  columns: (f: Frame) => string,
  files: (ce: Counterexample) => Artifacts,
  table: boolean,
  workersLine: string,
): void {
  for (const run of runs) {
    process.stdout.write(formatReport(run, workersLine));
    for (const ce of run.counterexamples) {
      const lasso = lassoOf(run, ce);
      process.stdout.write(
        lasso
          ? `\n## lasso counterexample: ${ce.property} — prefix ${lasso.prefix} steps, then a cycle of ${lasso.cycle} steps repeated for ever (a weakly fair run: time keeps passing)\n`
          : `\n## shortest counterexample: ${ce.property}\n`,
      );
      const { trace, test } = files(ce);
      if (trace) process.stdout.write(`(trace: ${trace})\n`);
      if (test) process.stdout.write(`(test: ${test})\n`);
      process.stdout.write(formatTimeline(ce.trace, columns));
      if (ce.other) {
        process.stdout.write(`\n## the other history: ${ce.other.label}\n${ce.other.difference}\n`);
        if (trace) process.stdout.write(`(trace: ${otherTracePath(trace)})\n`);
        process.stdout.write(formatTimeline(ce.other.trace, columns));
      }
    }
    process.stdout.write('\n');
  }
  if (table) process.stdout.write(`${findingsTable([...runs])}\n`);
  process.stdout.write(summaryLine(runs));
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'explore every reachable state of a small scenario; the timeline is what the environment may do, at any instant, in any order',
    )
    .argument('<scenario>', 'scenario YAML file (see scenarios/*-check-*.yaml)')
    .option('--depth <n>', 'stop expanding after this many steps from the start')
    .option(
      '--max-states <n>',
      `stop after this many distinct states (default 2000000; ${UNMARKED_BOUNDS.maxStates} for a scenario not made for check)`,
    )
    .option('--max-memory <size>', 'stop cleanly once the process uses this much memory (e.g. 2GiB); verdicts so far, the rest unknown')
    .option(
      '--workers <n>',
      `worker threads for the search (default: one per core from ${PARALLEL_FROM_CORES} cores, else 1 — here ${defaultWorkers().workers}); 1 searches in this thread`,
    )
    .option('--no-progress', 'no progress line on stderr (shown for searches longer than 2s)')
    .option('--no-memo', 'do not memoise machine transitions (slower; to measure the memo)')
    .option(
      '--no-symmetry',
      'do not merge states that differ only by the names of interchangeable objects (to measure the reduction; loops without any are unaffected)',
    )
    .option('--out <dir>', 'write each counterexample trace (JSON, loadable by the lab) into this directory')
    .option(
      '--trace-format <format>',
      `how --out writes each trace: ${TRACE_FORMATS.join('|')} (default json, loopscope's own; itf: Apalache's Informal Trace Format, <name>.itf.json, which the lab opens too)`,
    )
    .option('--emit-test <dir>', 'write a vitest file per counterexample that replays it and fails while the violation is possible')
    .option('--policy <name>', `check this policy of the loop instead of the scenario's (${policiesHelp()})`)
    .option('--within <periods>', 'convergence bound K in periods (default: per policy)')
    .option('--table', "check every policy of the loop (or the scenario's own config) and print the findings table")
    .option('--format <format>', `output: ${FORMATS.join('|')} (default text)`)
    .option(
      '--checkpoint <dir>',
      'checkpoint the search into this directory at BFS level boundaries (see --checkpoint-every); a directory holding a checkpoint of the same scenario and options is resumed (one thread)',
    )
    .option('--checkpoint-every <duration>', 'time between checkpoints, taken at the next level boundary (default 5m; 0s: every level)')
    .option('--spill <dir>', "keep the BFS frontier's records in files in this directory instead of memory (one thread)")
    .addHelpText('after', `\n${CHECK_EXIT_CODES}\n`)
    .action(async (argument: string, flags: CheckFlags) => {
      const file = scenarioArgument(argument);
      const maxDepth = positive('--depth', flags.depth);
      const maxStates = positive('--max-states', flags.maxStates);
      const maxMemoryBytes = byteSize('--max-memory', flags.maxMemory);
      const asked = positive('--workers', flags.workers);
      let chosen = asked === undefined ? defaultWorkers() : { workers: asked, line: `workers: ${asked} (--workers)` };
      const withinPeriods = positive('--within', flags.within);
      const format = formatOf(flags.format);
      const traceFormat = traceFormatOf(flags.traceFormat, flags.out);
      if (flags.table && flags.policy !== undefined) throw new UsageError('--table', 'checks every policy: leave out --policy');
      const { entry, scenario } = loadScenario(file);
      const names = variantNames(entry);
      if (flags.policy !== undefined && names.length === 0)
        throw new UsageError('--policy', `expected no --policy: loop ${entry.binding.loop} has no policies`);
      if (flags.policy !== undefined && !names.includes(flags.policy)) {
        throw new UsageError(
          '--policy',
          `expected one of ${names.join(', ')} (the policies of ${entry.binding.loop}), got "${flags.policy}"${didYouMean(flags.policy, names)}`,
        );
      }
      const disk = diskOptions(
        flags,
        file,
        asked,
        { policy: flags.policy, withinPeriods, maxDepth, maxStates, symmetry: flags.symmetry !== false },
        outputDir,
      );
      if (disk.oneThread) chosen = { workers: 1, line: disk.oneThread };
      const { workers } = chosen;
      const out = outputDir('--out', flags.out);
      const emitDir = outputDir('--emit-test', flags.emitTest);

      // --table: every named policy, and first the scenario's own when it is none of them (a user's policy module).
      const own = (scenario.config as { policy?: unknown }).policy; // cast: only policy is read, and typeof checks it next
      const ownColumn = typeof own === 'string' && !names.includes(own) ? [undefined] : [];
      const variants: (string | undefined)[] = flags.table && names.length ? [...ownColumn, ...names] : [flags.policy];
      // A scenario made for sim: bad input first (the loop's check rejects what it cannot explore),
      // then one line before the search, which runs under a default bound unless the user chose one.
      checkOf(entry).validate(scenario);
      const unmarked =
        !isCheckScenario(file, scenario) && maxDepth === undefined && maxStates === undefined && maxMemoryBytes === undefined;
      const bounds = unmarked
        ? UNMARKED_BOUNDS
        : { ...(maxDepth ? { maxDepth } : {}), ...(maxStates ? { maxStates } : {}), ...(maxMemoryBytes ? { maxMemoryBytes } : {}) };

      // Ctrl-C (or SIGTERM) stops the search: the partial result is reported, undecided verdicts
      // unknown. A variant of --table not yet started runs with the signal already given: it stops
      // after its first slice, so the report and the exit code say "interrupted" (exitCode, 130).
      const interrupt = new AbortController();
      let signal: NodeJS.Signals | undefined;
      const stop = (received: NodeJS.Signals) => {
        signal ??= received;
        interrupt.abort();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (unmarked) process.stderr.write(`loopscope: ${notACheckScenarioWarning(file, scenario)}\n`);
      if (disk.resumed) process.stderr.write(`loopscope: ${disk.resumed}\n`);
      const progress = flags.progress === false ? undefined : progressReporter();
      const runs: CheckRun[] = [];
      try {
        for (const policy of variants) {
          runs.push(
            await checkScenarioAsync(entry, scenario, {
              ...(policy !== undefined ? { policy } : {}),
              ...bounds,
              ...(withinPeriods ? { withinPeriods } : {}),
              ...(progress ? { onProgress: progress.onProgress } : {}),
              memo: flags.memo !== false,
              symmetry: flags.symmetry !== false,
              workers,
              signal: interrupt.signal,
              ...disk.options,
            }),
          );
          progress?.done();
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
      const traces = out ? writeTraces(runs, out, { format: traceFormat, source: file }) : new Map<Counterexample, string>();
      const tests = emitDir ? emitTests(runs, emitDir, file, withinPeriods) : new Map<Counterexample, string>();
      const files = (ce: Counterexample): Artifacts => {
        const trace = traces.get(ce);
        const test = tests.get(ce);
        return { ...(trace !== undefined ? { trace } : {}), ...(test !== undefined ? { test } : {}) };
      };

      if (format === 'json') process.stdout.write(checkJson(runs, files));
      else if (format === 'junit') process.stdout.write(junitReport(runs, entry.columns, files));
      else printText(runs, entry.columns, files, flags.table ?? false, chosen.line);
      // The exit code the report states is the process's: 130 when interrupted (cli/run.ts).
      process.exitCode = exitCode(runs);
      if (wasInterrupted(runs))
        process.stderr.write(
          `loopscope: check interrupted (${signal ?? 'signal'}): the report above is partial · exit ${EXIT.interrupted}\n`,
        );
    });
}
