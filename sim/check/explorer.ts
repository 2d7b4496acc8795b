import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import type { CheckProperty, EnvMove, LoopCheck } from './model';
import type { StepState } from '../step';
import { Stepper } from '../step';
import { hash64 } from './hash';

/** One edge of a path: the next queued item happens (time passes), or the environment acts. */
export type PathStep = { kind: 'tick' } | { kind: 'env'; index: number };

export interface ExploreOptions {
  /** Stop expanding beyond this many steps from the start. */
  maxDepth?: number;
  /** Stop adding states beyond this many distinct states. */
  maxStates?: number;
  /** Called every `progressEvery` distinct states. */
  onProgress?: (distinct: number, depth: number) => void;
}

export type VerdictStatus = 'holds' | 'violated' | 'unknown';

export interface Verdict<W, C> {
  property: CheckProperty<W, C>;
  status: VerdictStatus;
  /** The shortest path to a violation (always, eventually) or, for sometimes, to a witness. */
  path?: PathStep[];
  /** eventually: the longest settle time seen (ms); violated: how long the counterexample took. */
  settleMs?: number;
  detail: string;
}

export interface ExploreStats {
  generated: number;
  distinct: number;
  depth: number;
  /** Every reachable state within the bounds was expanded. */
  complete: boolean;
  timeMs: number;
  distinctPerSecond: number;
  peakRssBytes: number;
  peakHeapBytes: number;
}

export interface ExploreResult<W, C> { stats: ExploreStats; verdicts: Verdict<W, C>[] }

interface Node<W, C> { id: number; run: StepState<W, C>; remaining: Uint8Array }

/** Growable Int32 storage: one slot per distinct state (parents, moves, quiet successors). */
export class IntColumn {
  private data = new Int32Array(1 << 12);
  set(i: number, v: number): void {
    if (i >= this.data.length) { const next = new Int32Array(Math.max(i + 1, this.data.length * 2)); next.set(this.data); this.data = next; }
    this.data[i] = v;
  }
  get(i: number): number { return this.data[i]!; }
}

const UNKNOWN = -1;
const TICK = -1;

/**
 * Breadth-first search over every reachable (machine snapshot, world, queue, remaining moves)
 * state: at each state either the next queued item happens, or the environment makes one of the
 * moves it has left (each timeline entry at most once, at any instant, in any order). Equal
 * states (by the loop's canonical key) are merged, so BFS order gives shortest counterexamples.
 * The quiet successor of each state (the tick) is kept to decide bounded convergence afterwards.
 */
export function explore<W, F, C>(
  binding: LoopBinding<W, F, C>, check: LoopCheck<W, F, C>, start: { config: C; world: W },
  alphabet: readonly EnvMove<F, C>[], properties: readonly CheckProperty<W, C>[], options: ExploreOptions = {},
): ExploreResult<W, C> {
  const began = performance.now();
  // Failed operations reach the machine as Error objects; their stack traces are never read here.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return search();
  } finally {
    Error.stackTraceLimit = stackLimit;
  }

  function search(): ExploreResult<W, C> {
  const stepper = new Stepper(binding);
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const maxStates = options.maxStates ?? 2_000_000;
  // Interchangeable moves (equal labels) share one counter, so their orderings are not told apart.
  const groups = groupMoves(check, alphabet);

  const always = properties.filter((p) => p.kind === 'always');
  const sometimes = properties.filter((p) => p.kind === 'sometimes');
  const eventually = properties.filter((p) => p.kind === 'eventually');
  const firstViolation = always.map(() => -1);
  const firstWitness = sometimes.map(() => -1);
  const targetOk = eventually.map(() => [] as boolean[]);

  const visited = new Map<string, number>();
  const parent = new IntColumn();
  const move = new IntColumn();
  const quietNext = new IntColumn();
  const quietDt = new IntColumn();
  let generated = 0;
  let peakRss = 0;
  let peakHeap = 0;
  let truncated = false;
  const sampleMemory = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };

  const canonical = check.canonicalizer(start, alphabet);
  const keyOf = (run: StepState<W, C>, remaining: Uint8Array) => hash64(`${canonical(run)}|${String.fromCharCode(...remaining)}`);
  const evaluate = (id: number, run: StepState<W, C>) => {
    always.forEach((p, i) => { if (firstViolation[i] === -1 && !p.holds(run)) firstViolation[i] = id; });
    sometimes.forEach((p, i) => { if (firstWitness[i] === -1 && p.holds(run)) firstWitness[i] = id; });
    eventually.forEach((p, i) => { targetOk[i]![id] = p.holds(run); });
  };
  /** Returns the id of the state, adding it when new (or -1 when the state budget is spent). */
  const discover = (run: StepState<W, C>, remaining: Uint8Array, from: number, via: number, next: Node<W, C>[]): number => {
    generated++;
    const key = keyOf(run, remaining);
    const known = visited.get(key);
    if (known !== undefined) return known;
    if (visited.size >= maxStates) { truncated = true; return UNKNOWN; }
    const id = visited.size;
    visited.set(key, id);
    parent.set(id, from);
    move.set(id, via);
    quietNext.set(id, UNKNOWN);
    evaluate(id, run);
    next.push({ id, run, remaining });
    if ((id & 0xfff) === 0) { sampleMemory(); options.onProgress?.(id, 0); }
    return id;
  };

  let frontier: Node<W, C>[] = [];
  discover(stepper.initial(start.config, start.world), Uint8Array.from(groups.map((g) => g.count)), -1, TICK, frontier);
  let depth = 0;
  while (frontier.length > 0) {
    if (depth >= maxDepth) { truncated = true; break; }
    const next: Node<W, C>[] = [];
    for (const node of frontier) {
      const ticked = stepper.tick(node.run);
      if (!ticked) { quietNext.set(node.id, node.id); quietDt.set(node.id, 0); } // nothing left: stays
      else {
        const id = discover(ticked.state, node.remaining, node.id, TICK, next);
        quietNext.set(node.id, id);
        quietDt.set(node.id, ticked.state.t - node.run.t);
      }
      for (let g = 0; g < groups.length; g++) {
        if (node.remaining[g] === 0) continue;
        const { entry, index } = groups[g]!.move;
        if (!check.applicable(node.run, entry)) continue;
        const remaining = node.remaining.slice();
        remaining[g]!--;
        discover(applyEntry(stepper, node.run, entry), remaining, node.id, index, next);
      }
    }
    frontier = next;
    if (next.length) depth++;
  }
  sampleMemory();

  const pathTo = (id: number): PathStep[] => {
    const steps: PathStep[] = [];
    for (let at = id; at !== 0; at = parent.get(at)) {
      const m = move.get(at);
      steps.push(m === TICK ? { kind: 'tick' } : { kind: 'env', index: m });
    }
    return steps.reverse();
  };
  const distinct = visited.size;
  const complete = !truncated;
  const verdicts: Verdict<W, C>[] = [];
  always.forEach((p, i) => {
    const id = firstViolation[i]!;
    verdicts.push(id === -1
      ? { property: p, status: complete ? 'holds' : 'unknown', detail: complete ? `holds in all ${distinct} states` : `holds in the ${distinct} states explored (bound reached)` }
      : { property: p, status: 'violated', path: pathTo(id), detail: `violated after ${pathTo(id).length} steps` });
  });
  sometimes.forEach((p, i) => {
    const id = firstWitness[i]!;
    verdicts.push(id !== -1
      ? { property: p, status: 'holds', path: pathTo(id), detail: `reached after ${pathTo(id).length} steps` }
      : { property: p, status: complete ? 'violated' : 'unknown', detail: `never reached in ${distinct} states` });
  });
  eventually.forEach((p, i) => {
    const settle = settleTimes(distinct, quietNext, quietDt, targetOk[i]!);
    const bound = p.withinMs ?? Number.POSITIVE_INFINITY;
    let worst = -1;
    let worstMs = 0;
    let unknown = 0;
    for (let id = 0; id < distinct; id++) {
      const ms = settle.ms[id]!;
      if (ms > bound) { worst = id; worstMs = ms; break; } // ids are in BFS order: the first is a shortest one
      if (!settle.exact[id]) unknown++;
      else worstMs = Math.max(worstMs, ms);
    }
    if (worst !== -1) {
      const never = !Number.isFinite(worstMs);
      verdicts.push({ property: p, status: 'violated', path: pathTo(worst), settleMs: worstMs,
        detail: never ? `never settles once the environment stops (${pathTo(worst).length} steps in)` : `settles only after ${worstMs / 1000}s > ${bound / 1000}s` });
    } else {
      verdicts.push({ property: p, status: unknown ? 'unknown' : 'holds', settleMs: worstMs,
        detail: `${unknown ? `undecided for ${unknown} states at the bound; ` : ''}worst settle time ${worstMs / 1000}s ≤ ${bound / 1000}s` });
    }
  });

  const timeMs = performance.now() - began;
  return {
    stats: { generated, distinct, depth, complete, timeMs, distinctPerSecond: distinct / (timeMs / 1000), peakRssBytes: peakRss, peakHeapBytes: peakHeap },
    verdicts,
  };
  }
}

export function applyEntry<W, F, C>(stepper: Stepper<W, F, C>, run: StepState<W, C>, entry: TimelineEntry<F, C>): StepState<W, C> {
  return 'config' in entry ? stepper.update(run, entry.config) : stepper.inject(run, entry.fault);
}

function groupMoves<W, F, C>(check: LoopCheck<W, F, C>, alphabet: readonly EnvMove<F, C>[]) {
  const groups: { label: string; move: EnvMove<F, C>; count: number }[] = [];
  for (const m of alphabet) {
    const g = groups.find((x) => x.label === m.label);
    if (g) g.count++;
    else groups.push({ label: m.label, move: m, count: 1 });
  }
  if (groups.some((g) => g.count > 255)) throw new Error('at most 255 equal moves');
  return groups;
}

/**
 * For each state, the virtual time along its quiet chain (the environment does nothing more)
 * until the target holds from then on. The quiet chains form a functional graph; each ends in a
 * cycle: a cycle where the target fails somewhere never settles (Infinity). A chain that leaves
 * the explored region gives a lower bound only (exact = false).
 */
export function settleTimes(n: number, next: IntColumn, dt: IntColumn, ok: boolean[]) {
  const ms = new Float64Array(n);
  const exact = new Uint8Array(n);
  const state = new Uint8Array(n); // 0 new, 1 on the current walk, 2 done
  const walk: number[] = [];
  for (let s = 0; s < n; s++) {
    if (state[s] === 2) continue;
    walk.length = 0;
    let at = s;
    let tailMs = 0;
    let tailExact = 1;
    for (;;) {
      if (at === UNKNOWN) { tailMs = 0; tailExact = 0; break; }
      if (state[at] === 2) { tailMs = ms[at]!; tailExact = exact[at]!; break; }
      if (state[at] === 1) {
        // A cycle: from `at` to the end of the walk. It settles only if the target holds all round.
        const from = walk.indexOf(at);
        const cycle = walk.splice(from);
        const allOk = cycle.every((c) => ok[c]);
        for (const c of cycle) { ms[c] = allOk ? 0 : Number.POSITIVE_INFINITY; exact[c] = 1; state[c] = 2; }
        tailMs = ms[at]!;
        tailExact = 1;
        break;
      }
      state[at] = 1;
      walk.push(at);
      at = next.get(at);
    }
    for (let i = walk.length - 1; i >= 0; i--) {
      const c = walk[i]!;
      ms[c] = ok[c] && tailMs === 0 ? 0 : dt.get(c) + tailMs;
      exact[c] = tailExact;
      state[c] = 2;
      tailMs = ms[c]!;
    }
  }
  return { ms, exact };
}
