import type { EventObject, TransitionActorLogic } from 'xstate';
import { fromTransition } from 'xstate';
import type { LoopEntry, LoadedScenario } from '../loops/registry';
import type { LoopBinding } from '../model';
import type { StepState } from '../step';
import { Stepper } from '../step';
import type { MoveGroup } from '../check/expander';
import { applyEntry, groupMoves } from '../check/expander';
import type { EnvMove, LoopCheck } from '../check/model';
import { stateKey } from '../check/symmetry';
import { keyText } from '../check/key-writer';
import { TransitionRecorder } from './machine-transitions';

/** What xstate/graph traverses: the next queued item happens (time passes), or the environment makes move group `group`. */
export type WorldEvent = { type: 'tick' } | { type: 'move'; group: number };

/**
 * The loop's machine with its world, as one state: the stepper's state, the moves the environment
 * has left (a counter per group of interchangeable moves, as the explorer keeps them), and whether
 * an item has already happened at this instant (see `timeline` below).
 */
export interface WorldState<W, C> {
  run: StepState<W, C>;
  remaining: Uint8Array;
  tickedNow: boolean;
}

/** One edge as the traversal met it: the machine transitions it took. */
export type EdgeListener<W, C> = (from: WorldState<W, C>, event: WorldEvent, taken: readonly string[]) => void;

export interface WorldLogicOptions {
  /**
   * Only moves a scenario's timeline can place (default true): `loopscope sim` plays timeline
   * entries before queued items due at the same instant (sim/runner.ts upcoming()), so a move made
   * after an item at this instant is placed 1 ms later, and a move between two items due at one
   * instant is not offered. False: the explorer's own semantics (a move at any point).
   */
  timeline?: boolean;
}

/** The smallest step of a scenario's clock (`at` is read in whole ms: sim/units.ts). */
export const TIMELINE_EPSILON_MS = 1;

/**
 * The loop's machine with its world as XState actor logic (`fromTransition`), for xstate/graph:
 * `transition` is the simulator's pure step — the machine through XState, the world through the
 * loop's WorldModel (sim/step.ts) — so xstate/graph searches the real machine and world, and
 * `key` (the loop's canonical key, the explorer's) merges states with the same future.
 */
export class WorldLogic {
  readonly logic: TransitionActorLogic<WorldState<unknown, unknown>, WorldEvent, undefined>;
  readonly recorder: TransitionRecorder;
  /** Interchangeable moves share one counter, as in the explorer (sim/check/expander.ts). */
  readonly groups: MoveGroup<unknown, unknown>[];
  readonly alphabet: EnvMove<unknown, unknown>[];
  readonly initial: WorldState<unknown, unknown>;
  /** The machine transitions taken as the loop starts (eventless ones from its initial state). */
  readonly initialTaken: readonly string[];
  private readonly stepper: Stepper<unknown, unknown, unknown>;
  private readonly binding: LoopBinding<unknown, unknown, unknown>;
  private readonly check: LoopCheck<unknown, unknown, unknown>;
  private readonly canonical: (run: StepState<unknown, unknown>) => string;
  private readonly keys = new WeakMap<WorldState<unknown, unknown>, string>();
  private readonly timeline: boolean;
  onEdge: EdgeListener<unknown, unknown> | undefined;

  constructor(
    entry: LoopEntry,
    readonly scenario: LoadedScenario,
    options: WorldLogicOptions = {},
  ) {
    this.binding = entry.binding;
    this.check = entry.check;
    this.timeline = options.timeline ?? true;
    const repeating = new Set(scenario.repeating ?? []);
    this.alphabet = scenario.timeline.map((e, index) => ({
      index,
      label: this.check.label(e),
      entry: e,
      ...(repeating.has(index) ? { repeats: true } : {}),
    }));
    this.groups = groupMoves(this.check, this.alphabet);
    const start = { config: scenario.config, world: scenario.world };
    // The plain canonical key: transitions are named by state, so renamed copies are not merged.
    this.canonical = keyText(stateKey(this.check, start, this.alphabet, false).key);
    this.stepper = new Stepper(this.binding, { memo: true });
    this.recorder = new TransitionRecorder(this.binding.machine);
    this.initialTaken = this.recorder.initial(this.binding.machineInput(scenario.config));
    this.initial = {
      run: this.stepper.initial(scenario.config, scenario.world),
      remaining: Uint8Array.from(this.groups.map((g) => g.count)),
      tickedNow: false,
    };
    this.logic = fromTransition((state: WorldState<unknown, unknown>, event: WorldEvent) => this.step(state, event).state, this.initial);
  }

  /** xstate/graph's serializeState: equal keys, equal futures. */
  key(state: WorldState<unknown, unknown>): string {
    let k = this.keys.get(state);
    if (k === undefined) {
      k = `${this.canonical(state.run)}|${state.remaining.join(',')}${state.tickedNow ? '|now' : ''}`;
      this.keys.set(state, k);
    }
    return k;
  }

  /** The moves possible in a state: the tick when something is queued, then each move group left that applies. */
  events(state: WorldState<unknown, unknown>): WorldEvent[] {
    const out: WorldEvent[] = [];
    const next = this.stepper.next(state.run);
    if (next) out.push({ type: 'tick' });
    // Between two items due at one instant no timeline entry can be placed.
    if (this.timeline && state.tickedNow && next && next.at <= state.run.t) return out;
    this.groups.forEach((g, i) => {
      if (state.remaining[i] !== 0 && this.check.applicable(state.run, g.move.entry)) out.push({ type: 'move', group: i });
    });
    return out;
  }

  /** One step, and the machine transitions it took. */
  step(state: WorldState<unknown, unknown>, event: WorldEvent): { state: WorldState<unknown, unknown>; taken: string[] } {
    let result: { state: WorldState<unknown, unknown>; taken: string[] };
    if (event.type === 'tick') {
      const ticked = this.stepper.tick(state.run);
      if (!ticked) return { state, taken: [] };
      result = {
        state: { ...state, run: ticked.state, tickedNow: this.timeline },
        taken: ticked.event ? this.recorder.taken(state.run.snapshot, ticked.event) : [],
      };
    } else {
      const group = this.groups[event.group]!;
      const run = this.timeline && state.tickedNow ? { ...state.run, t: state.run.t + TIMELINE_EPSILON_MS } : state.run;
      const remaining = group.repeats ? state.remaining : state.remaining.slice();
      if (!group.repeats) remaining[event.group]!--;
      const after = applyEntry(this.stepper, run, group.move.entry);
      result = { state: { run: after, remaining, tickedNow: false }, taken: this.takenByMove(run, group.move.entry) };
    }
    this.onEdge?.(state, event, result.taken);
    return result;
  }

  /** What the machine is sent for a timeline entry, as sim/runner.ts applyChange sends it. */
  private takenByMove(run: StepState<unknown, unknown>, entry: EnvMove<unknown, unknown>['entry']): string[] {
    if ('config' in entry) return this.recorder.taken(run.snapshot, this.binding.configEvent(entry.config));
    const command: EventObject | undefined = this.binding.command?.(entry.fault);
    if (command) return this.recorder.taken(run.snapshot, command);
    if (this.binding.isControllerRestart?.(entry.fault)) return this.recorder.initial(this.binding.machineInput(run.config));
    return [];
  }
}
