import { describe, expect, it } from 'vitest';
import type { Resource } from '../../machines/puppet';
import { DEFAULT_SETTINGS } from '../../machines/puppet';
import { puppetBinding } from '../../sim/loops/puppet';
import { Runner } from '../../sim/runner';
import type { Host } from '../../sim/worlds/puppet';
import { createPuppetWorld, currentValues } from '../../sim/worlds/puppet';

const res = (type: Resource['type'], title: string, should: Resource['should']): Resource => ({
  type,
  title,
  should,
  require: [],
  before: [],
  notify: [],
  subscribe: [],
  noop: false,
});
const repo = { a: { versions: ['1.0'], service: 'a' } };
const MIN = 60_000;

function runner(host: Host, catalog: Resource[], drift: { at: number; values: Record<string, string> }) {
  const world = createPuppetWorld(1, host, repo, { installJitterMs: 0 });
  return new Runner(puppetBinding, {
    scenario: 'removal',
    seed: 1,
    world,
    config: { settings: DEFAULT_SETTINGS, catalog },
    recordFrames: false,
    timeline: [{ at: drift.at, fault: { kind: 'drift', ref: 'Package[a]', values: drift.values } }],
  });
}

// apt-get remove deletes the package's files, its unit among them (prerm stops it, postrm reloads
// systemd): afterwards `systemctl start a` finds no unit, and Puppet fails Service[a].
describe('removing a package removes the service unit it ships', () => {
  it('a drift removes a: the unit is gone, and the next run cannot start it', () => {
    const r = runner(
      { packages: { a: '1.0' }, files: {}, services: { a: { running: true, enabled: true } }, users: {} },
      [res('service', 'a', { ensure: 'running' })],
      { at: 10 * MIN, values: { ensure: 'absent' } },
    );
    r.run(35 * MIN);
    expect(r.world.host.services).toEqual({});
    expect(currentValues(r.world, r.world.host, 'Service[a]').current).toEqual({ ensure: 'stopped', enable: 'false' });
    const [first, second] = r.world.reports;
    expect(first!.status).toBe('unchanged');
    expect(second!.status).toBe('failed');
    expect(second!.changes).toBe(0);
    expect(second!.statuses[0]!.message).toContain('Unit a.service not found');
  });

  it('Puppet removing the package it was told to remove takes the service it started with it; the next run fails, starts nothing', () => {
    // The fast-check counterexample, reduced: Service[a] is evaluated before Package[a] (manifest order).
    const r = runner(
      { packages: {}, files: {}, services: {}, users: {} },
      [res('service', 'a', { ensure: 'running' }), res('package', 'a', { ensure: 'absent' })],
      { at: 1 * MIN, values: { ensure: '1.0' } },
    );
    r.run(65 * MIN);
    const [, removed, after] = r.world.reports;
    expect(removed!.statuses.map((s) => [s.ref, s.changed])).toEqual([
      ['Service[a]', true],
      ['Package[a]', true],
    ]);
    expect(after!.status).toBe('failed');
    expect(after!.changes).toBe(0);
    expect(r.world.host.services).toEqual({});
  });
});
