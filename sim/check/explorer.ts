import type { LoopBinding } from '../model';
import type { CheckProperty, EnvMove, ExploreOptions, ExploreResult, LoopCheck } from './model';
import { MemoMachine } from '../memo-machine';
import type { SearchNode } from './expander';
import { Expander } from './expander';
import { SearchBook } from './search-book';
import type { FrontierLevel } from './frontier';
import { LazyLevel } from './frontier';
import { SpilledLevel } from './spilled-level';
import { hasCheckpoint, readCheckpoint, writeCheckpoint } from './checkpoint';
import { rebuildLevel } from './resume';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Breadth-first search over every reachable (machine snapshot, world, queue, remaining moves)
 * state: at each state either the next queued item happens, or the environment makes one of the
 * moves it has left (each timeline entry at most once, at any instant, in any order). Equal
 * states (by the loop's canonical key) are merged, so BFS order gives shortest counterexamples.
 * The quiet successor of each state (the tick) is kept to decide bounded convergence afterwards.
 */
export function explore<W, F, C>(
  binding: LoopBinding<W, F, C>,
  check: LoopCheck<W, F, C>,
  start: { config: C; world: W },
  alphabet: readonly EnvMove<F, C>[],
  properties: readonly CheckProperty<W, C>[],
  options: ExploreOptions = {},
): ExploreResult<W, C> {
  const search = new Search(binding, check, start, alphabet, properties, options);
  while (search.run(Number.POSITIVE_INFINITY));
  return search.result();
}

/**
 * A sequential search stopped at a level boundary for the parallel search to go on from
 * (parallel.ts): its book — ids, parents and moves, verdicts so far — and where the level about to
 * be expanded starts (BFS numbers a level's states consecutively: they are frontierFrom … distinct − 1).
 */
export interface HandOver<W, C> {
  book: SearchBook<W, C>;
  frontierFrom: number;
}

export const isHandOver = <W, C>(r: ExploreResult<W, C> | HandOver<W, C>): r is HandOver<W, C> => 'frontierFrom' in r;

/**
 * The same search in slices of about `sliceMs`, giving the event loop a turn between slices, so
 * a signal (Ctrl-C) can stop it: `signal` aborted → the partial result, undecided verdicts unknown.
 * `onSlice` runs between slices; `handOver`, asked at each level boundary with the depth of the
 * level about to be expanded, returning true stops the search there and hands its work over.
 */
export async function exploreAsync<W, F, C>(
  binding: LoopBinding<W, F, C>,
  check: LoopCheck<W, F, C>,
  start: { config: C; world: W },
  alphabet: readonly EnvMove<F, C>[],
  properties: readonly CheckProperty<W, C>[],
  options: ExploreOptions & { signal?: AbortSignal; sliceMs?: number; onSlice?: () => void; handOver?: (depth: number) => boolean } = {},
): Promise<ExploreResult<W, C> | HandOver<W, C>> {
  const search = new Search(binding, check, start, alphabet, properties, options);
  while (search.run(options.sliceMs ?? 50)) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) {
      search.book.stop('interrupted');
      break;
    }
    options.onSlice?.();
  }
  return search.handedOver ? search.handOver() : search.result();
}

/** Failed operations reach the machine as Error objects; their stack traces are never read here. */
export function quietStacks<T>(f: () => T): T {
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/**
 * A level keeps its first states whole and the rest lazily (frontier.ts): re-deriving costs ~10 %
 * of the time, so only a wide level — where the frontier is the memory — pays it. Measured on the
 * bench's 10⁶-state case (widest level 338,319): peak heap after GC 397 → 284 MiB, peak RSS of
 * `check` 885 → 748 MiB, time +4 %; hpa-bench-medium (widest 11,774) stays whole and as fast.
 */
const LAZY_FROM = 1 << 16;

/** The sequential search, resumable: run() expands states for a while, result() judges. */
class Search<W, F, C> {
  private readonly expander: Expander<W, F, C>;
  readonly book: SearchBook<W, C>;
  private readonly maxDepth: number;
  private readonly lazyFrom: number;
  private readonly hash = new Uint32Array(2);
  // The level being expanded and the next (frontier.ts): past LAZY_FROM states, re-derived from their parents.
  private frontier: FrontierLevel<W, C> = new LazyLevel<W, C>();
  private next: FrontierLevel<W, C> = new LazyLevel<W, C>();
  private at = 0;
  /** With spillDir: this search's own directory in it, for its level files. */
  private readonly spill: string | undefined;
  private readonly checkpoint: ExploreOptions['checkpoint'];
  private lastCheckpoint = performance.now();
  private resumedFrom: { depth: number; distinct: number } | undefined;
  /** The node being expanded: the parent of the states discovered now (none while the start is discovered). */
  private expanding: SearchNode<W, C> | undefined;
  private expandingOrder = 0;
  /** Asked at each level boundary (exploreAsync's handOver). */
  private readonly wantsHandOver: (depth: number) => boolean;
  /** Stopped at a level boundary to hand its work over (handOver()). */
  handedOver = false;

  constructor(
    binding: LoopBinding<W, F, C>,
    check: LoopCheck<W, F, C>,
    start: { config: C; world: W },
    alphabet: readonly EnvMove<F, C>[],
    properties: readonly CheckProperty<W, C>[],
    options: ExploreOptions & { handOver?: (depth: number) => boolean },
  ) {
    this.wantsHandOver = options.handOver ?? (() => false);
    this.expander = new Expander(binding, check, start, alphabet, properties, options.memo ?? true, options.symmetry ?? true);
    const { always, sometimes, targets, liveness } = this.expander;
    this.book = new SearchBook(always, sometimes, targets, options, () => this.frontier.length - this.at + this.next.length, liveness);
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.lazyFrom = options.lazyFrom ?? LAZY_FROM;
    this.spill = options.spillDir !== undefined ? mkdtempSync(join(options.spillDir, 'loopscope-frontier-')) : undefined;
    this.checkpoint = options.checkpoint;
    this.frontier = this.level();
    this.next = this.level();
    const resume = this.checkpoint && hasCheckpoint(this.checkpoint.dir) ? readCheckpoint(this.checkpoint.dir) : undefined;
    if (resume) {
      // The caller refuses another search's checkpoint with a clear line first (cli/check-command.ts); this is the guard.
      if (resume.identity !== this.checkpoint!.identity)
        throw new Error(`checkpoint in ${this.checkpoint!.dir} belongs to another scenario or other options`);
      this.book.restore(resume.tables);
      this.frontier = quietStacks(() => rebuildLevel(this.expander, this.book, resume.frontierFrom, resume.tables.distinct, this.level()));
      this.resumedFrom = { depth: resume.tables.depth, distinct: resume.tables.distinct };
      return;
    }
    quietStacks(() => {
      const { run, remaining } = this.expander.initial();
      this.discover(run, remaining, -1, -1);
    });
    this.frontier = this.next;
    this.next = this.level();
  }

  private level(): FrontierLevel<W, C> {
    return this.spill !== undefined ? new SpilledLevel<W, C>(this.spill) : new LazyLevel<W, C>();
  }

  /** At a level boundary: the book and where the new level starts, when the last checkpoint is old enough. */
  private maybeCheckpoint(): void {
    const c = this.checkpoint;
    if (!c || performance.now() - this.lastCheckpoint < c.everyMs) return;
    const tables = this.book.tables();
    writeCheckpoint(c.dir, c.identity, tables, tables.distinct - this.frontier.length);
    this.lastCheckpoint = performance.now();
    c.onWrite?.({ depth: tables.depth, distinct: tables.distinct });
  }

  /** Expands states for about `budgetMs`; false once the search is over. */
  run(budgetMs: number): boolean {
    const { book } = this;
    return quietStacks(() => {
      const until = performance.now() + budgetMs;
      let n = 0;
      while (book.stopped === 'complete') {
        if (this.at === this.frontier.length) {
          if (this.next.length === 0) return false;
          this.frontier.dispose?.();
          this.frontier = this.next;
          this.next = this.level();
          this.at = 0;
          book.depth++;
          if (book.depth >= this.maxDepth) {
            book.stop('max-depth');
            return false;
          }
          this.maybeCheckpoint();
          if (this.wantsHandOver(book.depth)) {
            this.handedOver = true;
            return false;
          }
        }
        const node = this.frontier.take(this.at++, (parent, order) => this.expander.successor(parent, order));
        this.expanding = node;
        const ticks = this.expander.successors(node, (run, remaining, order, via, dt) => {
          this.expandingOrder = order;
          const id = this.discover(run, remaining, node.id, via);
          if (order === 0) book.quiet(node.id, id, dt);
        });
        this.expanding = undefined;
        // Nothing left: it stays (a stutter edge, after the moves' edges as the parallel workers send it: equal lassos).
        if (!ticks) {
          book.quiet(node.id, node.id, 0);
          book.stutter(node.id);
        }
        if ((++n & 63) === 0 && performance.now() >= until) break;
      }
      return book.stopped === 'complete';
    });
  }

  private discover(run: SearchNode<W, C>['run'], remaining: Uint8Array, from: number, via: number): number {
    const { hash, book, expander } = this;
    expander.hash(run, remaining, hash);
    const id = book.admit(hash[0]!, hash[1]!, from, via, (id) => {
      for (let i = 0; i < expander.always.length; i++)
        if (book.firstViolation[i] === -1 && !expander.always[i]!.holds(run)) book.violates(i, id);
      for (let i = 0; i < expander.sometimes.length; i++)
        if (book.firstWitness[i] === -1 && expander.sometimes[i]!.holds(run)) book.witnesses(i, id);
      for (let i = 0; i < expander.eventually.length; i++) book.targetOk[i]!.set(id, expander.eventually[i]!.holds(run));
    });
    if (book.isNew) {
      if (this.expanding && this.next.length >= this.lazyFrom) this.next.push(this.expanding, this.expandingOrder, id);
      else this.next.pushWhole({ id, run, remaining });
    }
    return id;
  }

  /** What a search stopped at a level boundary (handedOver) passes on: the level is re-derived from the book (resume.ts). */
  handOver(): HandOver<W, C> {
    if (!this.handedOver || this.at !== 0 || this.next.length !== 0) throw new Error('explorer: a hand-over between level boundaries');
    const frontierFrom = this.book.visited.size - this.frontier.length;
    this.frontier.dispose?.();
    this.frontier = this.level();
    if (this.spill !== undefined) rmSync(this.spill, { recursive: true, force: true });
    return { book: this.book, frontierFrom };
  }

  result(): ExploreResult<W, C> {
    const { pure } = this.expander.stepper;
    const result = this.book.result(pure instanceof MemoMachine ? { ...pure.stats } : undefined, 1);
    this.frontier.dispose?.();
    this.next.dispose?.();
    if (this.spill !== undefined) rmSync(this.spill, { recursive: true, force: true });
    return {
      ...result,
      stats: { ...result.stats, symmetry: this.expander.symmetry, ...(this.resumedFrom ? { resumedFrom: this.resumedFrom } : {}) },
    };
  }
}
