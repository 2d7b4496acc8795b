import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wq from '../../machines/kubernetes/workqueue';
import { propertyRuns } from '../property-runs';

// client-go util/workqueue queue.go: dirty / processing sets; default_rate_limiters.go.
const CLIENT_GO = wq.defaultRateLimiter('0.22');

describe('workqueue (client-go queue.go, controller-runtime ≤ v0.22)', () => {
  it('dedups: a key added twice before Get is queued once', () => {
    let q = wq.add(wq.add(wq.newWorkQueue(CLIENT_GO), 'ns/a'), 'ns/a');
    expect(q.queue).toEqual(['ns/a']);
    q = wq.add(q, 'ns/b');
    expect(q.queue).toEqual(['ns/a', 'ns/b']);
  });

  it('a key added while processed waits in dirty and is re-queued by Done, never handed out twice', () => {
    let q = wq.add(wq.newWorkQueue(CLIENT_GO), 'ns/a');
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
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let q = wq.newWorkQueue(CLIENT_GO);
        const held: (string | undefined)[] = [undefined, undefined];
        const owed = new Set<string>(); // keys added since they were last handed to a worker
        for (const o of ops) {
          if (o.kind === 'add') {
            q = wq.add(q, o.key);
            owed.add(o.key);
          }
          if (o.kind === 'get' && held[o.worker] === undefined) {
            const r = wq.get(q);
            q = r.q;
            if (r.key !== undefined) {
              expect(held).not.toContain(r.key);
              held[o.worker] = r.key;
              owed.delete(r.key);
            }
          }
          if (o.kind === 'done' && held[o.worker] !== undefined) {
            q = wq.done(q, held[o.worker]!);
            held[o.worker] = undefined;
          }
        }
        // Drain: finish the held keys, then keep processing; every owed key must come out.
        for (const w of [0, 1]) if (held[w] !== undefined) q = wq.done(q, held[w]!);
        for (let r = wq.get(q); r.key !== undefined; r = wq.get(q)) {
          q = wq.done(r.q, r.key);
          owed.delete(r.key);
        }
        expect([...owed]).toEqual([]);
        expect(q.dirty).toEqual([]);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('AddAfter keeps the earliest time; promoteReady moves due keys onto the queue', () => {
    let q = wq.addAfter(wq.newWorkQueue(CLIENT_GO), 'ns/a', 5000, 0);
    q = wq.addAfter(q, 'ns/a', 9000, 0);
    q = wq.addAfter(q, 'ns/a', 2000, 0);
    expect(q.waiting).toEqual([{ key: 'ns/a', readyAt: 2000 }]);
    expect(wq.promoteReady(q, 1999).queue).toEqual([]);
    expect(wq.promoteReady(q, 2000).queue).toEqual(['ns/a']);
  });
});

describe('v0.22: DefaultTypedControllerRateLimiter (5ms × 2^n up to 1000s, max with a 10 qps / 100 burst bucket)', () => {
  it('per-item exponential backoff, capped, reset by Forget', () => {
    let q = wq.newWorkQueue(CLIENT_GO);
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
    let q = wq.newWorkQueue(CLIENT_GO);
    const delays: number[] = [];
    for (let i = 0; i < 102; i++) {
      const r = wq.addRateLimited(q, `ns/k${i}`, 0);
      delays.push(r.delayMs);
      q = r.q;
    }
    expect(delays.slice(0, 100).every((d) => d === 5)).toBe(true);
    expect(delays[100]).toBe(100);
    expect(delays[101]).toBe(200);
  });
});

/** A limiter with no bucket, so that delayMs is ItemExponentialFailureRateLimiter.When itself. */
const exponentialOnly = (baseDelayMs: number, maxDelayMs: number): wq.RateLimiterConfig => ({
  release: '0.22',
  baseDelayMs,
  maxDelayMs,
  bucket: null,
});
function whens(q0: wq.WorkQueue, key: string, n: number): { q: wq.WorkQueue; delays: number[] } {
  let q = q0;
  const delays: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = wq.addRateLimited(q, key, 0);
    delays.push(r.delayMs);
    q = r.q;
  }
  return { q, delays };
}

// client-go util/workqueue/default_rate_limiters_test.go
describe('ItemExponentialFailureRateLimiter (client-go default_rate_limiters_test.go)', () => {
  it('TestItemExponentialFailureRateLimiter: 1ms doubling per item, NumRequeues, Forget', () => {
    let { q, delays } = whens(wq.newWorkQueue(exponentialOnly(1, 1000)), 'one', 5);
    expect(delays).toEqual([1, 2, 4, 8, 16]);
    expect(wq.numRequeues(q, 'one')).toBe(5);
    const two = whens(q, 'two', 2);
    expect(two.delays).toEqual([1, 2]);
    q = two.q;
    expect(wq.numRequeues(q, 'two')).toBe(2);
    q = wq.forget(q, 'one');
    expect(wq.numRequeues(q, 'one')).toBe(0);
    expect(whens(q, 'one', 1).delays).toEqual([1]);
  });

  it('TestItemExponentialFailureRateLimiterOverFlow: the cap holds after 1000 failures', () => {
    const a = whens(wq.newWorkQueue(exponentialOnly(1, 1_000_000)), 'one', 6);
    expect(a.delays[5]).toBe(32);
    const b = whens(a.q, 'overflow1', 1001);
    expect(b.delays[1000]).toBe(1_000_000);
    const c = whens(wq.newWorkQueue(exponentialOnly(60_000, 1000 * 3_600_000)), 'two', 3);
    expect(c.delays[2]).toBe(4 * 60_000);
    const d = whens(c.q, 'overflow2', 1001);
    expect(d.delays[1000]).toBe(1000 * 3_600_000);
  });
});

describe('controller-runtime v0.23+: the default is the priority queue with an exponential-only limiter', () => {
  it('pkg/controller/controller.go: 5 ms → 1000 s per item, no bucket (0.22 keeps the 10 qps / 100 bucket)', () => {
    expect(wq.DEFAULT_RATE_LIMITER).toEqual({ release: '0.23', baseDelayMs: 5, maxDelayMs: 1_000_000, bucket: null });
    expect(wq.defaultRateLimiter('0.22').bucket).toEqual({ qps: 10, burst: 100 });
  });

  it('the 101st distinct key failing at one instant waits 5 ms, not 100 ms', () => {
    let q = wq.newWorkQueue();
    const delays: number[] = [];
    for (let i = 0; i < 102; i++) {
      const r = wq.addRateLimited(q, `ns/k${i}`, 0);
      delays.push(r.delayMs);
      q = r.q;
    }
    expect(delays.every((d) => d === 5)).toBe(true);
  });
});

// controller-runtime pkg/controller/priorityqueue/priorityqueue_test.go ("Controllerworkqueue")
describe('priority queue (controller-runtime priorityqueue_test.go)', () => {
  const pq = () => wq.newWorkQueue(wq.defaultRateLimiter('0.23'));
  const drain = (q0: wq.WorkQueue) => {
    const out: [string, number][] = [];
    let q = q0;
    for (let r = wq.get(q); r.key !== undefined; r = wq.get(q)) {
      out.push([r.key, r.priority]);
      q = r.q;
    }
    return out;
  };

  it('returns items in order; de-duplicates items', () => {
    expect(drain(wq.add(wq.add(pq(), 'foo'), 'bar')).map(([k]) => k)).toEqual(['foo', 'bar']);
    expect(wq.add(wq.add(pq(), 'foo'), 'foo').queue).toEqual(['foo']);
  });

  it("doesn't return an item that is currently locked; returns it as soon as it's unlocked", () => {
    let q = wq.get(wq.add(pq(), 'foo')).q;
    q = wq.add(wq.add(q, 'foo'), 'bar');
    const r = wq.get(q);
    expect(r.key).toBe('bar');
    q = wq.add(r.q, 'baz');
    q = wq.done(q, 'foo');
    expect(wq.get(q).key).toBe('foo');
  });

  it('retains the highest priority; will not decrease the priority', () => {
    expect(drain(wq.add(wq.add(pq(), 'foo', 1), 'foo', 2))).toEqual([['foo', 2]]);
    expect(drain(wq.add(wq.add(pq(), 'foo', 2), 'foo', 1))).toEqual([['foo', 2]]);
  });

  it('gets pushed to the front if the priority increases', () => {
    const q = wq.add(wq.add(wq.add(wq.add(pq(), 'foo'), 'bar'), 'baz'), 'baz', 1);
    expect(wq.get(q)).toMatchObject({ key: 'baz', priority: 1 });
  });

  it('follows FIFO order in the new priority queue when item priority changes', () => {
    const q = wq.add(wq.add(wq.add(pq(), 'foo', 0), 'bar', 1), 'foo', 1);
    expect(drain(q)).toEqual([
      ['bar', 1],
      ['foo', 1],
    ]);
  });

  it('retains the lowest after duration; an Add makes a waiting item ready now', () => {
    const q = wq.addAfter(wq.add(pq(), 'foo'), 'foo', 3_600_000, 0);
    expect(q.queue).toEqual(['foo']);
    expect(q.waiting).toEqual([]);
    const w = wq.add(wq.addAfter(pq(), 'foo', 3_600_000, 0), 'foo');
    expect(w.queue).toEqual(['foo']);
    expect(w.waiting).toEqual([]); // client-go would keep the delayed copy and hand foo out again after an hour
  });

  it("doesn't include non-ready items in Len()", () => {
    let q = wq.addAfter(pq(), 'foo', 60_000, 0);
    q = wq.add(q, 'baz');
    q = wq.addAfter(q, 'bar', 60_000, 0);
    q = wq.add(q, 'bal');
    expect(q.queue).toEqual(['baz', 'bal']);
    expect(wq.promoteReady(q, 60_000).queue).toEqual(['baz', 'bal', 'foo', 'bar']);
  });

  it('high priority items are returned before low priority ones (TestHighPriorityItemsAreReturnedBeforeLowPriorityItemMultipleTimes)', () => {
    for (const after of [0, 1000]) {
      let q = pq();
      for (let i = 0; i < 3; i++)
        for (const [name, p] of [
          ['high', 10],
          ['middle', 0],
          ['low', -10],
        ] as const)
          q = wq.addAfter(q, `${name}-${i}`, after, 0, p);
      q = wq.promoteReady(q, after);
      expect(drain(q).map(([k]) => k)).toEqual([
        'high-0',
        'high-1',
        'high-2',
        'middle-0',
        'middle-1',
        'middle-2',
        'low-0',
        'low-1',
        'low-2',
      ]);
    }
  });

  it('AddRateLimited waits min(After, When): an item already waiting longer is brought forward', () => {
    const q = wq.addAfter(pq(), 'foo', 60_000, 0);
    const r = wq.addRateLimited(q, 'foo', 0);
    expect(r.delayMs).toBe(5);
    expect(r.q.waiting).toEqual([{ key: 'foo', readyAt: 5 }]);
  });

  it('property (TestFuzzPriorityQueue invariants): never handed out twice, de-duplicated, max priority wins', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        key: fc.constantFrom('a', 'b', 'c'),
        priority: fc.integer({ min: -2, max: 2 }),
        after: fc.constantFrom(0, 0, 10),
      }),
      fc.record({ kind: fc.constant('get' as const) }),
      fc.record({ kind: fc.constant('done' as const) }),
      fc.record({ kind: fc.constant('tick' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let q = pq();
        let now = 0;
        const held: string[] = [];
        const expected = new Map<string, number>(); // max priority of adds since the key was last handed out
        for (const o of ops) {
          if (o.kind === 'add') {
            q = wq.addAfter(q, o.key, o.after, now, o.priority);
            expected.set(o.key, Math.max(expected.get(o.key) ?? -Infinity, o.priority));
          }
          if (o.kind === 'tick') {
            now += 10;
            q = wq.promoteReady(q, now);
          }
          if (o.kind === 'get') {
            const r = wq.get(q);
            q = r.q;
            if (r.key !== undefined) {
              expect(held).not.toContain(r.key);
              expect(r.priority).toBe(expected.get(r.key));
              expected.delete(r.key);
              held.push(r.key);
            }
          }
          if (o.kind === 'done' && held.length) q = wq.done(q, held.shift()!);
          expect(new Set([...q.queue, ...q.dirty, ...q.waiting.map((w) => w.key)]).size).toBe(
            q.queue.length + q.dirty.length + q.waiting.length,
          );
        }
      }),
      { numRuns: propertyRuns() },
    );
  });
});
