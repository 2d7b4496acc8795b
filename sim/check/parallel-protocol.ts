/**
 * The parallel search's messages. A worker keeps the states of its part of the frontier; for each
 * it sends one record per successor — packed in an Int32Array, STRIDE ints each — and the main
 * thread, which alone owns the visited set, answers with the ids of those it keeps (-1: seen).
 */
export const STRIDE = 9;
export const R = { parent: 0, order: 1, via: 2, hi: 3, lo: 4, dt: 5, always: 6, sometimes: 7, eventually: 8 } as const;
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
  | { type: 'expand'; decidedAlways: number; decidedSometimes: number }
  | { type: 'keep'; ids: Int32Array }
  | { type: 'stats' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'records'; records: Int32Array; count: number }
  | { type: 'stats'; memo?: { hits: number; misses: number; snapshots: number; unkeyable: number; flushes: number } }
  | { type: 'error'; message: string };
