import type { PuppetContext, ResourceStatus } from '../../machines/puppet';
import { resourceRow } from '../worlds/puppet';
import type { PuppetController } from './puppet-controller-schema';

const resource = (s: ResourceStatus) => {
  const row = resourceRow(s);
  return { ref: row.ref, status: row.status, change: row.change };
};

/** The one Puppet summary, from the agent's context. */
export function puppetController(ctx: PuppetContext): PuppetController {
  const tx = ctx.tx;
  const r = ctx.lastReport;
  return {
    loop: 'puppet',
    runs: ctx.runs,
    catalogVersion: ctx.catalogVersion,
    noop: ctx.config.settings.noop,
    transaction: tx
      ? {
          run: tx.run,
          catalogVersion: tx.catalogVersion,
          evaluated: Math.min(tx.cursor, tx.order.length),
          total: tx.order.length,
          resources: Object.values(tx.statuses).map(resource),
        }
      : null,
    report: r
      ? {
          run: r.run,
          catalogVersion: r.catalogVersion,
          status: r.status,
          exitCode: r.exitCode,
          changes: r.changes,
          resources: r.statuses.map(resource),
        }
      : null,
    lastError: ctx.lastError,
  };
}
