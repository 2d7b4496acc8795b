import type { Trace } from '../trace';
import { Stepper } from '../step';
import type { ReplayInput } from './counterexample';
import { replay, viewOf } from './counterexample';
import { applyEntry } from './expander';
import { keyText } from './key-writer';
import type { ExploreResult, PathStep } from './model';
import type { CheckProperty, EnvMove, LoopCheck } from './model';

export interface LassoPath {
  path: readonly PathStep[];
  cycleStart: number;
}

/** The lasso does not (or no longer) violate its property in a replay: the scenario or the loop changed, or a bug. */
export class LassoMismatch extends Error {}

/** A counterexample's lasso as the reports print it: steps before the cycle, steps in it (undefined: not a lasso). */
export function lassoOf(
  run: { result: ExploreResult<unknown, unknown> },
  ce: { property: string },
): { prefix: number; cycle: number } | undefined {
  const v = run.result.verdicts.find((x) => x.property.name === ce.property);
  if (!v?.path || v.cycleStart === undefined) return undefined;
  return { prefix: v.cycleStart, cycle: v.path.length - v.cycleStart };
}

/** Where liveness verdicts found lassos, their counterexamples get lasso traces (the others are kept). */
export function withLassos<T extends { property: string; trace: Trace }>(
  prepared: {
    check: LoopCheck<unknown, unknown, unknown>;
    alphabet: readonly EnvMove<unknown, unknown>[];
    replayInput: ReplayInput<unknown, unknown, unknown>;
  },
  result: ExploreResult<unknown, unknown>,
  counterexamples: readonly T[],
): T[] {
  return counterexamples.map((ce) => {
    const v = result.verdicts.find((x) => x.property.name === ce.property);
    if (!v?.path || v.cycleStart === undefined) return ce;
    return {
      ...ce,
      trace: lassoTrace(prepared.replayInput, prepared.check, prepared.alphabet, v.property, { path: v.path, cycleStart: v.cycleStart }),
    };
  });
}

/**
 * A lasso replayed through the real Runner, as a trace the lab draws as a loop: `lasso.cycleStart`
 * is the first frame of the cycle. Before it is written, the lasso is checked independently of the
 * search: the cycle takes the run back to a state with the same canonical key (so it can repeat
 * for ever), only repeating moves act in it, and the property fails on it as claimed.
 */
export function lassoTrace<W, F, C>(
  input: ReplayInput<W, F, C>,
  check: LoopCheck<W, F, C>,
  alphabet: readonly EnvMove<F, C>[],
  property: CheckProperty<W, C>,
  lasso: LassoPath,
): Trace {
  const { path, cycleStart } = closingTurns(input, check, alphabet, lasso, property.name);

  const holds: boolean[] = [];
  const when: boolean[] = [];
  const frameAt: number[] = [];
  const runner = replay(input, path, 0, (r, step) => {
    const view = viewOf(r);
    holds[step] = property.holds(view);
    when[step] = property.when?.(view) ?? false;
    frameAt[step] = r.frames.length - 1;
  });
  const mark = (i: number, text: string) => {
    const frame = runner.frames[i];
    if (frame) frame.note = frame.note ? `${frame.note} · ${text}` : text;
  };
  const disagree = (what: string) => new LassoMismatch(`the lasso does not violate ${property.name} in the replay: it ${what}`);
  const last = path.length;
  if (property.kind === 'eventually-always') {
    // The cycle's states: after each of its steps (its last state is its first).
    const failing = holds.findIndex((ok, step) => step > cycleStart && !ok);
    if (failing < 0) throw disagree('holds all round the cycle');
    mark(frameAt[failing]!, `✗ ${property.name}: fails here, and again on every turn of the cycle: ${property.claim}`);
  } else {
    // The trigger: the first state where P holds and Q fails from then on, cycle included.
    let trigger = -1;
    for (let step = last; step >= 0 && !holds[step]; step--) if (when[step]) trigger = step;
    if (trigger < 0) throw disagree('has no trigger that stays unanswered');
    mark(frameAt[trigger]!, `✗ ${property.name}: triggered here, and never answered: ${property.claim}`);
  }
  // The cycle's frames: after the prefix's last frame, up to the end (a cycle with no frame of its own repeats the last one).
  const first = Math.min(frameAt[cycleStart]! + 1, runner.frames.length - 1);
  const endT = runner.frames.at(-1)!.t;
  mark(
    first,
    `↻ the cycle starts here: from this frame to the last, the run repeats for ever (every ${(endT - frameAtTime(runner.frames, frameAt[cycleStart]!)) / 1000}s)`,
  );
  mark(runner.frames.length - 1, `↻ back to frame ${first + 1}: repeats for ever`);
  const trace = runner.trace();
  return { ...trace, scenario: `${trace.scenario} · counterexample: ${property.name}`, lasso: { cycleStart: first } };
}

const frameAtTime = (frames: Trace['frames'], i: number) => frames[i]?.t ?? 0;

/** At most this many turns of the cycle are replayed before the run must come back to a state. */
const MAX_TURNS = 16;

/**
 * Steps the lasso with the explorer's stepper, turn after turn of its cycle, until a turn ends
 * where it began (equal canonical keys): the path to the end of that turn, that turn the cycle.
 * Usually the first turn closes; a loop whose key abstracts generated names (the HPA's random
 * suffixes: only their order counts) may need a few, as the replay's generator sorts a new name
 * elsewhere than the state the search kept did — and so may a cycle the search closed up to a
 * renaming (symmetry.ts): this replay uses the plain key, so the trace's cycle is one the run repeats.
 */
function closingTurns<W, F, C>(
  input: ReplayInput<W, F, C>,
  check: LoopCheck<W, F, C>,
  alphabet: readonly EnvMove<F, C>[],
  lasso: LassoPath,
  name: string,
): LassoPath {
  const stepper = new Stepper(input.binding);
  const key = keyText(check.canonicalizer({ config: input.config, world: input.world }, alphabet));
  const prefix = lasso.path.slice(0, lasso.cycleStart);
  const cycle = lasso.path.slice(lasso.cycleStart);
  if (cycle.length === 0) throw new Error(`${name}: the lasso has an empty cycle`);
  const step = (state: ReturnType<typeof stepper.initial>, s: PathStep, inCycle: boolean) => {
    if (s.kind === 'tick') return stepper.tick(state)?.state ?? state;
    const move = alphabet[s.index];
    if (!move) throw new Error(`${name}: the lasso names no environment move ${s.index}`);
    if (inCycle && !move.repeats) throw new LassoMismatch(`${name}: the lasso's cycle makes "${move.label}", a move that does not repeat`);
    return applyEntry(stepper, state, move.entry);
  };
  let state = stepper.initial(input.config, input.world);
  for (const s of prefix) state = step(state, s, false);
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const before = key(state);
    for (const s of cycle) state = step(state, s, true);
    if (key(state) === before) {
      const turns = Array.from({ length: turn }, () => cycle).flat();
      return { path: [...prefix, ...turns, ...cycle], cycleStart: prefix.length + turns.length };
    }
  }
  throw new LassoMismatch(`${name}: the lasso's cycle does not come back to its first state in ${MAX_TURNS} turns`);
}
