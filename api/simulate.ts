// simulate: one seeded run of a scenario, as `loopscope sim --json` runs it — the same frames for
// the same seed — returned as data instead of printed.
import { DEFAULT_MAX_FRAMES } from '../cli/sim-command';
import { createRunner } from '../sim/loops';
import { countOption, durationOption, policyOption, seedOption } from './options';
import type { Scenario } from './scenario';
import type { Frame, LoopId, Trace } from './types';
import { resolveScenario } from './scenario';

/** Options of `simulate`; each mirrors a `loopscope sim` flag. */
export interface SimulateOptions {
  /** Seed (`--seed`): a whole number ≥ 0; default the scenario's. */
  seed?: number;
  /** Virtual time to simulate (`--until`): text such as 30m or 2h, or milliseconds; default the scenario's duration. */
  until?: string | number;
  /** One of the loop's policies (`--policy`); default the scenario's. */
  policy?: string;
  /** Stop after this many frames (`--max-frames`); default 50 000, as the CLI. */
  maxFrames?: number;
  /** Aborting stops the run at the next slice of work: the frames so far are returned (exit code 130, as Ctrl-C). */
  signal?: AbortSignal;
}

/** What a run did, in numbers. */
export interface SimulationSummary {
  loop: LoopId;
  scenario: string;
  seed: number;
  policy?: string;
  /** How many frames were recorded. */
  frames: number;
  /** The virtual time it was to run until (ms). */
  untilMs: number;
  /** The virtual time it reached (ms): `untilMs` unless it stopped early. */
  reachedMs: number;
  /** Why it stopped before `untilMs`: the frame bound, or the signal. Absent when it ran to the end. */
  stopped?: 'max-frames' | 'aborted';
}

/** The result of `simulate`. */
export interface SimulationResult {
  /** The trace `loopscope sim --json` prints (the lab loads it as a file). */
  trace: Trace;
  /** `trace.frames`: one per state the loop entered or world change it saw, in time order. */
  frames: Frame[];
  summary: SimulationSummary;
  /** What `loopscope sim` would exit with: 0 done · 3 stopped at `maxFrames` · 130 aborted. */
  exitCode: number;
}

/** Items processed between looks at the signal (and turns given to the event loop). */
const SLICE = 256;
/** Ctrl-C's exit code, which the CLI gives an interrupted run. */
const INTERRUPTED = 130;
/** A bound was reached (`loopscope sim` and `check`). */
const BOUND_REACHED = 3;

const nextTurn = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

/**
 * Runs a scenario (a file, or a handle from `loadScenario`) in the seeded simulator.
 * @throws InputError for a bad scenario file or policy; UsageError for a bad option.
 */
export async function simulate(source: Scenario | string, options: SimulateOptions = {}): Promise<SimulationResult> {
  const seed = seedOption(options.seed);
  const until = durationOption('--until', options.until);
  const maxFrames = countOption('--max-frames', options.maxFrames) ?? DEFAULT_MAX_FRAMES;
  const policy = policyOption(options.policy);
  const { entry, scenario, variant } = resolveScenario(source, { seed });
  const chosen = policy ?? variant;
  const runner = createRunner(entry, scenario, chosen !== undefined ? { policy: chosen } : {});
  const end = until ?? scenario.durationMs;

  // As `loopscope sim`: event by event, so the frame bound and the signal stop it mid-run.
  let stopped: SimulationSummary['stopped'];
  let items = 0;
  for (let next = runner.nextEventAt; next !== undefined && next <= end; next = runner.nextEventAt) {
    runner.processNext();
    if (runner.frames.length >= maxFrames) {
      stopped = 'max-frames';
      break;
    }
    if (++items % SLICE === 0) {
      await nextTurn();
      if (options.signal?.aborted) {
        stopped = 'aborted';
        break;
      }
    }
  }
  if (!stopped) runner.run(end);

  const trace = runner.trace();
  return {
    trace,
    frames: trace.frames,
    summary: {
      loop: entry.id,
      scenario: trace.scenario,
      seed: trace.seed,
      ...(trace.policy !== undefined ? { policy: trace.policy } : {}),
      frames: trace.frames.length,
      untilMs: end,
      reachedMs: runner.t,
      ...(stopped ? { stopped } : {}),
    },
    exitCode: stopped === 'max-frames' ? BOUND_REACHED : stopped === 'aborted' ? INTERRUPTED : 0,
  };
}
