import { z } from 'zod';
import type { ControllerContext } from '../../machines/kubernetes';

const count = z.number().int().min(0);

/** frame.controller for kubernetes: the request being reconciled, its result, and the workqueue. */
export const kubernetesControllerSchema = z.object({
  loop: z.literal('kubernetes'),
  reconciler: z.string(),
  /** The informers have done their initial list (WaitForCacheSync). */
  synced: z.boolean(),
  /** The request (namespace/name) being reconciled; null between reconciles. */
  request: z.string().nullable(),
  /** What the last Reconcile returned (stays until the next key is taken). */
  result: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('ok'), requeue: z.boolean(), requeueAfterMs: z.number().min(0).nullable() }),
      z.object({ kind: z.enum(['error', 'terminal']), message: z.string() }),
    ])
    .nullable(),
  /** Keys ready in the queue, waiting for their delay (AddAfter / rate limit), being processed. */
  queue: z.object({ length: count, waiting: count, processing: count }),
  reconciles: count,
  errors: count,
});
export type KubernetesController = z.infer<typeof kubernetesControllerSchema>;

/** The one Kubernetes summary, from the controller's context. */
export function kubernetesController(ctx: ControllerContext): KubernetesController {
  const o = ctx.outcome;
  return {
    loop: 'kubernetes',
    reconciler: ctx.config.reconciler,
    synced: ctx.synced,
    request: ctx.current,
    result:
      o === null
        ? null
        : o.kind === 'ok'
          ? { kind: 'ok', requeue: o.requeue ?? false, requeueAfterMs: o.requeueAfterMs ?? null }
          : { kind: o.kind, message: o.message },
    queue: { length: ctx.queue.queue.length, waiting: ctx.queue.waiting.length, processing: ctx.queue.processing.length },
    reconciles: ctx.reconciles,
    errors: ctx.errors,
  };
}
