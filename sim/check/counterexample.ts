import type { AnyStateMachine, ContextFrom } from 'xstate';
import type { LoopBinding } from '../model';
import { Runner } from '../runner';
import type { TimelineEntry } from '../runner';
import type { StepState } from '../step';
import type { Trace } from '../trace';
import type { PathStep } from './model';
import type { CheckProperty, CheckView } from './model';

export interface ReplayInput<W, F, C> {
  binding: LoopBinding<W, F, C>;
  scenario: string;
  seed: number;
  policy?: string;
  config: C;
  world: W;
  alphabet: readonly TimelineEntry<F, C>[];
  /** The explorer's canonical key of a state (times relative to now): equal keys, equal futures. */
  key: (state: StepState<W, C>) => string;
}

/** How many times the trace goes round a quiet cycle before it ends: enough to see it repeat. */
const CYCLE_ROUNDS = 3;

/**
 * The environment stops: the loop runs on alone up to `horizon`, `onState` called after each step.
 * Quiet steps are deterministic, so once a state's canonical key repeats the run only goes round
 * that cycle for ever: it ends after going round it CYCLE_ROUNDS times, however far the horizon (a
 * backoff of days would otherwise be stepped period by period). Returns the frame where the
 * repeating part begins, if it does.
 */
export function runQuiet<W, F, C>(
  runner: Runner<W, F, C>,
  key: ReplayInput<W, F, C>['key'],
  horizon: number,
  onState: () => void,
): { cycleFrame?: number } {
  const seen = new Map<string, { frame: number; times: number }>([[key(runner.stepState), { frame: runner.frames.length - 1, times: 1 }]]);
  while (runner.nextEventAt !== undefined && runner.nextEventAt <= horizon && runner.processNext()) {
    onState();
    const k = key(runner.stepState);
    const at = seen.get(k);
    if (at && ++at.times > CYCLE_ROUNDS) return { cycleFrame: at.frame };
    if (!at) seen.set(k, { frame: runner.frames.length - 1, times: 1 });
  }
  return {};
}

/**
 * Replays an explorer path through the real Runner (not the explorer's stepper), so the trace is
 * exactly what `loopscope sim` and the lab produce. `quietMs` extends the path with that much
 * virtual time of the environment doing nothing (for eventually-properties).
 */
export function replay<W, F, C>(
  input: ReplayInput<W, F, C>,
  path: readonly PathStep[],
  quietMs = 0,
  /** Called at the start (0) and after each step (1…): lets a caller check every state on the path. */
  onStep?: (runner: Runner<W, F, C>, step: number) => void,
): Runner<W, F, C> {
  const runner = new Runner(input.binding, {
    scenario: input.scenario,
    seed: input.seed,
    ...(input.policy ? { policy: input.policy } : {}),
    world: input.world,
    config: input.config,
    timeline: [],
  });
  onStep?.(runner, 0);
  for (const [i, step] of path.entries()) {
    if (step.kind === 'tick') runner.processNext();
    else {
      const entry = input.alphabet[step.index]!;
      if ('config' in entry) runner.update(entry.config);
      else runner.inject(entry.fault);
    }
    onStep?.(runner, i + 1);
  }
  if (quietMs > 0) runner.run(runner.t + quietMs);
  return runner;
}

export const viewOf = <W, F, C, M extends AnyStateMachine>(runner: Runner<W, F, C, M>): CheckView<W, C, ContextFrom<M>> => ({
  t: runner.t,
  snapshot: runner.snapshot,
  world: runner.world,
  config: runner.config,
});

/**
 * The trace of a counterexample, its last frame marked with the broken claim. For an eventually-
 * property the path is followed by quiet time up to the bound (or the settle time, if later),
 * and the last frame where the target still fails is marked.
 */
export function counterexampleTrace<W, F, C>(
  input: ReplayInput<W, F, C>,
  property: CheckProperty<W, C>,
  path: readonly PathStep[],
  settleMs?: number,
): Trace {
  const runner = replay(input, path);
  const pathFrames = runner.frames.length;
  const mark = (i: number, text: string) => {
    const frame = runner.frames[i];
    if (frame) frame.note = frame.note ? `${frame.note} · ${text}` : text;
  };
  const fails = !property.holds(viewOf(runner));
  if (property.kind === 'always') {
    if (!fails) throw new Error(`the explorer and the runner disagree: ${property.name} holds at the end of its counterexample`);
    mark(runner.frames.length - 1, `✗ ${property.name}: ${property.claim}`);
  } else if (property.kind === 'eventually') {
    const bound = property.withinMs ?? 0;
    const horizon = runner.t + (settleMs !== undefined && Number.isFinite(settleMs) ? settleMs : bound + bound / 2);
    let lastFailing = fails ? pathFrames - 1 : -1;
    let lastFailingT = runner.t;
    const { cycleFrame } = runQuiet(runner, input.key, horizon, () => {
      if (!property.holds(viewOf(runner))) {
        lastFailing = runner.frames.length - 1;
        lastFailingT = runner.t;
      }
    });
    mark(pathFrames - 1, `environment stops here; ${property.name} must hold within ${property.within ?? ''}`);
    const late = (lastFailingT - (runner.frames[pathFrames - 1]?.t ?? 0)) / 1000;
    const forEver = cycleFrame !== undefined && lastFailing > cycleFrame;
    mark(
      lastFailing,
      `✗ ${property.name}: still failing ${late}s after the environment stopped${forEver ? `; from frame ${cycleFrame + 2} the run repeats, so it fails for ever` : ''}`,
    );
  }
  const trace = runner.trace();
  return { ...trace, scenario: `${trace.scenario} · counterexample: ${property.name}` };
}
