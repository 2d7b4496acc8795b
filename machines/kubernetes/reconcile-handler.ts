import type { ReconcileOutcome } from './types';
import type { WorkQueue } from './workqueue';
import * as wq from './workqueue';

/** reconcileHandler's log line when a Result comes with an error (pkg/internal/controller/controller.go). */
export const RESULT_WITH_ERROR_WARNING =
  'Warning: Reconciler returned both a result with either RequeueAfter or Requeue set and a non-nil error. RequeueAfter and Requeue will always be ignored if the error is non-nil.';

/**
 * reconcileHandler (controller-runtime pkg/internal/controller/controller.go), after Reconcile, in
 * its switch order: an error wins — AddRateLimited (not for a TerminalError), and a Result returned
 * with it is ignored with a warning; then RequeueAfter → Forget + AddAfter; Requeue → AddRateLimited;
 * success → Forget. processNextWorkItem then calls Done. With the priority queue (v0.23+) every
 * requeue keeps the priority the item was handed out with (`Priority: new(priority)`).
 */
export function handleResult(queue: WorkQueue, key: string, outcome: ReconcileOutcome, now: number): { queue: WorkQueue; note: string } {
  let q = queue;
  let note: string;
  const priority = wq.priorityOf(q, key);
  if (outcome.kind === 'error' || outcome.kind === 'terminal') {
    if (outcome.kind === 'error') {
      const r = wq.addRateLimited(q, key, now, priority);
      q = r.q;
      note = `error "${outcome.message}": requeue with backoff ${r.delayMs}ms (failure #${wq.numRequeues(q, key)})`;
    } else {
      note = `terminal error "${outcome.message}": not requeued`;
    }
    const r = outcome.result;
    if (r && (r.requeue || (r.requeueAfterMs ?? 0) > 0)) note += `; ${RESULT_WITH_ERROR_WARNING}`;
  } else if ((outcome.requeueAfterMs ?? 0) > 0) {
    q = wq.addAfter(wq.forget(q, key), key, outcome.requeueAfterMs!, now, priority);
    note = `done, requeue after ${outcome.requeueAfterMs! / 1000}s`;
  } else if (outcome.requeue) {
    const r = wq.addRateLimited(q, key, now, priority);
    q = r.q;
    note = `done, Requeue: true → rate-limited requeue in ${r.delayMs}ms`;
  } else {
    q = wq.forget(q, key);
    note = 'done: Forget';
  }
  return { queue: wq.done(q, key), note };
}
