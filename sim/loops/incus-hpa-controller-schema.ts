// The Incus HPA's frame.controller, as the trace format reads it (sim/loop-schemas.ts): zod and
// the machine's policy names only, so the trace format sits below the worlds; the summary function
// that fills it is ./incus-hpa-controller.ts.
import { z } from 'zod';
import { POLICY_NAMES } from '../../machines/incus-hpa';

const count = z.number().int().min(0);
const actionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('create') }),
  z.object({ kind: z.literal('delete'), name: z.string() }),
]);

/** frame.controller for incus-hpa: what the HPA sees, compares and decides, as data. */
export const hpaControllerSchema = z.object({
  loop: z.literal('incus-hpa'),
  /** A built-in policy's name, or `module:<file>` for a user's policy module. */
  policy: z.union([z.enum(POLICY_NAMES), z.templateLiteral(['module:', z.string()])]),
  threshold: z.number(),
  minPods: count,
  maxPods: count,
  /** This HPA's own instances (its owner key) by status, at the frame's time. */
  pods: z.object({ running: count, starting: count, stopping: count }),
  /** The policy's own average memory % over the instances as they are at the frame's time. */
  averagePercent: z.number().nullable(),
  /** The last decision: when its observation was taken, the policy's numbers and its actions ([] = none). */
  decision: z
    .object({
      observedAt: z.number(),
      averagePercent: z.number().nullable(),
      running: count,
      desired: count,
      actions: z.array(actionSchema),
    })
    .nullable(),
  /** Actions of this period not yet done. */
  pending: z.array(actionSchema),
  consecutiveErrors: count,
  lastError: z.string().nullable(),
});
export type HpaController = z.infer<typeof hpaControllerSchema>;
