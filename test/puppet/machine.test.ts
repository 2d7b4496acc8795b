import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PuppetContext, Resource } from '../../machines/puppet';
import { DEFAULT_SETTINGS } from '../../machines/puppet';
import { runnerFor } from '../../sim/loops';
import type { PuppetLoopConfig, PuppetScenario } from '../../sim/loops/puppet';
import { parsePuppetScenario, puppetBinding } from '../../sim/loops/puppet';
import { PUPPET_INVARIANTS, runsFollowRuninterval } from '../../sim/properties/puppet';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import { InputErrors } from '../../sim/scenario/errors';
import type { PuppetFault, PuppetWorld } from '../../sim/worlds/puppet';
import { createPuppetWorld } from '../../sim/worlds/puppet';
import { firstBroken } from './drive';

const res = (type: Resource['type'], title: string, should: Resource['should'], rel: Partial<Resource> = {}): Resource => ({
  type,
  title,
  should,
  require: [],
  before: [],
  notify: [],
  subscribe: [],
  noop: false,
  ...rel,
});
const catalog = [
  res('package', 'nginx', { ensure: 'latest' }),
  res('file', '/etc/nginx.conf', { ensure: 'file', content: 'good' }, { require: ['Package[nginx]'], notify: ['Service[nginx]'] }),
  res('service', 'nginx', { ensure: 'running', enable: 'true' }, { require: ['Package[nginx]'] }),
];
const repo = { nginx: { versions: ['1.0'], service: 'nginx' } };
const host = () => ({ packages: {}, files: {}, services: {}, users: {} });
function runner(timeline: TimelineEntry<PuppetFault, PuppetLoopConfig>[] = [], settings = {}, failures: Record<string, number> = {}) {
  const world = createPuppetWorld(1, host(), repo, { installJitterMs: 0 }, failures);
  return new Runner(puppetBinding, {
    scenario: 't',
    seed: 1,
    world,
    config: { settings: { ...DEFAULT_SETTINGS, ...settings }, catalog },
    timeline,
    checkpoints: true,
  });
}
const ctx = (r: Runner<PuppetWorld, PuppetFault, PuppetLoopConfig>) => r.snapshot.context as PuppetContext;

describe('puppet machine', () => {
  it('first run converges (exit 2), the second changes nothing (exit 0): idempotent', () => {
    const r = runner().run(31 * 60_000);
    expect(r.world.reports.map((x) => [x.status, x.exitCode, x.changes])).toEqual([
      ['changed', 2, 3],
      ['unchanged', 0, 0],
    ]);
    expect(r.world.host.services.nginx).toEqual({ running: true, enabled: true });
    expect(r.world.reports.map((x) => x.time)).toEqual([0, 1_800_000]);
  });

  it('drift is reverted at the next run as a corrective change and refreshes the service', () => {
    const r = runner([{ at: 10 * 60_000, fault: { kind: 'drift', ref: 'File[/etc/nginx.conf]', values: { content: 'by hand' } } }]).run(
      31 * 60_000,
    );
    const second = r.world.reports[1]!;
    expect(second.corrective).toBe(true);
    expect(second.statuses.find((s) => s.ref === 'Service[nginx]')).toMatchObject({ restarted: true, changed: false });
    expect(r.world.host.files['/etc/nginx.conf']).toBe('good');
    expect(r.world.restarts).toBe(2); // first run: started + refreshed; second: refreshed
  });

  it('a failing install fails the run (exit 4) and skips its dependents; the next run retries', () => {
    const r = runner([], {}, { nginx: 1 }).run(31 * 60_000);
    const [first, second] = r.world.reports;
    expect([first!.status, first!.exitCode, first!.resources.skipped]).toEqual(['failed', 4, 2]);
    expect(second!.status).toBe('changed');
  });

  it('noop: reports what would change, changes nothing; switching noop off applies it', () => {
    const r = runner([{ at: 40 * 60_000, config: { settings: { ...DEFAULT_SETTINGS, noop: false } } }], { noop: true }).run(61 * 60_000);
    expect(r.world.reports.slice(0, 2).map((x) => [x.status, x.exitCode, x.noopPending, x.resources.outOfSync])).toEqual([
      ['unchanged', 0, true, 3],
      ['unchanged', 0, true, 3],
    ]);
    expect(r.world.applied.filter((a) => a.run <= 2)).toEqual([]);
    expect(r.world.reports[2]!.status).toBe('changed');
  });

  it('splay delays only the first run, by at most splaylimit', () => {
    const r = runner([], { splay: true, splaylimitMs: 300_000 });
    expect(firstBroken(r, 2 * 3_600_000, [runsFollowRuninterval])).toBeNull();
    const first = r.world.reports[0]!.time;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(300_000);
    expect(r.world.reports.length).toBeGreaterThanOrEqual(4);
  });

  it('SIGUSR1 runs at once; a new catalog is used from the next run', () => {
    const next = [...catalog, res('user', 'deploy', { ensure: 'present', shell: '/bin/bash' })];
    const r = runner([
      { at: 5 * 60_000, config: { catalog: next } },
      { at: 6 * 60_000, config: { request: 'run' } },
    ]).run(7 * 60_000);
    expect(r.world.reports.map((x) => [x.time, x.catalogVersion])).toEqual([
      [0, 1],
      [360_000, 2],
    ]);
    expect(r.world.host.users.deploy).toEqual({ shell: '/bin/bash' });
  });

  it('goes observe → compare → act → compare … → wait', () => {
    const r = runner();
    const phases: string[] = [];
    for (let i = 0; i < 6; i++) {
      phases.push(r.phase);
      r.step();
    }
    expect(phases).toEqual(['observe', 'compare', 'act', 'compare', 'act', 'compare']);
    expect(r.phase).toBe('act');
    const applied = r.world.applied.length;
    r.stepBack();
    expect(r.phase).toBe('compare');
    expect(ctx(r).runs).toBe(1);
    expect(r.world.applied.length).toBeLessThanOrEqual(applied);
  });
});

describe('puppet scenario format', () => {
  const base = { loop: 'puppet', catalog: [{ package: 'nginx' }] };
  const bad = (doc: object) => {
    try {
      parsePuppetScenario('s.yaml', 's', doc);
      return '';
    } catch (e) {
      return e instanceof InputErrors ? e.message : `not an InputErrors: ${String(e)}`;
    }
  };
  it('names file, field and expectation', () => {
    expect(bad({ ...base, catalog: [{ package: 'nginx', ensure: 'running' }] })).toContain(
      's.yaml: catalog[0].ensure: expected present, installed, absent, purged, latest or a version',
    );
    expect(bad({ ...base, catalog: [{ package: 'a', require: 'Package[b]' }] })).toContain("Could not find resource 'Package[b]'");
    expect(
      bad({
        ...base,
        catalog: [
          { file: '/a', require: 'File[/b]' },
          { file: '/b', require: 'File[/a]' },
        ],
      }),
    ).toContain('dependency cycle');
    expect(bad({ ...base, catalog: [{ package: 'a' }, { package: 'a' }] })).toContain('Duplicate declaration');
    expect(bad({ ...base, catalog: [{ package: 'a', content: 'x' }] })).toContain('catalog[0].content: expected no content on a package');
    expect(bad({ ...base, wat: 1 })).toContain('wat: unknown key');
  });
  it('parses a valid document', () => {
    const s: PuppetScenario = parsePuppetScenario('s.yaml', 's', { ...base, agent: { runinterval: '1h', noop: true } });
    expect(s.config.settings).toMatchObject({ runintervalMs: 3_600_000, noop: true });
    expect(s.config.catalog[0]!.should).toEqual({ ensure: 'present' });
  });
});

const scenarios = readdirSync('scenarios')
  .filter((f) => f.startsWith('puppet-') && f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`);
describe('puppet scenarios', () => {
  it('ship at least two', () => expect(scenarios.length).toBeGreaterThanOrEqual(2));
  for (const file of scenarios) {
    it(`${file}: deterministic and free of invariant violations`, () => {
      const { runner, scenario } = runnerFor(file);
      // The check's claims, in every state of the run (the same objects `loopscope check` explores with).
      const broken = firstBroken(runner as Runner<PuppetWorld, PuppetFault, PuppetLoopConfig>, scenario.durationMs, PUPPET_INVARIANTS);
      expect(broken).toBeNull();
      const again = runnerFor(file).runner.run(scenario.durationMs);
      expect(JSON.stringify(runner.trace())).toBe(JSON.stringify(again.trace()));
      expect(runner.frames.some((f) => f.phase === 'act') && runner.frames.some((f) => f.phase === 'observe')).toBe(true);
    });
  }
  it('the failed-dependency scenario: exit 6 twice with the service skipped, then converged; motd reverted every run', () => {
    const { runner, scenario } = runnerFor('scenarios/puppet-failed-dependency.yaml');
    runner.run(scenario.durationMs);
    const w = runner.world as PuppetWorld;
    expect(w.reports.slice(0, 3).map((r) => r.exitCode)).toEqual([6, 6, 2]);
    expect(w.reports[0]!.statuses.find((s) => s.ref === 'Service[postgresql]')!.skipped).toBe(true);
    expect(w.reports.slice(1).every((r) => r.statuses.find((s) => s.ref === 'File[/etc/motd]')!.corrective)).toBe(true);
  });
});
