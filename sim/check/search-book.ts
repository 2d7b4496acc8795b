import type { MemoStats } from '../memo-machine';
import { BitColumn, IntColumn, settleTimes } from './columns';
import { TICK } from './expander';
import type { CheckProperty, ExploreOptions, ExploreResult, Fairness, PathStep, StopReason, Verdict } from './model';
import type { VisitedTables } from './visited-set';
import { VisitedSet } from './visited-set';
import { EdgeList } from './edges';
import { findLasso } from './liveness';
import { judgedColumns } from './judged';
import { fingerprintStats } from './collision';

const UNKNOWN = -1;

/** A search book as typed arrays (tables(), restore()): what a checkpoint writes and reads. */
export interface BookTables {
  distinct: number;
  generated: number;
  depth: number;
  firstViolation: number[];
  firstWitness: number[];
  visited: VisitedTables;
  parent: Int32Array;
  move: Int32Array;
  quietNext: Int32Array;
  quietDt: Int32Array;
  targetOk: Uint8Array[];
  edges?: { start: Int32Array; to: Int32Array; via: Int32Array };
}

/**
 * A search's bookkeeping, apart from how states are made: the visited set (64-bit hash → id),
 * parents and moves (for shortest paths), quiet successors (for settle times), the first state
 * violating or witnessing each property, and the verdicts at the end. Ids are given in discovery
 * order, so the first violating id has a shortest path. The sequential and the parallel search
 * both feed it successors in the same (parent, order) order, so they give the same ids.
 */
export class SearchBook<W, C> {
  private readonly began = performance.now();
  private readonly cpuBegan = process.cpuUsage();
  visited = new VisitedSet();
  private parent = new IntColumn();
  private move = new IntColumn();
  private quietNext = new IntColumn();
  private quietDt = new IntColumn();
  readonly firstViolation: number[];
  readonly firstWitness: number[];
  targetOk: BitColumn[];
  /** Every edge, kept only when a liveness property is asked for (edges.ts). */
  private edges: EdgeList | undefined;
  private readonly livenessAt: { q: number; p: number }[];
  readonly maxStates: number;
  generated = 0;
  depth = 0;
  stopped: StopReason = 'complete';
  private peakRss = 0;
  private peakHeap = 0;
  private lastProgress = 0;

  constructor(
    readonly always: readonly CheckProperty<W, C>[],
    readonly sometimes: readonly CheckProperty<W, C>[],
    readonly eventually: readonly CheckProperty<W, C>[],
    private readonly options: ExploreOptions,
    /** The states waiting to be expanded, for progress reports (set anew when another search takes the book over). */
    public frontierSize: () => number,
    /** Liveness properties (leads-to, eventually-always): their bits follow the targets' in targetOk (judged.ts). */
    readonly liveness: readonly CheckProperty<W, C>[] = [],
  ) {
    this.maxStates = options.maxStates ?? 2_000_000;
    this.firstViolation = always.map(() => -1);
    this.firstWitness = sometimes.map(() => -1);
    const judged = judgedColumns([...eventually, ...liveness]);
    this.livenessAt = judged.at;
    this.targetOk = judged.columns.map(() => new BitColumn());
    this.edges = liveness.length ? new EdgeList() : undefined;
  }

  /** Everything the book holds, as typed arrays (views: write them before the search goes on), for a checkpoint (checkpoint.ts). */
  tables(): BookTables {
    const n = this.visited.size;
    return {
      distinct: n,
      generated: this.generated,
      depth: this.depth,
      firstViolation: [...this.firstViolation],
      firstWitness: [...this.firstWitness],
      visited: this.visited.tables(),
      parent: this.parent.head(n),
      move: this.move.head(n),
      quietNext: this.quietNext.head(n),
      quietDt: this.quietDt.head(n),
      targetOk: this.targetOk.map((c) => c.head(n)),
      ...(this.edges ? { edges: this.edges.tables() } : {}),
    };
  }

  /** Back to what tables() gave (a search resumed from a checkpoint): the same ids, verdicts and counts. */
  restore(t: BookTables): void {
    if (
      t.firstViolation.length !== this.firstViolation.length ||
      t.firstWitness.length !== this.firstWitness.length ||
      t.targetOk.length !== this.targetOk.length ||
      (t.edges !== undefined) !== (this.edges !== undefined)
    )
      throw new Error('explorer: a checkpoint of other properties');
    this.visited = VisitedSet.of(t.visited, t.distinct);
    this.parent = IntColumn.of(t.parent);
    this.move = IntColumn.of(t.move);
    this.quietNext = IntColumn.of(t.quietNext);
    this.quietDt = IntColumn.of(t.quietDt);
    this.targetOk = t.targetOk.map((c) => BitColumn.of(c));
    if (t.edges) this.edges = EdgeList.of(t.edges);
    t.firstViolation.forEach((id, i) => {
      this.firstViolation[i] = id;
    });
    t.firstWitness.forEach((id, i) => {
      this.firstWitness[i] = id;
    });
    this.generated = t.generated;
    this.depth = t.depth;
  }

  parentOf(id: number): number {
    return this.parent.get(id);
  }
  moveOf(id: number): number {
    return this.move.get(id);
  }

  /** A state with nothing queued: time passes and nothing happens (a stutter edge; liveness.ts). */
  stutter(id: number): void {
    this.edges?.add(id, id, TICK);
  }

  stop(reason: StopReason): void {
    if (this.stopped === 'complete') this.stopped = reason;
  }

  /**
   * A successor reached from `from` by `via`: its id — new ones get the next id and are judged by
   * `judge` — or -1 when the state bound is spent. `isNew` tells which.
   */
  isNew = false;
  admit(h: number, l: number, from: number, via: number, judge: (id: number) => void): number {
    const known = this.visited.get(h, l);
    if (known !== -1) return this.admitKnown(from, known, via);
    this.generated++;
    this.isNew = false;
    if (this.visited.size >= this.maxStates) {
      this.stop('max-states');
      return UNKNOWN;
    }
    const id = this.visited.size;
    this.visited.add(h, l, id);
    if (from >= 0) this.edges?.add(from, id, via);
    this.parent.set(id, from);
    this.move.set(id, via);
    this.quietNext.set(id, UNKNOWN);
    this.isNew = true;
    judge(id);
    if ((id & 0xfff) === 0) this.sample();
    return id;
  }

  /**
   * A successor already known to be state `known` (found in the visited set by admit(), or by a
   * parallel worker in the shared one): counted, and linked when liveness keeps the edges.
   */
  admitKnown(from: number, known: number, via: number): number {
    this.generated++;
    this.isNew = false;
    if (from >= 0) this.edges?.add(from, known, via);
    return known;
  }

  /** The quiet successor of `id` (what happens when the environment does nothing more). */
  quiet(id: number, next: number, dt: number): void {
    this.quietNext.set(id, next);
    this.quietDt.set(id, dt);
  }

  violates(i: number, id: number): void {
    if (this.firstViolation[i] === -1) this.firstViolation[i] = id;
  }
  witnesses(i: number, id: number): void {
    if (this.firstWitness[i] === -1) this.firstWitness[i] = id;
  }

  sample(): void {
    const m = process.memoryUsage();
    this.peakRss = Math.max(this.peakRss, m.rss);
    this.peakHeap = Math.max(this.peakHeap, m.heapUsed);
    if (this.options.maxMemoryBytes !== undefined && m.rss > this.options.maxMemoryBytes) this.stop('max-memory');
    const now = performance.now();
    if (this.options.onProgress && now - this.lastProgress >= (this.options.progressMs ?? 1000)) {
      this.lastProgress = now;
      this.options.onProgress({
        distinct: this.visited.size,
        generated: this.generated,
        depth: this.depth,
        frontier: this.frontierSize(),
        elapsedMs: now - this.began,
        rssBytes: m.rss,
        ...(this.options.maxStates !== undefined ? { maxStates: this.options.maxStates } : {}),
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

  /** Liveness verdicts: a lasso found is a violation even in a partial graph (its states and edges are real). */
  private judgeLiveness(verdicts: Verdict<W, C>[], distinct: number, complete: boolean, bound: string): void {
    const { edges } = this;
    if (!edges) return;
    edges.close(distinct);
    const graph = {
      n: distinct,
      edges,
      bit: (column: number, id: number) => this.targetOk[column]!.get(id),
      pathTo: (id: number) => this.pathTo(id),
    };
    const fairness: Fairness = this.options.fairness ?? 'weak';
    const fairly = fairness === 'weak' ? 'fair ' : '';
    this.liveness.forEach((p, i) => {
      if (p.kind !== 'leads-to' && p.kind !== 'eventually-always') throw new Error(`${p.name}: not a liveness property`);
      const { q, p: when } = this.livenessAt[i]!;
      const lasso = findLasso(graph, p.kind, q, when, fairness);
      if (lasso) {
        const cycle = lasso.path.length - lasso.cycleStart;
        verdicts.push({
          property: p,
          status: 'violated',
          path: lasso.path,
          cycleStart: lasso.cycleStart,
          detail: `violated on a ${fairly}lasso: ${lasso.cycleStart} steps, then a cycle of ${cycle} steps repeated for ever`,
        });
      } else {
        verdicts.push({
          property: p,
          status: complete ? 'holds' : 'unknown',
          detail: complete
            ? `no ${fairly}cycle violates it in ${distinct} states, ${edges.size} edges`
            : `no ${fairly}violating cycle in the ${distinct} states explored (${bound})`,
        });
      }
    });
  }

  result(memo: MemoStats | undefined, workers: number): ExploreResult<W, C> {
    this.sample();
    const distinct = this.visited.size;
    const complete = this.stopped === 'complete';
    const bound = this.stopped === 'interrupted' ? 'interrupted' : this.stopped === 'max-memory' ? 'memory limit reached' : 'bound reached';
    const verdicts: Verdict<W, C>[] = [];
    this.always.forEach((p, i) => {
      const id = this.firstViolation[i]!;
      verdicts.push(
        id === -1
          ? {
              property: p,
              status: complete ? 'holds' : 'unknown',
              detail: complete ? `holds in all ${distinct} states` : `holds in the ${distinct} states explored (${bound})`,
            }
          : { property: p, status: 'violated', path: this.pathTo(id), detail: `violated after ${this.pathTo(id).length} steps` },
      );
    });
    this.sometimes.forEach((p, i) => {
      const id = this.firstWitness[i]!;
      verdicts.push(
        id !== -1
          ? { property: p, status: 'holds', path: this.pathTo(id), detail: `reached after ${this.pathTo(id).length} steps` }
          : {
              property: p,
              status: complete ? 'violated' : 'unknown',
              detail: `never reached in ${distinct} states${complete ? '' : ` (${bound})`}`,
            },
      );
    });
    this.eventually.forEach((p, i) => {
      const settle = settleTimes(distinct, this.quietNext, this.quietDt, this.targetOk[i]!);
      const within = p.withinMs ?? Number.POSITIVE_INFINITY;
      let worst = -1;
      let worstMs = 0;
      let unknown = 0;
      for (let id = 0; id < distinct; id++) {
        const ms = settle.ms[id]!;
        if (ms > within) {
          worst = id;
          worstMs = ms;
          break;
        } // ids are in BFS order: the first is a shortest one
        if (!settle.exact[id]) unknown++;
        else worstMs = Math.max(worstMs, ms);
      }
      if (worst !== -1) {
        const never = !Number.isFinite(worstMs);
        verdicts.push({
          property: p,
          status: 'violated',
          path: this.pathTo(worst),
          settleMs: worstMs,
          detail: never
            ? `never settles once the environment stops (${this.pathTo(worst).length} steps in)`
            : `settles only after ${worstMs / 1000}s > ${within / 1000}s`,
        });
      } else {
        verdicts.push({
          property: p,
          status: unknown ? 'unknown' : 'holds',
          settleMs: worstMs,
          detail: `${unknown ? `undecided for ${unknown} states at the bound; ` : ''}worst settle time ${worstMs / 1000}s ≤ ${within / 1000}s`,
        });
      }
    });

    this.judgeLiveness(verdicts, distinct, complete, bound);

    const timeMs = performance.now() - this.began;
    const cpu = process.cpuUsage(this.cpuBegan);
    const tableBytes =
      this.visited.bytes() +
      this.parent.bytes() +
      this.move.bytes() +
      this.quietNext.bytes() +
      this.quietDt.bytes() +
      this.targetOk.reduce((n, c) => n + c.bytes(), 0) +
      (this.edges?.bytes() ?? 0);
    return {
      stats: {
        generated: this.generated,
        distinct,
        depth: this.depth,
        complete,
        stopped: this.stopped,
        timeMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        distinctPerSecond: distinct / (timeMs / 1000),
        peakRssBytes: this.peakRss,
        peakHeapBytes: this.peakHeap,
        tableBytes,
        workers,
        fingerprint: fingerprintStats(distinct, this.generated),
        ...(memo ? { memo } : {}),
      },
      verdicts,
    };
  }
}
