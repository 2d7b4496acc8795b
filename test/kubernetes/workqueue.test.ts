import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wq from '../../machines/kubernetes/workqueue';
import { propertyRuns } from '../property-runs';

// client-go util/workqueue queue.go: dirty / processing sets; default_rate_limiters.go.
describe('workqueue (client-go queue.go)', () => {
  it('dedups: a key added twice before Get is queued once', () => {
    let q = wq.add(wq.add(wq.newWorkQueue(), 'ns/a'), 'ns/a');
    expect(q.queue).toEqual(['ns/a']);
    q = wq.add(q, 'ns/b');
    expect(q.queue).toEqual(['ns/a', 'ns/b']);
  });

  it('a key added while processed waits in dirty and is re-queued by Done, never handed out twice', () => {
    let q = wq.add(wq.newWorkQueue(), 'ns/a');
    const first = wq.get(q);
    q = wq.add(first.q, 'ns/a');
    expect(q.queue).toEqual([]);
    expect(wq.get(q).key).toBeUndefined();
    q = wq.done(q, 'ns/a');
    expect(q.queue).toEqual(['ns/a']);
  });

  it('property: with two workers, no key is ever held by both, and every add is followed by a processing', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ kind: fc.constant('get' as const), worker: fc.constantFrom(0, 1) }),
      fc.record({ kind: fc.constant('done' as const), worker: fc.constantFrom(0, 1) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      let q = wq.newWorkQueue();
      const held: (string | undefined)[] = [undefined, undefined];
      const owed = new Set<string>(); // keys added since they were last handed to a worker
      for (const o of ops) {
        if (o.kind === 'add') { q = wq.add(q, o.key); owed.add(o.key); }
        if (o.kind === 'get' && held[o.worker] === undefined) {
          const r = wq.get(q);
          q = r.q;
          if (r.key !== undefined) {
            expect(held).not.toContain(r.key);
            held[o.worker] = r.key;
            owed.delete(r.key);
          }
        }
        if (o.kind === 'done' && held[o.worker] !== undefined) { q = wq.done(q, held[o.worker]!); held[o.worker] = undefined; }
      }
      // Drain: finish the held keys, then keep processing; every owed key must come out.
      for (const w of [0, 1]) if (held[w] !== undefined) q = wq.done(q, held[w]!);
      for (let r = wq.get(q); r.key !== undefined; r = wq.get(q)) { q = wq.done(r.q, r.key); owed.delete(r.key); }
      expect([...owed]).toEqual([]);
      expect(q.dirty).toEqual([]);
    }), { numRuns: propertyRuns() });
  });

  it('AddAfter keeps the earliest time; promoteReady moves due keys onto the queue', () => {
    let q = wq.addAfter(wq.newWorkQueue(), 'ns/a', 5000, 0);
    q = wq.addAfter(q, 'ns/a', 9000, 0);
    q = wq.addAfter(q, 'ns/a', 2000, 0);
    expect(q.waiting).toEqual([{ key: 'ns/a', readyAt: 2000 }]);
    expect(wq.promoteReady(q, 1999).queue).toEqual([]);
    expect(wq.promoteReady(q, 2000).queue).toEqual(['ns/a']);
  });
});

describe('DefaultControllerRateLimiter (5ms × 2^n up to 1000s, max with a 10 qps / 100 burst bucket)', () => {
  it('per-item exponential backoff, capped, reset by Forget', () => {
    let q = wq.newWorkQueue();
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Far apart in time, so the bucket is always full and only the exponential limiter counts.
      const r = wq.addRateLimited(q, 'ns/a', i * 10_000_000);
      delays.push(r.delayMs);
      q = wq.promoteReady(r.q, Infinity);
    }
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
    expect(wq.numRequeues(q, 'ns/a')).toBe(20);
    q = wq.forget(q, 'ns/a');
    expect(wq.addRateLimited(q, 'ns/a', 300_000_000).delayMs).toBe(5);
  });

  it('the bucket limits retries of many keys: the 101st at the same instant waits 100 ms', () => {
    let q = wq.newWorkQueue();
    const delays: number[] = [];
    for (let i = 0; i < 102; i++) { const r = wq.addRateLimited(q, `ns/k${i}`, 0); delays.push(r.delayMs); q = r.q; }
    expect(delays.slice(0, 100).every((d) => d === 5)).toBe(true);
    expect(delays[100]).toBe(100);
    expect(delays[101]).toBe(200);
  });
});
