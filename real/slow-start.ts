// Parallel acts with a bound, ReplicaSet-style: kubernetes pkg/controller/replicaset/replica_set.go
// slowStartBatch runs batches of 1, 2, 4 … calls, each batch in parallel and waited for, and stops at
// the first batch with an error (the calls not started are skipped). Here the batch size is also
// capped at maxParallel. The machine (unchanged) still asks for one act at a time: ActBatches lets
// the first ask of a run of like acts start the whole slow-started run, and each later ask await
// its own slot, so the trace records one done/error per act as before.

export interface SlowStart<T> {
  /** One promise per item, in order; items never started reject with SkippedError. */
  slots: Promise<T>[];
  cancel(): void;
}

export class SkippedError extends Error {
  override name = 'SkippedError';
}

export function slowStartBatch<T>(count: number, initial: number, maxParallel: number, fn: (index: number) => Promise<T>): SlowStart<T> {
  const resolvers: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const slots = Array.from(
    { length: count },
    () =>
      new Promise<T>((resolve, reject) => {
        resolvers.push({ resolve, reject });
      }),
  );
  // Nobody may be awaiting a slot yet (the machine asks in order): never an unhandled rejection.
  for (const s of slots) s.catch(() => undefined);
  let cancelled = false;
  void (async () => {
    let next = 0;
    for (let size = Math.min(count, initial, maxParallel); size > 0 && next < count; size = Math.min(2 * size, maxParallel, count - next)) {
      if (cancelled) break;
      const batch = Array.from({ length: size }, (_, k) => next + k);
      next += size;
      const results = await Promise.allSettled(
        batch.map(async (i) => {
          const v = await fn(i);
          resolvers[i]!.resolve(v);
        }),
      );
      results.forEach((r, k) => {
        if (r.status === 'rejected') resolvers[batch[k]!]!.reject(r.reason);
      });
      if (results.some((r) => r.status === 'rejected')) break;
    }
    for (let i = next; i < count; i++) resolvers[i]!.reject(new SkippedError('skipped: an earlier act of this batch failed'));
  })();
  return {
    slots,
    cancel: () => {
      cancelled = true;
    },
  };
}

/** A run of like acts of one period, claimed one by one as the machine asks for them. */
export class ActBatches<K, T> {
  private run: { keys: K[]; claimed: number; batch: SlowStart<T> } | undefined;

  constructor(private readonly maxParallel: () => number) {}

  /**
   * The promise of the act `key`: its slot in the current run, or a new run for `keys` (the acts
   * pending now, starting with `key`), started with `start(key)` per act.
   */
  claim(key: K, keys: K[], start: (key: K) => Promise<T>): Promise<T> {
    const run = this.run;
    if (run && run.claimed < run.keys.length && run.keys[run.claimed] === key) return run.batch.slots[run.claimed++]!;
    this.reset();
    const fresh = keys.length > 0 && keys[0] === key ? keys : [key];
    const batch = slowStartBatch(fresh.length, 1, Math.max(1, this.maxParallel()), (i) => start(fresh[i]!));
    this.run = { keys: fresh, claimed: 1, batch };
    return batch.slots[0]!;
  }

  /** The machine left the act phase (backoff, stop): acts not started are dropped. */
  reset(): void {
    this.run?.batch.cancel();
    this.run = undefined;
  }
}
