import type { PreparedCheck } from '../check/check';
import type { SearchNode } from '../check/expander';
import { Expander } from '../check/expander';
import type { CheckProperty, PathStep } from '../check/model';
import type { StepState } from '../step';

type Run = StepState<unknown, unknown>;
/** A state of a swarm search: the run and the environment moves it has left (as the explorer's nodes). */
export type SwarmNode = Omit<SearchNode<unknown, unknown>, 'id'>;

/** One way on from a state: `order` as Expander.successors numbers it (0 the tick, 1 + g the g-th move group). */
export interface Choice {
  order: number;
  step: PathStep;
}

/** A property broken by a state: always fails in it; eventually does not settle once the environment stops there. */
export interface Broken {
  property: CheckProperty<unknown, unknown>;
  settleMs?: number;
}

/** How far a quiet run (the environment done) goes before its verdict is left undecided. */
const QUIET_STEPS = 20_000;
/** Settle times kept at most (then forgotten all at once). */
const SETTLED_CACHE = 500_000;
const NO_MOVES = new Uint8Array(0);

/**
 * The state space a swarm search walks: the explorer's own Expander (same stepper, same move
 * groups, same applicability, same properties), seen one state and one choice at a time instead
 * of level by level. Paths are the explorer's PathSteps, so they replay through the Runner and
 * are written by the explorer's counterexample writer.
 */
export class SwarmSpace {
  readonly expander: Expander<unknown, unknown, unknown>;
  readonly always: CheckProperty<unknown, unknown>[];
  /** The eventually-properties with a bound (without one nothing can violate them: the explorer's rule). */
  readonly eventually: CheckProperty<unknown, unknown>[];
  /** States the searches made (the budget counts these: a seed's search never depends on what ran before it). */
  steps = 0;
  /** States quiet runs made (judging eventually-properties). */
  quietSteps = 0;
  /** Settle times by canonical key (settleTimes). */
  private readonly settled = new Map<string, Float64Array>();

  constructor(readonly prepared: PreparedCheck) {
    const { replayInput, check, alphabet, properties } = prepared;
    this.expander = new Expander(
      replayInput.binding,
      check,
      { config: replayInput.config, world: replayInput.world },
      alphabet,
      properties,
      true,
      false,
    );
    this.always = this.expander.always;
    this.eventually = this.expander.targets.filter((p) => p.withinMs !== undefined);
  }

  initial(): SwarmNode {
    return this.expander.initial();
  }

  /** The choices at a state, in the explorer's successor order: the tick (when something is queued), then each move the environment has left and may make now. */
  choices(node: SwarmNode): Choice[] {
    const out: Choice[] = [];
    if (this.expander.stepper.next(node.run)) out.push({ order: 0, step: { kind: 'tick' } });
    this.expander.groups.forEach((group, g) => {
      if (node.remaining[g] === 0 || !this.prepared.check.applicable(node.run, group.move.entry)) return;
      out.push({ order: 1 + g, step: { kind: 'env', index: group.move.index } });
    });
    return out;
  }

  take(node: SwarmNode, choice: Choice): SwarmNode {
    this.steps++;
    return this.expander.successor({ id: 0, ...node }, choice.order);
  }

  /** The choice a path step names at this state, if it is possible there. */
  choiceFor(node: SwarmNode, step: PathStep): Choice | undefined {
    return this.choices(node).find((c) =>
      step.kind === 'tick' ? c.step.kind === 'tick' : c.step.kind === 'env' && c.step.index === step.index,
    );
  }

  /** The always-properties this state breaks, among those not yet found. */
  brokenAlways(node: SwarmNode, skip: ReadonlySet<string>): Broken[] {
    return this.always.filter((p) => !skip.has(p.name) && !p.holds(node.run)).map((property) => ({ property }));
  }

  /**
   * The eventually-properties (among those not yet found) that do not settle within their bound
   * if the environment stops at this state: the explorer's settle time (columns.ts settleTimes)
   * along this state's quiet run — the time until the target holds from then on, infinite when it
   * fails somewhere on the cycle the quiet run ends in (equal canonical keys: equal futures).
   */
  unsettled(node: SwarmNode, skip: ReadonlySet<string>): Broken[] {
    if (this.eventually.every((p) => skip.has(p.name))) return [];
    const settle = this.settleTimes(node.run);
    if (!settle) return []; // undecided within QUIET_STEPS: no verdict rather than a guess
    return this.eventually.flatMap((property, j) =>
      !skip.has(property.name) && settle[j]! > property.withinMs! ? [{ property, settleMs: settle[j]! }] : [],
    );
  }

  /**
   * Each eventually-property's settle time from this state, by the rule of settleTimes: a state
   * settles at 0 when its target holds and its quiet successor settles at 0, else one tick's time
   * later than its successor; a cycle settles at 0 when the target holds all round, else never.
   * Quiet runs merge (the quiet successor is a function of the state), so every state's times are
   * kept by its canonical key and a later run stops where it meets one (the searches' results do
   * not depend on it: only how fast they come).
   */
  private settleTimes(start: Run): Float64Array | undefined {
    const cached = this.settled.get(this.keyHash(start));
    if (cached) return cached;
    const n = this.eventually.length;
    const walk: { hash: string; ok: boolean[]; dt: number }[] = [];
    const onWalk = new Map<string, number>();
    let tail: Float64Array | undefined;
    let run: Run = start;
    for (;;) {
      if (walk.length >= QUIET_STEPS) return undefined;
      const hash = this.keyHash(run);
      const known = this.settled.get(hash);
      if (known) {
        tail = known;
        break;
      }
      const at = onWalk.get(hash);
      if (at !== undefined) {
        tail = this.closeCycle(walk.splice(at));
        break;
      }
      onWalk.set(hash, walk.length);
      const ok = this.eventually.map((p) => p.holds(run));
      const next = this.expander.stepper.tick(run);
      this.quietSteps++;
      if (!next) {
        walk.push({ hash, ok, dt: 0 });
        tail = this.closeCycle(walk.splice(walk.length - 1));
        break;
      }
      walk.push({ hash, ok, dt: next.state.t - run.t });
      run = next.state;
    }
    for (let i = walk.length - 1; i >= 0; i--) {
      const { hash, ok, dt } = walk[i]!;
      const ms = new Float64Array(n);
      for (let j = 0; j < n; j++) ms[j] = ok[j] && tail[j] === 0 ? 0 : dt + tail[j]!;
      this.remember(hash, ms);
      tail = ms;
    }
    return tail;
  }

  /** The states of a quiet cycle all settle alike: at once when every target holds all round, else never. */
  private closeCycle(cycle: { hash: string; ok: boolean[] }[]): Float64Array {
    const ms = new Float64Array(this.eventually.length);
    for (let j = 0; j < ms.length; j++) ms[j] = cycle.every((c) => c.ok[j]) ? 0 : Number.POSITIVE_INFINITY;
    for (const c of cycle) this.remember(c.hash, ms);
    return ms;
  }

  private remember(hash: string, ms: Float64Array): void {
    if (this.settled.size >= SETTLED_CACHE) this.settled.clear();
    this.settled.set(hash, ms);
  }

  private keyHash(run: Run): string {
    this.expander.hash(run, NO_MOVES, this.hashOut);
    return `${this.hashOut[0]!.toString(36)}.${this.hashOut[1]!.toString(36)}`;
  }

  /**
   * On the start's quiet run (the environment never acting), how many of the first `depth` steps
   * the environment could act at — its window: a cron clock change may happen only in the minutes
   * before its `at`, a Pod kill at any time (then the whole depth). The walks draw their moves'
   * places over this window, so a move allowed only early is not spread over a thousand steps.
   * A function of the scenario alone: every seed sees the same window.
   */
  moveWindow(depth: number): number {
    const known = this.windows.get(depth);
    if (known !== undefined) return known;
    let node = this.initial();
    let window = 0;
    const seen = new Set<string>();
    for (let at = 0; at < depth; at++) {
      const choices = this.choices(node);
      if (choices.some((c) => c.step.kind === 'env')) window++;
      const tick = choices.find((c) => c.step.kind === 'tick');
      const h = this.hash(node);
      // Nothing queued, or going round a quiet cycle: what the cycle allows, it allows for ever.
      if (!tick || seen.has(h)) {
        if (choices.some((c) => c.step.kind === 'env')) window = depth;
        break;
      }
      seen.add(h);
      node = this.expander.successor({ id: 0, ...node }, tick.order);
    }
    this.windows.set(depth, Math.max(1, window));
    return Math.max(1, window);
  }
  private readonly windows = new Map<number, number>();

  /** The state's 64-bit hash (canonical key and moves left) as one string, for a search's own visited set. */
  hash(node: SwarmNode): string {
    this.expander.hash(node.run, node.remaining, this.hashOut);
    return `${this.hashOut[0]!.toString(36)}.${this.hashOut[1]!.toString(36)}`;
  }
  private readonly hashOut = new Uint32Array(2);

  /** Whether this state breaks the property (always: in it; eventually: if the environment stops here). */
  breaks(node: SwarmNode, property: CheckProperty<unknown, unknown>): Broken | undefined {
    if (property.kind === 'always') return property.holds(node.run) ? undefined : { property };
    return this.unsettled(node, new Set(this.eventually.filter((p) => p !== property).map((p) => p.name)))[0];
  }
}
