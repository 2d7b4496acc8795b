// The Puppet agent's run as loopscope narrates it (sim/loops/puppet.ts, sim/worlds/puppet.ts). What
// the agent itself logs (Notice:, Warning:, Error: lines, its report's status) is quoted verbatim.
import type { MessageOf, NoParams, NoteCatalog } from './catalog';
import { messagesOf, verbatim } from './catalog';

export const PUPPET_NOTES = {
  /** A line of the agent's own log, as Puppet writes it. */
  'puppet.agentLog': ({ line }: { line: string }) => verbatim(line),
  'puppet.agentStarted': ({ settings, resources }: { settings: string; resources: number }) =>
    `${verbatim(`puppet agent: ${settings}`)}; catalog of ${resources} resources`,
  'puppet.retrieving': ({ run, resources }: { run: number; resources: number }) =>
    `run ${run}: retrieving facts, catalog and the current state of ${resources} resources`,
  'puppet.applying': ({ run, version, noop, order }: { run: number; version: number; noop: boolean; order: string[] }) =>
    `run ${run}: ${verbatim(`Applying configuration version '${version}'${noop ? ' (noop)' : ''}`)} — order ${order.join(' → ')}`,
  /** What syncing a resource sets: each property to the catalog's value. */
  'puppet.willSet': ({ ref, values }: { ref: string; values: Record<string, string> }) =>
    `${ref}: ${Object.entries(values)
      .map(([p, v]) => `${verbatim(p)} → ${verbatim(`'${v}'`)}`)
      .join(', ')}`,
  'puppet.willRestart': ({ ref, events }: { ref: string; events: number }) =>
    `${ref}: restart (${events} queued event${events > 1 ? 's' : ''})`,
  'puppet.report': (r: {
    run: number;
    status: string;
    exitCode: number;
    noop: boolean;
    outOfSync: number;
    changes: number;
    corrective: number;
    failed: number;
    skipped: number;
    restarted: number;
  }) =>
    `run ${r.run} report: ${verbatim(r.status)}, exit code ${r.exitCode} — ${
      r.noop
        ? `${r.outOfSync} out of sync, not changed (noop${r.corrective ? `, ${r.corrective} corrective` : ''})`
        : `${r.changes} change${r.changes === 1 ? '' : 's'}${r.corrective ? ` (${r.corrective} corrective)` : ''}`
    }, ${r.failed} failed, ${r.skipped} skipped${r.restarted ? `, ${r.restarted} restarted` : ''}`,
  'puppet.nextRun': ({ span }: { span: string }) => `next run in ${span}`,
  'puppet.runNow': (_: NoParams) => 'SIGUSR1: run now',
  'puppet.newCatalog': ({ version, resources, settings }: { version: number; resources: number; settings: string }) =>
    `new catalog version ${version} (${resources} resources), ${verbatim(settings)}: used from the next run`,
  /** `times` < 0: every install fails from now on. */
  'puppet.installsWillFail': ({ pkg, times }: { pkg: string; times: number }) =>
    `repository mirror broken for ${pkg}: the next ${times < 0 ? 'every' : times} install${times === 1 ? '' : 's'} will fail`,
  'puppet.published': ({ pkg, version }: { pkg: string; version: string }) => `repository publishes ${pkg} ${version}`,
  'puppet.driftFailed': ({ ref, error }: { ref: string; error: string }) => `drift on ${ref} failed: ${verbatim(error)}`,
  /** `change`: the resource and what changed, in Puppet's own notation (`content => '…'`). */
  'puppet.drifted': ({ change }: { change: string }) => `changed outside Puppet: ${verbatim(change)}`,
} satisfies NoteCatalog;

export const puppetNote = messagesOf<typeof PUPPET_NOTES>();
export type PuppetNote = MessageOf<typeof PUPPET_NOTES>;
