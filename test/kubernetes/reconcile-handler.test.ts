import { describe, expect, it } from 'vitest';
import { handleResult } from '../../machines/kubernetes/machine';
import { RESULT_WITH_ERROR_WARNING } from '../../machines/kubernetes/reconcile-handler';
import * as wq from '../../machines/kubernetes/workqueue';

// controller-runtime pkg/internal/controller/controller.go reconcileHandler + processNextWorkItem
// (defer Queue.Done): error → AddRateLimited; TerminalError → no requeue; RequeueAfter → Forget +
// AddAfter; Requeue → AddRateLimited; success → Forget.
function processing(key: string, failures = 0) {
  let q = wq.add(wq.newWorkQueue(), key);
  q = wq.get(q).q;
  for (let i = 0; i < failures; i++) q = { ...q, failures: { ...q.failures, [key]: i + 1 } };
  return q;
}

describe('reconcileHandler result handling', () => {
  it('an error requeues with exponential backoff and keeps counting failures', () => {
    let q = processing('ns/a');
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = handleResult(q, 'ns/a', { kind: 'error', message: 'boom' }, i * 100_000);
      delays.push(r.queue.waiting.find((w) => w.key === 'ns/a')!.readyAt - i * 100_000);
      q = wq.get(wq.promoteReady(r.queue, Infinity)).q;
    }
    expect(delays).toEqual([5, 10, 20, 40]);
  });

  it('success forgets the failures and leaves nothing queued', () => {
    const r = handleResult(processing('ns/a', 3), 'ns/a', { kind: 'ok' }, 0);
    expect(r.queue.failures).toEqual({});
    expect(r.queue.queue).toEqual([]);
    expect(r.queue.waiting).toEqual([]);
    expect(r.queue.processing).toEqual([]);
  });

  it('RequeueAfter forgets the failures and re-adds after exactly that delay', () => {
    const r = handleResult(processing('ns/a', 3), 'ns/a', { kind: 'ok', requeueAfterMs: 15_000 }, 1000);
    expect(r.queue.failures).toEqual({});
    expect(r.queue.waiting).toEqual([{ key: 'ns/a', readyAt: 16_000 }]);
  });

  it('Requeue: true is rate limited like an error (but is not an error)', () => {
    const r = handleResult(processing('ns/a', 2), 'ns/a', { kind: 'ok', requeue: true }, 0);
    expect(r.queue.waiting).toEqual([{ key: 'ns/a', readyAt: 20 }]);
  });

  it('a TerminalError is not requeued', () => {
    const r = handleResult(processing('ns/a'), 'ns/a', { kind: 'terminal', message: 'invalid spec' }, 0);
    expect(r.queue.queue).toEqual([]);
    expect(r.queue.waiting).toEqual([]);
    expect(r.note).toMatch(/not requeued/);
  });

  it('an event that arrived during the reconcile puts the key back on Done', () => {
    const q = wq.add(processing('ns/a'), 'ns/a');
    const r = handleResult(q, 'ns/a', { kind: 'ok' }, 0);
    expect(r.queue.queue).toEqual(['ns/a']);
  });
});

// reconcileHandler's switch: `case err != nil` comes first, so a Result returned with an error is
// ignored (logged: "Reconciler returned both a result with either RequeueAfter or Requeue set and a
// non-nil error"), and the error's rate-limited requeue happens instead.
describe('a Result returned together with an error (controller-runtime reconcileHandler)', () => {
  it('the error wins: rate-limited requeue, RequeueAfter ignored, failures not forgotten, a warning logged', () => {
    const r = handleResult(processing('ns/a', 2), 'ns/a', { kind: 'error', message: 'boom', result: { requeueAfterMs: 60_000 } }, 0);
    expect(r.queue.waiting).toEqual([{ key: 'ns/a', readyAt: 20 }]);
    expect(wq.numRequeues(r.queue, 'ns/a')).toBe(3);
    expect(r.note).toContain(RESULT_WITH_ERROR_WARNING);
  });

  it('Requeue: true with an error is logged the same way; an error alone is not', () => {
    expect(handleResult(processing('ns/a'), 'ns/a', { kind: 'error', message: 'boom', result: { requeue: true } }, 0).note).toContain(
      'Warning',
    );
    expect(handleResult(processing('ns/a'), 'ns/a', { kind: 'error', message: 'boom' }, 0).note).not.toContain('Warning');
    expect(handleResult(processing('ns/a'), 'ns/a', { kind: 'error', message: 'boom', result: {} }, 0).note).not.toContain('Warning');
  });

  it('a TerminalError with a Result: not requeued at all, and the Result is ignored too', () => {
    const r = handleResult(processing('ns/a'), 'ns/a', { kind: 'terminal', message: 'invalid', result: { requeueAfterMs: 1000 } }, 0);
    expect(r.queue.waiting).toEqual([]);
    expect(r.queue.queue).toEqual([]);
    expect(r.note).toContain('Warning');
  });
});

describe('the release decides what an event during a reconcile does to RequeueAfter', () => {
  function eventDuringReconcile(release: wq.ControllerRuntimeRelease) {
    let q = wq.add(wq.newWorkQueue(wq.defaultRateLimiter(release)), 'ns/a');
    q = wq.get(q).q;
    q = wq.add(q, 'ns/a'); // a watch event while the reconcile runs
    return handleResult(q, 'ns/a', { kind: 'ok', requeueAfterMs: 30_000 }, 0).queue;
  }

  it('0.22 (client-go): reconciled again now and once more after 30 s', () => {
    const q = eventDuringReconcile('0.22');
    expect(q.queue).toEqual(['ns/a']);
    expect(q.waiting).toEqual([{ key: 'ns/a', readyAt: 30_000 }]);
  });

  it('0.23 (priority queue): one item per key — ready now; the 30 s requeue is absorbed (AddWithOpts keeps the earliest)', () => {
    const q = eventDuringReconcile('0.23');
    expect(q.queue).toEqual(['ns/a']);
    expect(q.waiting).toEqual([]);
  });

  it('0.23: a requeue keeps the priority the item was handed out with (LowPriority from the initial list)', () => {
    let q = wq.add(wq.newWorkQueue(), 'ns/a', wq.LOW_PRIORITY);
    q = wq.add(q, 'ns/b', 0);
    const first = wq.get(q);
    expect(first.key).toBe('ns/b');
    const second = wq.get(wq.done(first.q, 'ns/b'));
    expect(second).toMatchObject({ key: 'ns/a', priority: wq.LOW_PRIORITY });
    const r = handleResult(second.q, 'ns/a', { kind: 'ok', requeue: true }, 0);
    expect(r.queue.items['ns/a']?.priority).toBe(wq.LOW_PRIORITY);
  });
});
