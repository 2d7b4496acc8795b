import { describe, expect, it } from 'vitest';
import type { ResourceStatus } from '../../machines/puppet';
import { runnerFor } from '../../sim/loops';
import type { PuppetWorldSummary } from '../../sim/loops/puppet-world-schema';
import { resourceRow } from '../../sim/worlds/puppet';

const status = (over: Partial<ResourceStatus>): ResourceStatus => ({
  ref: 'File[/etc/motd]',
  outOfSync: [],
  changed: false,
  failed: false,
  skipped: false,
  noop: false,
  corrective: false,
  failedDependencies: [],
  restarted: false,
  failedToRestart: false,
  message: '',
  ...over,
});

describe('puppet world summary: per-resource status of the last report', () => {
  it('classifies each Resource::Status', () => {
    expect(resourceRow(status({})).status).toBe('in sync');
    expect(resourceRow(status({ changed: true, outOfSync: ['content'], corrective: true }))).toMatchObject({
      status: 'changed',
      change: 'corrective',
    });
    expect(resourceRow(status({ changed: true, outOfSync: ['ensure'] }))).toMatchObject({ status: 'changed', change: 'intentional' });
    expect(resourceRow(status({ failed: true, message: 'boom' }))).toMatchObject({ status: 'failed', change: null, message: 'boom' });
    expect(resourceRow(status({ failedToRestart: true })).status).toBe('failed');
    expect(resourceRow(status({ skipped: true })).status).toBe('skipped');
    expect(resourceRow(status({ noop: true, outOfSync: ['content'] })).status).toBe('noop');
  });

  it('follows puppet-failed-dependency: failed + skipped dependents, then convergence, then corrective motd', () => {
    const { runner, scenario } = runnerFor('scenarios/puppet-failed-dependency.yaml');
    runner.run(scenario.durationMs);
    const worlds = runner.frames.map((f) => f.world as PuppetWorldSummary);
    expect(worlds[0]!.resources).toEqual([]);
    const first = worlds.find((w) => w.last?.run === 1)!;
    const by = (w: PuppetWorldSummary, ref: string) => w.resources.find((r) => r.ref === ref)!;
    expect(first.resources).toHaveLength(5);
    expect(by(first, 'Package[postgresql]').status).toBe('failed');
    expect(by(first, 'Package[postgresql]').message).toContain('503 Service Unavailable');
    expect(by(first, 'File[/etc/postgresql/15/main/pg_hba.conf]').status).toBe('skipped');
    expect(by(first, 'Service[postgresql]').status).toBe('skipped');
    expect(by(first, 'User[backup]')).toMatchObject({ status: 'changed', change: 'intentional' });
    // The counts of `last` agree with the rows.
    expect(first.resources.filter((r) => r.status === 'failed')).toHaveLength(first.last!.failed);
    expect(first.resources.filter((r) => r.status === 'skipped')).toHaveLength(first.last!.skipped);
    // The cron job's motd is put back by a later run: a corrective change.
    const corrected = worlds.find((w) => by(w, 'File[/etc/motd]')?.change === 'corrective');
    expect(corrected).toBeDefined();
    expect(by(worlds.at(-1)!, 'Package[postgresql]').status).toBe('in sync');
  });
});
