// Puppet's frame.controller, as the trace format reads it (sim/loop-schemas.ts): zod only, so
// the trace format sits below the worlds; the summary function that fills it is ./puppet-controller.ts.
import { z } from 'zod';

const count = z.number().int().min(0);
const resourceSchema = z.object({
  ref: z.string(),
  status: z.enum(['in sync', 'changed', 'failed', 'skipped', 'noop']),
  change: z.enum(['corrective', 'intentional']).nullable(),
});

/** frame.controller for puppet: the agent's current run (catalog version, resource statuses) and its last report. */
export const puppetControllerSchema = z.object({
  loop: z.literal('puppet'),
  runs: count,
  catalogVersion: count,
  noop: z.boolean(),
  /** The run in progress: its catalog version, how far evaluation got, each evaluated resource's status. */
  transaction: z
    .object({ run: count, catalogVersion: count, evaluated: count, total: count, resources: z.array(resourceSchema) })
    .nullable(),
  /** The last run's report: status, detailed exit code, changes. */
  report: z
    .object({
      run: count,
      catalogVersion: count,
      status: z.enum(['failed', 'changed', 'unchanged']),
      exitCode: z.number().int(),
      changes: count,
      resources: z.array(resourceSchema),
    })
    .nullable(),
  lastError: z.string().nullable(),
});
export type PuppetController = z.infer<typeof puppetControllerSchema>;
