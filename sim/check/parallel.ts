import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { COMPILED } from '../compiled';
import type { MemoStats } from '../memo-machine';
import type { ExploreOptions, ExploreResult } from './model';
import type { CheckProperty } from './model';
import type { FromWorker, ToWorker, WorkerSetup } from './parallel-protocol';
import { NO_TICK, R, STRIDE } from './parallel-protocol';
import { SearchBook } from './search-book';
import type { HandOver } from './explorer';
import { VisitedSet } from './visited-set';
import { judgedColumns } from './judged';

// Compiled, the worker is its own entry of the bundle (dist/node/check-worker.js, next to every chunk);
// from source, a plain-JS entry registers tsx first.
const WORKER_ENTRY = COMPILED ? new URL('./check-worker.js', import.meta.url) : new URL('./parallel-boot.mjs', import.meta.url);

/**
 * Cores from which a parallel search pays. On 2 cores two workers lose to one thread (0.57–0.78× and
 * 2.1–2.8 GiB at 10⁶ states, docs/benchmarks.md): the calling thread keeps the visited set while the
 * workers expand, so three busy threads share two cores and each worker keeps its own memo.
 */
export const PARALLEL_FROM_CORES = 4;

/** --workers when the user did not say, and the report's line saying what was chosen and why. */
export interface WorkersChoice {
  workers: number;
  line: string;
}

export function defaultWorkers(cores = availableParallelism()): WorkersChoice {
  return cores >= PARALLEL_FROM_CORES
    ? {
        workers: cores,
        line: `workers: ${cores}, the default here (one per core from ${PARALLEL_FROM_CORES} cores; --workers 1 searches in one thread)`,
      }
    : {
        workers: 1,
        line: `workers: 1, the default on ${cores} core${cores === 1 ? '' : 's'} (a parallel search wins from ${PARALLEL_FROM_CORES} cores; --workers N to choose)`,
      };
}

/** Worker threads for one search; each says 'ready' once it has loaded the loop and its check. */
export class Pool {
  private readonly workers: Worker[];
  private readonly waiting: ((m: FromWorker) => void)[][];
  private failure: Error | undefined;
  private booted = 0;
  readonly ready: Promise<void>;

  constructor(n: number, setup: WorkerSetup) {
    this.workers = Array.from({ length: n }, () => new Worker(WORKER_ENTRY, { workerData: setup }));
    this.waiting = this.workers.map(() => []);
    let isReady = () => {};
    let failed = (_e: Error) => {};
    this.ready = new Promise((resolve, reject) => {
      isReady = resolve;
      failed = reject;
    });
    // Nobody may be waiting yet: a worker that fails before it is ready must not leave this pending for ever.
    this.ready.catch(() => {});
    this.workers.forEach((w, i) => {
      w.on('message', (m: FromWorker) => {
        if (m.type === 'ready') {
          if (++this.booted === n) isReady();
          return;
        }
        this.waiting[i]!.shift()?.(m);
      });
      w.on('error', (e) => {
        this.failure = e;
        failed(new Error(`explorer worker ${i} failed while loading: ${e.message}`));
        for (const q of this.waiting[i]!.splice(0)) q({ type: 'error', message: e.message });
      });
    });
  }

  get size(): number {
    return this.workers.length;
  }
  get isReady(): boolean {
    return this.booted === this.workers.length;
  }

  post(i: number, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.workers[i]!.postMessage(message, transfer);
  }

  /** Sends and waits for the worker's answer. */
  ask(i: number, message: ToWorker): Promise<FromWorker> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting[i]!.push((m) => (m.type === 'error' ? reject(new Error(`explorer worker ${i}: ${m.message}`)) : resolve(m)));
      this.post(i, message);
    });
  }

  close(): Promise<number[]> {
    return Promise.all(this.workers.map((w) => w.terminate()));
  }
}

const records = (m: FromWorker) => {
  if (m.type !== 'records') throw new Error(`explorer worker: expected records, got ${m.type}`);
  return m;
};

/**
 * Breadth-first search over worker threads, level by level. The states live in the workers:
 * each expands its part of the frontier — XState, the world, the canonical key and its hash,
 * the properties: the per-state work — and sends one small record per successor. The main thread
 * alone writes the visited set, a shared one (VisitedSet.shared) the workers read: a successor a
 * worker finds there is a state of an earlier level, sent as its id, unjudged. The main thread
 * walks the records in (parent id, successor order) — exactly the sequential search's discovery
 * order — so ids, verdicts, shortest counterexamples and state counts equal the sequential
 * search's for any number of workers. New states stay with the worker that made them for the
 * next level.
 *
 * Why the shared table needs no atomics: the main thread writes it (admitLevel, growing it too)
 * only after every worker has answered the level's 'expand', and posts the next 'expand' — with the
 * table's current buffers — only after it is done; a worker reads it only while it expands. The
 * messages order the two (no write while a worker reads), and a hash a worker finds there maps to
 * the id the sequential search would find, since entries are never changed once written.
 *
 * `from`: a sequential search stopped at a level boundary (explorer.ts HandOver) — its book
 * becomes this search's, and the workers re-derive the level it was about to expand, each a
 * consecutive block of its ids, instead of starting over from the initial state.
 */
export async function exploreParallel<W, C>(
  pool: Pool,
  properties: readonly CheckProperty<W, C>[],
  options: ExploreOptions & { signal?: AbortSignal } = {},
  from?: HandOver<W, C>,
): Promise<ExploreResult<W, C>> {
  await pool.ready;
  const workers = pool.size;
  const always = properties.filter((p) => p.kind === 'always');
  const sometimes = properties.filter((p) => p.kind === 'sometimes');
  // The workers' Expander judges the same columns in the same order (judged.ts).
  const { targets, liveness, columns } = judgedColumns(properties);
  if (Math.max(always.length, sometimes.length, columns.length) > 31)
    throw new Error('the parallel search judges at most 31 properties of a kind');
  let frontierSize = 0;
  const handedOverAt = from ? { depth: from.book.depth, distinct: from.book.visited.size } : undefined;
  const book = from?.book ?? new SearchBook(always, sometimes, targets, options, () => frontierSize, liveness);
  book.frontierSize = () => frontierSize;
  book.visited = VisitedSet.shared(book.visited);
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let batches: { records: Int32Array; count: number }[] = [];
  let owners: number[] = [];
  // New states stay with the worker that made them, so from the initial state (worker 0's) all would stay in
  // worker 0: once a level is wide enough, the workers share it out as they share a handed-over one.
  let shared = from !== undefined || pool.size === 1;
  if (from) frontierSize = await rebuildFrontier(pool, book, from.frontierFrom);
  else {
    batches = [records(await pool.ask(0, { type: 'root' }))];
    owners = [0];
  }
  // A handed-over search stopped where a level was about to be expanded: it was admitted, counted and bounded already.
  for (let level = from ? book.depth : 0, admitted = !from; ; level++, admitted = true) {
    if (admitted) {
      const kept = admitLevel(book, batches);
      frontierSize = kept.reduce((n, k) => n + k.kept, 0);
      owners.forEach((w, i) => {
        const ids = kept[i]!.ids;
        pool.post(w, { type: 'keep', ids }, [ids.buffer as ArrayBuffer]); // cast: ids is built on a plain ArrayBuffer, never a SharedArrayBuffer
      });
      if (book.stopped !== 'complete' || frontierSize === 0) break;
      if (level > 0) {
        // as the sequential search counts: the depth of the deepest level reached
        book.depth++;
        if (book.depth >= maxDepth) {
          book.stop('max-depth');
          break;
        }
      }
    }
    if (options.signal?.aborted) {
      book.stop('interrupted');
      break;
    }
    const decidedAlways = book.firstViolation.reduce((m, id, i) => (id === -1 ? m : m | (1 << i)), 0);
    const decidedSometimes = book.firstWitness.reduce((m, id, i) => (id === -1 ? m : m | (1 << i)), 0);
    if (!shared && frontierSize >= SHARE_FROM * pool.size) {
      await rebuildFrontier(pool, book, book.visited.size - frontierSize);
      shared = true;
    }
    const visited = book.visited.tables();
    owners = Array.from({ length: pool.size }, (_, i) => i);
    try {
      batches = (await Promise.all(owners.map((w) => pool.ask(w, { type: 'expand', decidedAlways, decidedSometimes, visited })))).map(
        records,
      );
    } catch (e) {
      // A worker whose heap filled up stops the search as --max-memory would: verdicts so far, the rest unknown.
      if (!isOutOfMemory(e)) throw e;
      book.stop('max-memory');
      break;
    }
    if (options.signal?.aborted) {
      book.stop('interrupted');
      break;
    }
  }
  const { memo, expandedBy } = book.stopped === 'max-memory' ? {} : await workerStats(pool);
  const result = book.result(memo, workers);
  return { ...result, stats: { ...result.stats, ...(expandedBy ? { expandedBy } : {}), ...(handedOverAt ? { handedOverAt } : {}) } };
}

/** States a worker's share of a level has at least when the workers first share one out (each re-derives its share once). */
const SHARE_FROM = 32;

/**
 * The workers re-derive a handed-over level (ids frontierFrom … distinct − 1), each a consecutive
 * block (fewer shared ancestors to step again than every N-th id), from the book's (parent, move)
 * records, shared once; returns the level's size.
 */
async function rebuildFrontier<W, C>(pool: Pool, book: SearchBook<W, C>, frontierFrom: number): Promise<number> {
  const { parent, move, distinct } = book.tables();
  const shared = (a: Int32Array) => {
    const s = new Int32Array(new SharedArrayBuffer(a.byteLength));
    s.set(a);
    return s;
  };
  const records = { parent: shared(parent), move: shared(move) };
  const size = distinct - frontierFrom;
  const block = Math.ceil(size / pool.size);
  const counts = await Promise.all(
    Array.from({ length: pool.size }, (_, w) => {
      const lo = Math.min(distinct, frontierFrom + w * block);
      const hi = Math.min(distinct, lo + block);
      return pool.ask(w, { type: 'rebuild', from: lo, to: hi, ...records });
    }),
  );
  const rebuilt = counts.reduce((n, m) => n + (m.type === 'rebuilt' ? m.count : 0), 0);
  if (rebuilt !== size) throw new Error(`explorer: the workers rebuilt ${rebuilt} of the level's ${size} states`);
  return size;
}

/** Node's error for a worker past its heap limit (ERR_WORKER_OUT_OF_MEMORY), as it reaches ask(). */
const isOutOfMemory = (e: unknown) => e instanceof Error && /reaching memory limit|ERR_WORKER_OUT_OF_MEMORY/.test(e.message);

/** The workers' memos, summed, and the states each expanded. */
async function workerStats(pool: Pool): Promise<{ memo?: MemoStats; expandedBy: number[] }> {
  const all = await Promise.all(Array.from({ length: pool.size }, (_, i) => pool.ask(i, { type: 'stats' })));
  const sum: MemoStats = { hits: 0, misses: 0, snapshots: 0, unkeyable: 0, flushes: 0 };
  const expandedBy = all.map((m) => (m.type === 'stats' ? m.expanded : 0));
  let any = false;
  for (const m of all) {
    if (m.type !== 'stats' || !m.memo) continue;
    any = true;
    sum.hits += m.memo.hits;
    sum.misses += m.memo.misses;
    sum.snapshots += m.memo.snapshots;
    sum.unkeyable += m.memo.unkeyable;
    sum.flushes += m.memo.flushes;
  }
  return { ...(any ? { memo: sum } : {}), expandedBy };
}

/**
 * The level's records, merged by (parent, order) across workers (each worker's are in that order
 * already), admitted into the book as the sequential search would; returns, per batch, the id of
 * each record kept as a new state (-1 otherwise).
 */
function admitLevel<W, C>(book: SearchBook<W, C>, batches: { records: Int32Array; count: number }[]): { ids: Int32Array; kept: number }[] {
  const out = batches.map((b) => ({ ids: new Int32Array(b.count).fill(-1), kept: 0 }));
  const at = batches.map(() => 0);
  let stoppedAt = Number.NaN; // the sequential search finishes the node it was expanding when it stops
  for (;;) {
    let best = -1;
    for (let b = 0; b < batches.length; b++) {
      if (at[b]! >= batches[b]!.count) continue;
      if (best === -1 || before(batches[b]!.records, at[b]!, batches[best]!.records, at[best]!)) best = b;
    }
    if (best === -1) break;
    const r = batches[best]!.records;
    const i = at[best]!++;
    const o = i * STRIDE;
    const parent = r[o + R.parent]!;
    if (book.stopped !== 'complete' && parent !== stoppedAt) break;
    const order = r[o + R.order]!;
    if (order === NO_TICK) {
      book.quiet(parent, parent, 0);
      book.stutter(parent);
      continue;
    }
    const known = r[o + R.known]!;
    const id =
      known >= 0
        ? book.admitKnown(parent, known, r[o + R.via]!)
        : book.admit(r[o + R.hi]! >>> 0, r[o + R.lo]! >>> 0, parent, r[o + R.via]!, (id) => {
            const a = r[o + R.always]!;
            const s = r[o + R.sometimes]!;
            const e = r[o + R.eventually]!;
            for (let k = 0; k < book.always.length; k++) if (a & (1 << k)) book.violates(k, id);
            for (let k = 0; k < book.sometimes.length; k++) if (s & (1 << k)) book.witnesses(k, id);
            for (let k = 0; k < book.targetOk.length; k++) book.targetOk[k]!.set(id, (e & (1 << k)) !== 0);
          });
    if (book.isNew) {
      out[best]!.ids[i] = id;
      out[best]!.kept++;
    }
    if (order === 0 && parent >= 0) book.quiet(parent, id, r[o + R.dt]!);
    if (book.stopped !== 'complete' && Number.isNaN(stoppedAt)) stoppedAt = parent;
  }
  return out;
}

function before(a: Int32Array, i: number, b: Int32Array, j: number): boolean {
  const pa = a[i * STRIDE + R.parent]!;
  const pb = b[j * STRIDE + R.parent]!;
  if (pa !== pb) return pa < pb;
  const oa = a[i * STRIDE + R.order]!;
  const ob = b[j * STRIDE + R.order]!;
  return (oa === NO_TICK ? -1 : oa) < (ob === NO_TICK ? -1 : ob);
}
