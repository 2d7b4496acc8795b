import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import type { StepState } from '../step';
import { Stepper } from '../step';
import { HashKeyWriter, hashKey } from './key-writer';
import { judgedColumns } from './judged';
import type { CheckProperty, EnvMove, KeyEncoder, LoopCheck, SymmetryUse } from './model';
import { stateKey } from './symmetry';

/** A state waiting to be expanded: its id, the run, and the environment moves it has left. */
export interface SearchNode<W, C> {
  id: number;
  run: StepState<W, C>;
  remaining: Uint8Array;
}

/** The move that led to a state: the tick (time passes) or the index of the environment's move. */
export const TICK = -1;

/**
 * One successor: `order` is its place among its parent's successors (0 the tick, 1 + g the g-th
 * move group) — (parent, order) is the sequential search's discovery order; `dt` the tick's time.
 */
export type Emit<W, C> = (run: StepState<W, C>, remaining: Uint8Array, order: number, via: number, dt: number) => void;

/**
 * The part of a search that touches the loop: the start state, the successors of a state (the
 * tick, then each move group the environment has left, in alphabet order), a state's 64-bit hash
 * (its canonical key and remaining moves) and the properties judged in it. Shared by the
 * sequential search and the parallel one's workers, so both step and judge states alike.
 */
export class Expander<W, F, C> {
  readonly stepper: Stepper<W, F, C>;
  readonly groups: MoveGroup<F, C>[];
  readonly always: CheckProperty<W, C>[];
  readonly sometimes: CheckProperty<W, C>[];
  /** The eventually-properties (their verdicts). */
  readonly targets: CheckProperty<W, C>[];
  /** The liveness properties (leads-to, eventually-always). */
  readonly liveness: CheckProperty<W, C>[];
  /**
   * What is judged as one bit per state (the parallel workers send these bits): each
   * eventually-property's target, then each liveness property's predicates (judged.ts).
   */
  readonly eventually: CheckProperty<W, C>[];
  private readonly canonical: KeyEncoder<StepState<W, C>>;
  private readonly writer = new HashKeyWriter();
  /** Whether states are merged with their renamed copies (symmetry.ts). */
  readonly symmetry: SymmetryUse;

  constructor(
    binding: LoopBinding<W, F, C>,
    private readonly check: LoopCheck<W, F, C>,
    private readonly start: { config: C; world: W },
    alphabet: readonly EnvMove<F, C>[],
    properties: readonly CheckProperty<W, C>[],
    memo: boolean,
    symmetry = true,
  ) {
    this.stepper = new Stepper(binding, { memo });
    // Interchangeable moves (equal labels) share one counter, so their orderings are not told apart.
    this.groups = groupMoves(check, alphabet);
    this.always = properties.filter((p) => p.kind === 'always');
    this.sometimes = properties.filter((p) => p.kind === 'sometimes');
    const judged = judgedColumns(properties);
    this.targets = judged.targets;
    this.liveness = judged.liveness;
    this.eventually = judged.columns;
    const key = stateKey(check, start, alphabet, symmetry);
    this.canonical = key.key;
    this.symmetry = key.symmetry;
  }

  initial(): { run: StepState<W, C>; remaining: Uint8Array } {
    return { run: this.stepper.initial(this.start.config, this.start.world), remaining: Uint8Array.from(this.groups.map((g) => g.count)) };
  }

  /** Emits the successors in discovery order; returns false when nothing is queued (the quiet successor is the state itself). */
  successors(node: SearchNode<W, C>, emit: Emit<W, C>): boolean {
    const { stepper, check, groups } = this;
    const ticked = stepper.tick(node.run);
    if (ticked) emit(ticked.state, node.remaining, 0, TICK, ticked.state.t - node.run.t);
    for (let g = 0; g < groups.length; g++) {
      if (node.remaining[g] === 0) continue;
      const { entry, index } = groups[g]!.move;
      if (!check.applicable(node.run, entry)) continue;
      const next = this.move(node, g);
      emit(next.run, next.remaining, 1 + g, index, 0);
    }
    return ticked !== undefined;
  }

  /**
   * The successor of `order` (as successors() numbers them) again: the stepper is pure, so it is
   * the state successors() emitted (the lazy frontier re-derives its states: frontier.ts).
   */
  successor(node: SearchNode<W, C>, order: number): { run: StepState<W, C>; remaining: Uint8Array } {
    if (order > 0) return this.move(node, order - 1);
    const ticked = this.stepper.tick(node.run);
    if (!ticked) throw new Error('explorer: a state re-derived by its tick has nothing queued');
    return { run: ticked.state, remaining: node.remaining };
  }

  private move(node: SearchNode<W, C>, g: number): { run: StepState<W, C>; remaining: Uint8Array } {
    const group = this.groups[g]!;
    // A repeating move (repeat: true) never runs out: its counter stays as it is, so the state graph has cycles.
    const remaining = group.repeats ? node.remaining : node.remaining.slice();
    if (!group.repeats) remaining[g]!--;
    return { run: applyEntry(this.stepper, node.run, group.move.entry), remaining };
  }

  hash(run: StepState<W, C>, remaining: Uint8Array, out: Uint32Array): void {
    hashKey(this.canonical, this.writer, run, remaining, out);
  }
}

export function applyEntry<W, F, C>(stepper: Stepper<W, F, C>, run: StepState<W, C>, entry: TimelineEntry<F, C>): StepState<W, C> {
  return 'config' in entry ? stepper.update(run, entry.config) : stepper.inject(run, entry.fault);
}

/** Interchangeable moves: one counter each; a group with a repeating move repeats (its counter stays 1). */
export interface MoveGroup<F, C> {
  label: string;
  move: EnvMove<F, C>;
  count: number;
  repeats: boolean;
}

export function groupMoves<W, F, C>(check: LoopCheck<W, F, C>, alphabet: readonly EnvMove<F, C>[]) {
  const groups: MoveGroup<F, C>[] = [];
  for (const m of alphabet) {
    const g = groups.find((x) => x.label === m.label);
    if (g) {
      g.count++;
      g.repeats ||= m.repeats === true;
    } else groups.push({ label: m.label, move: m, count: 1, repeats: m.repeats === true });
  }
  for (const g of groups) if (g.repeats) g.count = 1;
  if (groups.some((g) => g.count > 255)) throw new Error('at most 255 equal moves');
  return groups;
}
