// Slow-start batches (real/slow-start.ts) against kubernetes' replica_set.go slowStartBatch: batch
// sizes 1, 2, 4 … (here also capped at maxParallel), each batch waited for, stop after a failing batch.
import { describe, expect, it } from 'vitest';
import { ActBatches, SkippedError, slowStartBatch } from '../../real/slow-start';

/** Runs `count` calls and records the batches (calls in flight together). */
async function batches(count: number, maxParallel: number, failAt?: number) {
  const seen: number[][] = [];
  let current: number[] = [];
  let inFlight = 0;
  const run = slowStartBatch(count, 1, maxParallel, async (i) => {
    if (inFlight === 0) {
      current = [];
      seen.push(current);
    }
    inFlight++;
    current.push(i);
    await new Promise((r) => setTimeout(r, 5)); // not a wait: the fake operation's duration, so calls overlap
    inFlight--;
    if (i === failAt) throw new Error(`call ${i} failed`);
    return i;
  });
  const results = await Promise.allSettled(run.slots);
  return { seen, results };
}

describe('slowStartBatch', () => {
  it('runs batches of 1, 2, 4, 8 … until the count, like ReplicaSet', async () => {
    expect((await batches(20, 64)).seen.map((b) => b.length)).toEqual([1, 2, 4, 8, 5]);
  });
  it('caps each batch at maxParallel', async () => {
    expect((await batches(20, 4)).seen.map((b) => b.length)).toEqual([1, 2, 4, 4, 4, 4, 1]);
    expect((await batches(3, 1)).seen.map((b) => b.length)).toEqual([1, 1, 1]);
  });
  it('stops after a batch with a failure: the calls not started are skipped, never run', async () => {
    const { seen, results } = await batches(10, 64, 2); // batch [1, 2] fails
    expect(seen.flat()).toEqual([0, 1, 2]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', ...Array(7).fill('rejected')]);
    expect((results[5] as PromiseRejectedResult).reason).toBeInstanceOf(SkippedError);
  });
});

describe('ActBatches', () => {
  it('the first ask starts the run; later asks get their own slot in order', async () => {
    const started: string[] = [];
    const batches = new ActBatches<string, string>(() => 8);
    const start = async (k: string) => {
      started.push(k);
      return k.toUpperCase();
    };
    const a = batches.claim('a', ['a', 'b', 'c'], start);
    expect(await a).toBe('A');
    expect(await batches.claim('b', ['b', 'c'], start)).toBe('B');
    expect(await batches.claim('c', ['c'], start)).toBe('C');
    expect(started).toEqual(['a', 'b', 'c']);
    // An ask that is not the run's next act starts a fresh run.
    expect(await batches.claim('x', ['x'], start)).toBe('X');
  });
});
