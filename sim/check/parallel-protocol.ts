import type { VisitedTables } from './visited-set';

/**
 * The parallel search's messages. A worker keeps the states of its part of the frontier; for each
 * it sends one record per successor — packed in an Int32Array, STRIDE ints each — and the main
 * thread, which alone writes the visited set, answers with the ids of those it keeps (-1: seen).
 * A successor the worker finds in the shared visited set (a state of an earlier level) is sent
 * as its known id (R.known ≥ 0), unjudged: only new-looking ones carry a hash and property bits.
 */
export const STRIDE = 10;
export const R = { parent: 0, order: 1, via: 2, hi: 3, lo: 4, dt: 5, always: 6, sometimes: 7, eventually: 8, known: 9 } as const;
/** `order` of the record that says a state has nothing queued (its quiet successor is itself). */
export const NO_TICK = -2;

/** What a worker needs to rebuild the check: the loop, the scenario (plain data) and the options. */
export interface WorkerSetup {
  loop: string;
  scenario: unknown;
  policy?: string;
  withinPeriods?: number;
  memo: boolean;
  symmetry: boolean;
}

export type ToWorker =
  | { type: 'root' }
  /**
   * Rebuild the frontier from a handed-over sequential search (explorer.ts HandOver): this worker's
   * states are ids from … to − 1, re-derived from the (parent, move) records of every id below `to`.
   */
  | { type: 'rebuild'; from: number; to: number; parent: Int32Array; move: Int32Array }
  /** `visited`: the shared visited set's slots as they are now (the main thread's, grown or not). */
  | { type: 'expand'; decidedAlways: number; decidedSometimes: number; visited: VisitedTables }
  | { type: 'keep'; ids: Int32Array }
  | { type: 'stats' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'rebuilt'; count: number }
  | { type: 'records'; records: Int32Array; count: number }
  | { type: 'stats'; expanded: number; memo?: { hits: number; misses: number; snapshots: number; unkeyable: number; flushes: number } }
  | { type: 'error'; message: string };
