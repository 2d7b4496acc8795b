import type { CheckProperty, PathStep } from '../check/model';
import type { SwarmRandom } from './prng';
import type { Broken, Choice, SwarmNode, SwarmSpace } from './space';

export const STRATEGY_NAMES = ['random-walk', 'dfs', 'pct'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** What one search may spend: the longest path it builds, and the states it may make (quiet runs included). */
export interface SearchBudget {
  depth: number;
  maxSteps: number;
}

/** A violation a search found: the path to the state that breaks the property (not yet shrunk). */
export interface Finding {
  property: CheckProperty<unknown, unknown>;
  path: PathStep[];
  settleMs?: number;
}

export interface Strategy {
  name: StrategyName;
  /** One search from the scenario's start; the generator (one seed) decides every choice it makes. */
  search(space: SwarmSpace, rng: SwarmRandom, budget: SearchBudget): Finding[];
}

/**
 * What every strategy does with a state it reaches: judge it. Always-properties in every state;
 * eventually-properties where the environment may stop — the start and each state an environment
 * move made. A state a tick made need not be judged: it lies on its predecessor's quiet run, so
 * it settles no later than that one (the explorer's settle times only shrink along a tick).
 * Each property is reported once per search, at its first violating state.
 */
export class Judge {
  readonly findings: Finding[] = [];
  private readonly found = new Set<string>();
  private readonly wanted: number;

  constructor(private readonly space: SwarmSpace) {
    this.wanted = space.always.length + space.eventually.length;
  }

  /** Judges `node`, reached by `path` (the last step made it); true once every property is found. */
  visit(node: SwarmNode, path: readonly PathStep[]): boolean {
    const last = path[path.length - 1];
    const broken: Broken[] = this.space.brokenAlways(node, this.found);
    if (!last || last.kind === 'env') broken.push(...this.space.unsettled(node, this.found));
    for (const b of broken) {
      this.found.add(b.property.name);
      this.findings.push({ property: b.property, path: path.slice(), ...(b.settleMs !== undefined ? { settleMs: b.settleMs } : {}) });
    }
    return this.done;
  }

  get done(): boolean {
    return this.found.size >= this.wanted;
  }
}

/**
 * Ends a walk that has settled into going round: a state (with the moves it has left) seen
 * before on this walk with only ticks since. The walk could still make a move later in the
 * cycle; other seeds, which draw their moves elsewhere, cover those runs.
 */
export class QuietCycle {
  private readonly seen = new Map<string, number>();
  private lastMove = -1;

  constructor(private readonly space: SwarmSpace) {}

  /** After step `at` (made by `choice`, reaching `node`): true when the walk is going round. */
  repeats(node: SwarmNode, at: number, choice: Choice): boolean {
    if (choice.step.kind === 'env') {
      this.lastMove = at;
      this.seen.clear();
      return false;
    }
    const h = this.space.hash(node);
    const before = this.seen.get(h);
    this.seen.set(h, at);
    return before !== undefined && before > this.lastMove;
  }
}
