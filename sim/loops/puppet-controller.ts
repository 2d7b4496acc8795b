import { z } from 'zod';
import type { PuppetContext, ResourceStatus } from '../../machines/puppet';
import { resourceRow } from '../worlds/puppet';

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
  transaction: z.object({ run: count, catalogVersion: count, evaluated: count, total: count, resources: z.array(resourceSchema) }).nullable(),
  /** The last run's report: status, detailed exit code, changes. */
  report: z.object({
    run: count, catalogVersion: count, status: z.enum(['failed', 'changed', 'unchanged']), exitCode: z.number().int(), changes: count,
    resources: z.array(resourceSchema),
  }).nullable(),
  lastError: z.string().nullable(),
});
export type PuppetController = z.infer<typeof puppetControllerSchema>;

const resource = (s: ResourceStatus) => {
  const row = resourceRow(s);
  return { ref: row.ref, status: row.status, change: row.change };
};

/** The one Puppet summary, from the agent's context. */
export function puppetController(ctx: PuppetContext): PuppetController {
  const tx = ctx.tx;
  const r = ctx.lastReport;
  return {
    loop: 'puppet', runs: ctx.runs, catalogVersion: ctx.catalogVersion, noop: ctx.config.settings.noop,
    transaction: tx ? { run: tx.run, catalogVersion: tx.catalogVersion, evaluated: Math.min(tx.cursor, tx.order.length), total: tx.order.length, resources: Object.values(tx.statuses).map(resource) } : null,
    report: r ? { run: r.run, catalogVersion: r.catalogVersion, status: r.status, exitCode: r.exitCode, changes: r.changes, resources: r.statuses.map(resource) } : null,
    lastError: ctx.lastError,
  };
}
