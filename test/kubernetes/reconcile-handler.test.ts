import { describe, expect, it } from 'vitest';
import { handleResult } from '../../machines/kubernetes/machine';
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
