import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Resource, ResourceType } from '../../machines/puppet';
import { DEFAULT_SETTINGS, refOf } from '../../machines/puppet';
import type { PuppetLoopConfig } from '../../sim/loops/puppet';
import { puppetBinding } from '../../sim/loops/puppet';
import { puppetViolations, runsFollowRuninterval } from '../../sim/properties/puppet';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { PuppetFault } from '../../sim/worlds/puppet';
import { createPuppetWorld } from '../../sim/worlds/puppet';
import { propertyRuns } from '../property-runs';

const ENSURES: Record<ResourceType, string[]> = {
  package: ['present', 'absent', 'latest', '1.0', '2.0'],
  file: ['file', 'absent'],
  service: ['running', 'stopped'],
  user: ['present', 'absent'],
};
const RELS = ['require', 'before', 'notify', 'subscribe'] as const;

/** A catalog of up to 6 resources; relationships only point to earlier ones, so it is acyclic. */
const catalogArb = fc.array(fc.record({
  type: fc.constantFrom<ResourceType>('package', 'file', 'service', 'user'),
  name: fc.constantFrom('a', 'b', 'c'),
  ensureIdx: fc.nat(4),
  extra: fc.boolean(),
  noop: fc.boolean(),
  rels: fc.array(fc.record({ to: fc.nat(5), kind: fc.constantFrom(...RELS) }), { maxLength: 2 }),
}), { minLength: 1, maxLength: 6 }).map((specs) => {
  const out: Resource[] = [];
  for (const s of specs) {
    const title = s.type === 'file' ? `/etc/${s.name}` : s.name;
    if (out.some((r) => r.type === s.type && r.title === title)) continue;
    const ensures = ENSURES[s.type];
    const should: Record<string, string> = { ensure: ensures[s.ensureIdx % ensures.length]! };
    if (s.extra && s.type === 'file') should.content = 'managed';
    if (s.extra && s.type === 'service') should.enable = 'true';
    if (s.extra && s.type === 'user') should.shell = '/bin/bash';
    const r: Resource = { type: s.type, title, should, require: [], before: [], notify: [], subscribe: [], noop: s.noop && s.extra };
    for (const rel of s.rels) {
      const target = out[rel.to % Math.max(1, out.length)];
      if (!target) continue;
      const ref = refOf(target.type, target.title);
      // "before"/"notify" point forward: put them on the earlier resource instead.
      if (rel.kind === 'require' || rel.kind === 'subscribe') r[rel.kind].push(ref);
      else target[rel.kind].push(refOf(r.type, r.title));
    }
    out.push(r);
  }
  return out;
});

const faultArb = (catalog: Resource[]) => fc.array(fc.oneof(
  fc.record({ at: fc.integer({ min: 0, max: 150 }), i: fc.nat(5), value: fc.constantFrom('absent', 'edited', 'stopped', '1.0') })
    .map(({ at, i, value }): TimelineEntry<PuppetFault, PuppetLoopConfig> => {
      const r = catalog[i % catalog.length]!;
      const values: Record<string, string> = r.type === 'file' ? (value === 'edited' ? { content: 'edited' } : { ensure: value === 'absent' ? 'absent' : 'file' })
        : r.type === 'service' ? { ensure: value === 'stopped' ? 'stopped' : 'running' }
        : r.type === 'package' ? { ensure: value === '1.0' ? '1.0' : 'absent' }
        : { ensure: value === 'absent' ? 'absent' : 'present' };
      return { at: at * 60_000, fault: { kind: 'drift', ref: refOf(r.type, r.title), values } };
    }),
  fc.record({ at: fc.integer({ min: 0, max: 150 }), pkg: fc.constantFrom('a', 'b', 'c'), times: fc.integer({ min: -1, max: 2 }) })
    .map(({ at, pkg, times }): TimelineEntry<PuppetFault, PuppetLoopConfig> => ({ at: at * 60_000, fault: { kind: 'failInstall', package: pkg, times } })),
  fc.record({ at: fc.integer({ min: 0, max: 150 }), noop: fc.boolean() })
    .map(({ at, noop }): TimelineEntry<PuppetFault, PuppetLoopConfig> => ({ at: at * 60_000, config: { settings: { ...DEFAULT_SETTINGS, noop } } })),
), { maxLength: 5 });

const repo = { a: { versions: ['1.0', '2.0'], service: 'a' }, b: { versions: ['1.0', '2.0'], service: 'b' }, c: { versions: ['2.0'] } };

describe('puppet invariants hold for random catalogs, drift, failing installs and noop (fast-check)', () => {
  it('order, failed-dependency skips, exit codes, noop, idempotence, run schedule', () => {
    fc.assert(fc.property(catalogArb.chain((c) => fc.tuple(fc.constant(c), faultArb(c), fc.boolean(), fc.nat(1000))), ([catalog, timeline, splay, seed]) => {
      const settings = { ...DEFAULT_SETTINGS, splay, splaylimitMs: 600_000 };
      const world = createPuppetWorld(seed, { packages: {}, files: {}, services: {}, users: {} }, repo);
      const r = new Runner(puppetBinding, { scenario: 'p', seed, world, config: { settings, catalog }, timeline, recordFrames: false });
      r.run(3 * 3_600_000);
      expect(r.world.reports.length).toBeGreaterThanOrEqual(5);
      expect(puppetViolations(r.world, () => catalog)).toEqual([]);
      expect(runsFollowRuninterval(r.world, settings.runintervalMs, splay ? 600_000 : 0)).toEqual([]);
    }), { numRuns: propertyRuns(250), seed: 4 });
  });

  it('the properties can fail: a report whose service changed after its package failed is caught', () => {
    const catalog: Resource[] = [
      { type: 'package', title: 'a', should: { ensure: 'present' }, require: [], before: [], notify: [], subscribe: [], noop: false },
      { type: 'service', title: 'a', should: { ensure: 'running' }, require: ['Package[a]'], before: [], notify: [], subscribe: [], noop: false },
    ];
    const world = createPuppetWorld(1, { packages: {}, files: {}, services: {}, users: {} }, repo);
    const base = { outOfSync: ['ensure'], noop: false, corrective: false, failedDependencies: [], restarted: false, failedToRestart: false, message: '' };
    world.reports.push({
      run: 1, time: 0, catalogVersion: 1, noop: false, status: 'failed', exitCode: 6, changes: 1, corrective: false, noopPending: false,
      resources: { total: 2, changed: 1, failed: 1, skipped: 0, outOfSync: 2, restarted: 0, failedToRestart: 0, corrective: 0 },
      statuses: [{ ref: 'Package[a]', ...base, changed: false, failed: true, skipped: false }, { ref: 'Service[a]', ...base, changed: true, failed: false, skipped: false }],
      order: ['Service[a]', 'Package[a]'],
    });
    world.reportedAt.push(1);
    const props = puppetViolations(world, () => catalog).map((v) => v.property);
    expect(props).toContain('failuresSkipDependents');
    expect(props).toContain('orderRespectsRelationships');
  });
});
