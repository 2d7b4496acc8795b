// `loopscope real status --config hpa.yaml`: who holds the HPA's lease, and the pods it owns.
import type { Command } from 'commander';
import { loadRealHpaConfig } from '../real/hpa-config';
import { leaseProfileName, readLease } from '../real/lease';
import { listOwned } from '../real/owned-observe';
import { connectChecked, incusFailure } from './incus-connect';
import { UsageError } from './usage';

interface StatusOpts {
  config?: string;
  remote?: string;
  project?: string;
}

async function status(opts: StatusOpts): Promise<void> {
  if (!opts.config) throw new UsageError('--config', 'expected the path of an hpa.yaml (see scenarios/hpa.yaml)');
  const loaded = loadRealHpaConfig(opts.config);
  const remote = opts.remote ?? loaded.remote;
  const project = opts.project ?? loaded.project;
  const client = await connectChecked({ ...(remote !== undefined ? { remote } : {}), ...(project !== undefined ? { project } : {}) });
  try {
    const name = loaded.config.name;
    const [lease, owned] = await Promise.all([readLease(client, name), listOwned(client, name)]);
    const out: string[] = [`HPA ${name} · ${client.endpoint}${client.project ? ` · project ${client.project}` : ''}`];
    if (!lease) out.push(`lease: none (profile ${leaseProfileName(name)} does not exist: no copy has run yet)`);
    else if (!lease.holder)
      out.push(`lease: free (released; last renewed ${lease.renewTime || 'never'}; ${lease.transitions} transition(s))`);
    else {
      const age = lease.renewTime ? (Date.now() - Date.parse(lease.renewTime)) / 1000 : NaN;
      const stale = Number.isFinite(age) && age > lease.leaseDurationSeconds;
      out.push(
        `lease: held by ${lease.holder} since ${lease.acquireTime}; renewed ${Number.isFinite(age) ? `${age.toFixed(1)} s ago` : 'never'} ` +
          `(duration ${lease.leaseDurationSeconds} s${stale ? ', EXPIRED by this clock: a standby may take over' : ''}); ${lease.transitions} transition(s)`,
      );
    }
    out.push(`owned pods: ${owned.length}`);
    for (const i of owned.sort((a, b) => a.created_at.localeCompare(b.created_at))) {
      out.push(`  ${i.name}  ${i.state?.status ?? i.status}  created ${i.created_at}`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } catch (e) {
    incusFailure(e, 'reading the lease and owned pods');
  } finally {
    await client.close();
  }
}

export function registerRealStatus(real: Command): void {
  real
    .command('status')
    .description("show who holds the HPA's lease (leader election) and the pods it owns")
    .option('--config <file>', 'hpa.yaml (its name is the HPA)')
    .option('--remote <name|url>', 'Incus remote')
    .option('--project <name>', 'Incus project')
    .action((_opts: unknown, cmd: Command) => status(cmd.optsWithGlobals<StatusOpts>()));
}
