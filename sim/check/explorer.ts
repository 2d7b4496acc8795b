import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import type { CheckProperty, EnvMove, LoopCheck } from './model';
import type { StepState } from '../step';
import { Stepper } from '../step';
import { hashState } from './hash';
import type { MemoStats } from '../memo-machine';
import { MemoMachine } from '../memo-machine';
import { VisitedSet } from './visited-set';

/** One edge of a path: the next queued item happens (time passes), or the environment acts. */
export type PathStep = { kind: 'tick' } | { kind: 'env'; index: number };

/** Where a search is, for a progress line. */
export interface Progress {
  distinct: number;
  generated: number;
  depth: number;
  /** States discovered but not yet expanded. */
  frontier: number;
  elapsedMs: number;
  rssBytes: number;
  /** The state bound, when one was given (for an ETA). */
  maxStates?: number;
}

export interface ExploreOptions {
  /** Stop expanding beyond this many steps from the start. */
  maxDepth?: number;
  /** Stop adding states beyond this many distinct states. */
  maxStates?: number;
  /** Stop cleanly (verdicts so far, the rest unknown) once the process's RSS passes this. */
  maxMemoryBytes?: number;
  /** Called about every `progressMs` (default 1000) of search time. */
  onProgress?: (progress: Progress) => void;
  progressMs?: number;
  /** Memoise machine transitions by (snapshot, event) (default on; off only to measure it). */
  memo?: boolean;
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

/** Why the search stopped: it ran out of states, or a bound, a limit or the user stopped it. */
export type StopReason = 'complete' | 'max-states' | 'max-depth' | 'max-memory' | 'interrupted';

export interface ExploreStats {
  generated: number;
  distinct: number;
  depth: number;
  /** Every reachable state within the bounds was expanded. */
  complete: boolean;
  stopped: StopReason;
  timeMs: number;
  /** CPU time of the process (user + system), which a loaded machine distorts less than wall time. */
  cpuMs: number;
  distinctPerSecond: number;
  peakRssBytes: number;
  peakHeapBytes: number;
  /** Bytes of the search's own tables (visited set, parents, moves, quiet successors, targets). */
  tableBytes: number;
  /** Transition memo: hits, misses (XState ran), interned snapshots, unkeyable calls. */
  memo?: MemoStats;
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
  bytes(): number { return this.data.byteLength; }
}

/** Growable 0/1 storage: one slot per distinct state (whether an eventually-target holds). */
export class BitColumn {
  private data = new Uint8Array(1 << 12);
  set(i: number, v: boolean): void {
    if (i >= this.data.length) { const next = new Uint8Array(Math.max(i + 1, this.data.length * 2)); next.set(this.data); this.data = next; }
    this.data[i] = v ? 1 : 0;
  }
  get(i: number): boolean { return this.data[i] === 1; }
  bytes(): number { return this.data.byteLength; }
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
  const search = new Search(binding, check, start, alphabet, properties, options);
  while (search.run(Number.POSITIVE_INFINITY));
  return search.result();
}

/**
 * The same search in slices of about `sliceMs`, giving the event loop a turn between slices, so
 * a signal (Ctrl-C) can stop it: `signal` aborted → the partial result, undecided verdicts unknown.
 */
export async function exploreAsync<W, F, C>(
  binding: LoopBinding<W, F, C>, check: LoopCheck<W, F, C>, start: { config: C; world: W },
  alphabet: readonly EnvMove<F, C>[], properties: readonly CheckProperty<W, C>[], options: ExploreOptions & { signal?: AbortSignal; sliceMs?: number } = {},
): Promise<ExploreResult<W, C>> {
  const search = new Search(binding, check, start, alphabet, properties, options);
  while (search.run(options.sliceMs ?? 50)) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) { search.stop('interrupted'); break; }
  }
  return search.result();
}

/** One breadth-first search, resumable: run() expands states for a while, result() judges. */
class Search<W, F, C> {
  private readonly began = performance.now();
  private readonly cpuBegan = process.cpuUsage();
  private readonly stepper: Stepper<W, F, C>;
  private readonly maxDepth: number;
  private readonly maxStates: number;
  private readonly groups: { label: string; move: EnvMove<F, C>; count: number }[];
  private readonly always: CheckProperty<W, C>[];
  private readonly sometimes: CheckProperty<W, C>[];
  private readonly eventually: CheckProperty<W, C>[];
  private readonly firstViolation: number[];
  private readonly firstWitness: number[];
  private readonly targetOk: BitColumn[];
  private readonly visited = new VisitedSet();
  private readonly hash = new Uint32Array(2);
  private readonly parent = new IntColumn();
  private readonly move = new IntColumn();
  private readonly quietNext = new IntColumn();
  private readonly quietDt = new IntColumn();
  private readonly canonical: (run: StepState<W, C>) => string;
  private generated = 0;
  private peakRss = 0;
  private peakHeap = 0;
  private stopped: StopReason = 'complete';
  private frontier: Node<W, C>[] = [];
  private next: Node<W, C>[] = [];
  private at = 0;
  private depth = 0;
  private lastProgress = 0;

  constructor(
    binding: LoopBinding<W, F, C>, private readonly check: LoopCheck<W, F, C>, start: { config: C; world: W },
    alphabet: readonly EnvMove<F, C>[], properties: readonly CheckProperty<W, C>[], private readonly options: ExploreOptions,
  ) {
    this.stepper = new Stepper(binding, { memo: options.memo ?? true });
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.maxStates = options.maxStates ?? 2_000_000;
    // Interchangeable moves (equal labels) share one counter, so their orderings are not told apart.
    this.groups = groupMoves(check, alphabet);
    this.always = properties.filter((p) => p.kind === 'always');
    this.sometimes = properties.filter((p) => p.kind === 'sometimes');
    this.eventually = properties.filter((p) => p.kind === 'eventually');
    this.firstViolation = this.always.map(() => -1);
    this.firstWitness = this.sometimes.map(() => -1);
    this.targetOk = this.eventually.map(() => new BitColumn());
    this.canonical = check.canonicalizer(start, alphabet);
    this.quietStacks(() => this.discover(this.stepper.initial(start.config, start.world), Uint8Array.from(this.groups.map((g) => g.count)), -1, TICK));
    this.frontier = this.next;
    this.next = [];
  }

  stop(reason: StopReason): void { if (this.stopped === 'complete') this.stopped = reason; }

  /** Expands states for about `budgetMs`; false once the search is over. */
  run(budgetMs: number): boolean {
    return this.quietStacks(() => {
      const until = performance.now() + budgetMs;
      let n = 0;
      while (this.stopped === 'complete') {
        if (this.at === this.frontier.length) {
          if (this.next.length === 0) return false;
          this.frontier = this.next;
          this.next = [];
          this.at = 0;
          this.depth++;
          if (this.depth >= this.maxDepth) { this.stop('max-depth'); return false; }
        }
        this.expand(this.frontier[this.at]!);
        this.frontier[this.at++] = undefined as unknown as Node<W, C>; // expanded: let it be collected
        if ((++n & 63) === 0 && performance.now() >= until) break;
      }
      return this.stopped === 'complete';
    });
  }

  /** Failed operations reach the machine as Error objects; their stack traces are never read here. */
  private quietStacks<T>(f: () => T): T {
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try { return f(); } finally { Error.stackTraceLimit = stackLimit; }
  }

  private expand(node: Node<W, C>): void {
    const { stepper, check, groups } = this;
    const ticked = stepper.tick(node.run);
    if (!ticked) { this.quietNext.set(node.id, node.id); this.quietDt.set(node.id, 0); } // nothing left: stays
    else {
      const id = this.discover(ticked.state, node.remaining, node.id, TICK);
      this.quietNext.set(node.id, id);
      this.quietDt.set(node.id, ticked.state.t - node.run.t);
    }
    for (let g = 0; g < groups.length; g++) {
      if (node.remaining[g] === 0) continue;
      const { entry, index } = groups[g]!.move;
      if (!check.applicable(node.run, entry)) continue;
      const remaining = node.remaining.slice();
      remaining[g]!--;
      this.discover(applyEntry(stepper, node.run, entry), remaining, node.id, index);
    }
  }

  private evaluate(id: number, run: StepState<W, C>): void {
    const { always, sometimes, eventually } = this;
    for (let i = 0; i < always.length; i++) if (this.firstViolation[i] === -1 && !always[i]!.holds(run)) this.firstViolation[i] = id;
    for (let i = 0; i < sometimes.length; i++) if (this.firstWitness[i] === -1 && sometimes[i]!.holds(run)) this.firstWitness[i] = id;
    for (let i = 0; i < eventually.length; i++) this.targetOk[i]!.set(id, eventually[i]!.holds(run));
  }

  /** Returns the id of the state, adding it when new (or -1 when the state budget is spent). */
  private discover(run: StepState<W, C>, remaining: Uint8Array, from: number, via: number): number {
    this.generated++;
    const { hash, visited } = this;
    hashState(this.canonical(run), remaining, hash);
    const known = visited.get(hash[0]!, hash[1]!);
    if (known !== -1) return known;
    if (visited.size >= this.maxStates) { this.stop('max-states'); return UNKNOWN; }
    const id = visited.size;
    visited.add(hash[0]!, hash[1]!, id);
    this.parent.set(id, from);
    this.move.set(id, via);
    this.quietNext.set(id, UNKNOWN);
    this.evaluate(id, run);
    this.next.push({ id, run, remaining });
    if ((id & 0xfff) === 0) this.sample();
    return id;
  }

  private sample(): void {
    const m = process.memoryUsage();
    this.peakRss = Math.max(this.peakRss, m.rss);
    this.peakHeap = Math.max(this.peakHeap, m.heapUsed);
    if (this.options.maxMemoryBytes !== undefined && m.rss > this.options.maxMemoryBytes) this.stop('max-memory');
    const now = performance.now();
    if (this.options.onProgress && now - this.lastProgress >= (this.options.progressMs ?? 1000)) {
      this.lastProgress = now;
      this.options.onProgress({
        distinct: this.visited.size, generated: this.generated, depth: this.depth, frontier: this.frontier.length - this.at + this.next.length,
        elapsedMs: now - this.began, rssBytes: m.rss, ...(this.options.maxStates !== undefined ? { maxStates: this.options.maxStates } : {}),
      });
    }
  }

  private pathTo(id: number): PathStep[] {
    const steps: PathStep[] = [];
    for (let at = id; at !== 0; at = this.parent.get(at)) {
      const m = this.move.get(at);
      steps.push(m === TICK ? { kind: 'tick' } : { kind: 'env', index: m });
    }
    return steps.reverse();
  }

  result(): ExploreResult<W, C> {
    this.sample();
    const distinct = this.visited.size;
    const complete = this.stopped === 'complete';
    const bound = this.stopped === 'interrupted' ? 'interrupted' : this.stopped === 'max-memory' ? 'memory limit reached' : 'bound reached';
    const verdicts: Verdict<W, C>[] = [];
    this.always.forEach((p, i) => {
      const id = this.firstViolation[i]!;
      verdicts.push(id === -1
        ? { property: p, status: complete ? 'holds' : 'unknown', detail: complete ? `holds in all ${distinct} states` : `holds in the ${distinct} states explored (${bound})` }
        : { property: p, status: 'violated', path: this.pathTo(id), detail: `violated after ${this.pathTo(id).length} steps` });
    });
    this.sometimes.forEach((p, i) => {
      const id = this.firstWitness[i]!;
      verdicts.push(id !== -1
        ? { property: p, status: 'holds', path: this.pathTo(id), detail: `reached after ${this.pathTo(id).length} steps` }
        : { property: p, status: complete ? 'violated' : 'unknown', detail: `never reached in ${distinct} states${complete ? '' : ` (${bound})`}` });
    });
    this.eventually.forEach((p, i) => {
      const settle = settleTimes(distinct, this.quietNext, this.quietDt, this.targetOk[i]!);
      const within = p.withinMs ?? Number.POSITIVE_INFINITY;
      let worst = -1;
      let worstMs = 0;
      let unknown = 0;
      for (let id = 0; id < distinct; id++) {
        const ms = settle.ms[id]!;
        if (ms > within) { worst = id; worstMs = ms; break; } // ids are in BFS order: the first is a shortest one
        if (!settle.exact[id]) unknown++;
        else worstMs = Math.max(worstMs, ms);
      }
      if (worst !== -1) {
        const never = !Number.isFinite(worstMs);
        verdicts.push({ property: p, status: 'violated', path: this.pathTo(worst), settleMs: worstMs,
          detail: never ? `never settles once the environment stops (${this.pathTo(worst).length} steps in)` : `settles only after ${worstMs / 1000}s > ${within / 1000}s` });
      } else {
        verdicts.push({ property: p, status: unknown ? 'unknown' : 'holds', settleMs: worstMs,
          detail: `${unknown ? `undecided for ${unknown} states at the bound; ` : ''}worst settle time ${worstMs / 1000}s ≤ ${within / 1000}s` });
      }
    });

    const timeMs = performance.now() - this.began;
    const cpu = process.cpuUsage(this.cpuBegan);
    const tableBytes = this.visited.bytes() + this.parent.bytes() + this.move.bytes() + this.quietNext.bytes() + this.quietDt.bytes()
      + this.targetOk.reduce((n, c) => n + c.bytes(), 0);
    const { pure } = this.stepper;
    return {
      stats: { generated: this.generated, distinct, depth: this.depth, complete, stopped: this.stopped, timeMs, cpuMs: (cpu.user + cpu.system) / 1000,
        distinctPerSecond: distinct / (timeMs / 1000), peakRssBytes: this.peakRss, peakHeapBytes: this.peakHeap, tableBytes,
        ...(pure instanceof MemoMachine ? { memo: { ...pure.stats } } : {}) },
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
export function settleTimes(n: number, next: IntColumn, dt: IntColumn, ok: { get(i: number): boolean }) {
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
        const allOk = cycle.every((c) => ok.get(c));
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
      ms[c] = ok.get(c) && tailMs === 0 ? 0 : dt.get(c) + tailMs;
      exact[c] = tailExact;
      state[c] = 2;
      tailMs = ms[c]!;
    }
  }
  return { ms, exact };
}
