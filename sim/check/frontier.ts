import type { SearchNode } from './expander';

/** A BFS level as the explorer uses it: kept in memory (LazyLevel) or spilled to a file (spilled-level.ts). */
export interface FrontierLevel<W, C> {
  readonly length: number;
  push(parent: SearchNode<W, C>, order: number, id: number): void;
  pushWhole(node: SearchNode<W, C>): void;
  take(i: number, derive: (parent: SearchNode<W, C>, order: number) => Omit<SearchNode<W, C>, 'id'>): SearchNode<W, C>;
  /** Lets go of what the level holds outside the heap (a spilled level's file). */
  dispose?(): void;
}

/**
 * One level of the breadth-first frontier, stored lazily: a new state is kept as (its parent, its
 * order among the parent's successors, its id), not as the state itself, and re-derived from the
 * parent when it is taken (Expander.successor: the stepper is pure). A parent is held until its
 * last child is taken; children of one parent are pushed together, so parents are let go in order.
 * Measured on the bench's 10⁶-state HPA case: the widest level has 338,319 new states from 172,283
 * parents, so the frontier holds half the states; re-deriving costs one step per distinct state.
 */
export class LazyLevel<W, C> implements FrontierLevel<W, C> {
  private readonly parents: (SearchNode<W, C> | undefined)[] = [];
  private readonly parentOf: number[] = [];
  private readonly order: number[] = [];
  private readonly ids: number[] = [];
  /** States kept whole (the initial state: it has no parent). */
  private readonly whole: (SearchNode<W, C> | undefined)[] = [];

  get length(): number {
    return this.ids.length;
  }

  /** A new state, child `order` of `parent` (the node being expanded). */
  push(parent: SearchNode<W, C>, order: number, id: number): void {
    if (this.parents.at(-1) !== parent) this.parents.push(parent);
    this.parentOf.push(this.parents.length - 1);
    this.order.push(order);
    this.ids.push(id);
    this.whole.push(undefined);
  }

  /** A state kept as it is. */
  pushWhole(node: SearchNode<W, C>): void {
    this.parentOf.push(-1);
    this.order.push(-1);
    this.ids.push(node.id);
    this.whole.push(node);
  }

  /** The i-th state (each taken once, in order); its parent is let go after its last child. */
  take(i: number, derive: (parent: SearchNode<W, C>, order: number) => Omit<SearchNode<W, C>, 'id'>): SearchNode<W, C> {
    const kept = this.whole[i];
    if (kept) {
      this.whole[i] = undefined;
      return kept;
    }
    const p = this.parentOf[i]!;
    const parent = this.parents[p];
    if (!parent) throw new Error('explorer: a lazy frontier state taken twice or out of order');
    const node = { id: this.ids[i]!, ...derive(parent, this.order[i]!) };
    if (this.parentOf[i + 1] !== p) this.parents[p] = undefined;
    return node;
  }
}
