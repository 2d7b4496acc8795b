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
/**
 * What reconcileHandler did with a Reconcile's result, as data: the simulator narrates it from a
 * catalog (in either language), `resultText` in English. `warning`: a Result came with the error and
 * was ignored (RESULT_WITH_ERROR_WARNING is logged).
 */
export type HandledResult =
  | { kind: 'error'; message: string; backoffMs: number; failures: number; warning: boolean }
  | { kind: 'terminal'; message: string; warning: boolean }
  | { kind: 'requeueAfter'; afterMs: number }
  | { kind: 'requeue'; delayMs: number }
  | { kind: 'forget' };

/** The handled result in English, as the timeline has always printed it. */
export function resultText(r: HandledResult): string {
  const warning = (w: boolean) => (w ? `; ${RESULT_WITH_ERROR_WARNING}` : '');
  switch (r.kind) {
    case 'error':
      return `error "${r.message}": requeue with backoff ${r.backoffMs}ms (failure #${r.failures})${warning(r.warning)}`;
    case 'terminal':
      return `terminal error "${r.message}": not requeued${warning(r.warning)}`;
    case 'requeueAfter':
      return `done, requeue after ${r.afterMs / 1000}s`;
    case 'requeue':
      return `done, Requeue: true → rate-limited requeue in ${r.delayMs}ms`;
    case 'forget':
      return 'done: Forget';
  }
}

export function handleResult(
  queue: WorkQueue,
  key: string,
  outcome: ReconcileOutcome,
  now: number,
): { queue: WorkQueue; result: HandledResult; note: string } {
  let q = queue;
  let result: HandledResult;
  const priority = wq.priorityOf(q, key);
  if (outcome.kind === 'error' || outcome.kind === 'terminal') {
    const r = outcome.result;
    const warning = Boolean(r && (r.requeue || (r.requeueAfterMs ?? 0) > 0));
    if (outcome.kind === 'error') {
      const limited = wq.addRateLimited(q, key, now, priority);
      q = limited.q;
      result = { kind: 'error', message: outcome.message, backoffMs: limited.delayMs, failures: wq.numRequeues(q, key), warning };
    } else {
      result = { kind: 'terminal', message: outcome.message, warning };
    }
  } else if ((outcome.requeueAfterMs ?? 0) > 0) {
    q = wq.addAfter(wq.forget(q, key), key, outcome.requeueAfterMs!, now, priority);
    result = { kind: 'requeueAfter', afterMs: outcome.requeueAfterMs! };
  } else if (outcome.requeue) {
    const r = wq.addRateLimited(q, key, now, priority);
    q = r.q;
    result = { kind: 'requeue', delayMs: r.delayMs };
  } else {
    q = wq.forget(q, key);
    result = { kind: 'forget' };
  }
  return { queue: wq.done(q, key), result, note: resultText(result) };
}
