import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { PuppetContext, Resource, ResourceStatus, ResourceType, RunReport, Transaction } from '../../machines/puppet';
import { DEFAULT_SETTINGS, newTransaction, refOf } from '../../machines/puppet';
import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty, CheckView } from '../../sim/check/model';
import type { PuppetLoopConfig } from '../../sim/loops/puppet';
import { parsePuppetScenario, puppetBinding } from '../../sim/loops/puppet';
import {
  PUPPET_INVARIANTS,
  convergenceRuns,
  converged,
  exitCodeMatchesReport,
  failuresSkipDependents,
  idempotent,
  noStaleService,
  noopChangesNothing,
  orderRespectsRelationships,
  puppetLabel,
  runsFollowRuninterval,
} from '../../sim/properties/puppet';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import { readYamlFile } from '../../sim/scenario/load';
import type { PuppetFault, PuppetWorld } from '../../sim/worlds/puppet';
import { createPuppetWorld } from '../../sim/worlds/puppet';
import { findRuns, propertyRuns } from '../property-runs';
import { firstBroken } from './drive';

const ENSURES: Record<ResourceType, string[]> = {
  package: ['present', 'absent', 'latest', '1.0', '2.0'],
  file: ['file', 'absent'],
  service: ['running', 'stopped'],
  user: ['present', 'absent'],
};
const RELS = ['require', 'before', 'notify', 'subscribe'] as const;

/** A catalog of up to 6 resources; relationships only point to earlier ones, so it is acyclic. */
const catalogArb = fc
  .array(
    fc.record({
      type: fc.constantFrom<ResourceType>('package', 'file', 'service', 'user'),
      name: fc.constantFrom('a', 'b', 'c'),
      ensureIdx: fc.nat(4),
      extra: fc.boolean(),
      noop: fc.boolean(),
      rels: fc.array(fc.record({ to: fc.nat(5), kind: fc.constantFrom(...RELS) }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((specs) => {
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

const faultArb = (catalog: Resource[]) =>
  fc.array(
    fc.oneof(
      fc
        .record({ at: fc.integer({ min: 0, max: 150 }), i: fc.nat(5), value: fc.constantFrom('absent', 'edited', 'stopped', '1.0') })
        .map(({ at, i, value }): TimelineEntry<PuppetFault, PuppetLoopConfig> => {
          const r = catalog[i % catalog.length]!;
          const values: Record<string, string> =
            r.type === 'file'
              ? value === 'edited'
                ? { content: 'edited' }
                : { ensure: value === 'absent' ? 'absent' : 'file' }
              : r.type === 'service'
                ? { ensure: value === 'stopped' ? 'stopped' : 'running' }
                : r.type === 'package'
                  ? { ensure: value === '1.0' ? '1.0' : 'absent' }
                  : { ensure: value === 'absent' ? 'absent' : 'present' };
          return { at: at * 60_000, fault: { kind: 'drift', ref: refOf(r.type, r.title), values } };
        }),
      fc
        .record({ at: fc.integer({ min: 0, max: 150 }), pkg: fc.constantFrom('a', 'b', 'c'), times: fc.integer({ min: -1, max: 2 }) })
        .map(({ at, pkg, times }): TimelineEntry<PuppetFault, PuppetLoopConfig> => ({
          at: at * 60_000,
          fault: { kind: 'failInstall', package: pkg, times },
        })),
      fc
        .record({ at: fc.integer({ min: 0, max: 150 }), noop: fc.boolean() })
        .map(({ at, noop }): TimelineEntry<PuppetFault, PuppetLoopConfig> => ({
          at: at * 60_000,
          config: { settings: { ...DEFAULT_SETTINGS, noop } },
        })),
    ),
    { maxLength: 5 },
  );

const repo = { a: { versions: ['1.0', '2.0'], service: 'a' }, b: { versions: ['1.0', '2.0'], service: 'b' }, c: { versions: ['2.0'] } };

type Case = [Resource[], TimelineEntry<PuppetFault, PuppetLoopConfig>[], boolean, number];
const res = (type: ResourceType, title: string, should: Record<string, string>): Resource => ({
  type,
  title,
  should,
  require: [],
  before: [],
  notify: [],
  subscribe: [],
  noop: false,
});

/** Cases the invariants property once found: fast-check runs them first, every time. */
const FOUND: [Case][] = [
  // Service[a] before Package[a] (absent); a drift installs a 1.0, which ships the a unit. The next
  // run starts a, then removes the package; the run after started a again: the removal had left a
  // stopped unit behind (idempotent). Removal now deletes the unit, so that run fails to start it,
  // which is what the converged run's own removal caused (the property's undoneBy).
  [
    [
      [
        res('service', 'a', { ensure: 'running' }),
        res('file', '/etc/a', { ensure: 'file', content: 'managed' }),
        res('package', 'c', { ensure: 'absent' }),
        res('package', 'a', { ensure: 'absent' }),
        res('file', '/etc/c', { ensure: 'absent' }),
      ],
      [{ at: 60_000, fault: { kind: 'drift', ref: 'Package[a]', values: { ensure: '1.0' } } }],
      false,
      0,
    ],
  ],
];

type View = CheckView<PuppetWorld, PuppetLoopConfig, PuppetContext>;
const HOURS = 3_600_000;

describe('puppet invariants hold for random catalogs, drift, failing installs and noop (fast-check)', () => {
  it('in every state of every run: order, failed-dependency skips, exit codes, noop, idempotence, run schedule', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((c) => fc.tuple(fc.constant(c), faultArb(c), fc.boolean(), fc.nat(1000))),
        ([catalog, timeline, splay, seed]) => {
          const settings = { ...DEFAULT_SETTINGS, splay, splaylimitMs: 600_000 };
          const world = createPuppetWorld(seed, { packages: {}, files: {}, services: {}, users: {} }, repo);
          const r = new Runner(puppetBinding, { scenario: 'p', seed, world, config: { settings, catalog }, timeline, recordFrames: false });
          expect(firstBroken(r, 3 * HOURS, PUPPET_INVARIANTS)).toBeNull();
          expect(r.world.reports.length).toBeGreaterThanOrEqual(5);
        },
      ),
      { numRuns: propertyRuns(250), examples: FOUND },
    );
  });

  it('the properties can fail: each one rejects a state that breaks its claim', () => {
    const pkg: Resource = {
      type: 'package',
      title: 'a',
      should: { ensure: 'present' },
      require: [],
      before: [],
      notify: [],
      subscribe: [],
      noop: false,
    };
    const svc: Resource = {
      type: 'service',
      title: 'a',
      should: { ensure: 'running' },
      require: ['Package[a]'],
      before: [],
      notify: [],
      subscribe: [],
      noop: false,
    };
    const catalog = [pkg, svc];
    // A real mid-run state (a transaction in progress), then the piece under test replaced.
    const r = new Runner(puppetBinding, {
      scenario: 'p',
      seed: 1,
      world: createPuppetWorld(1, { packages: {}, files: {}, services: {}, users: {} }, repo),
      config: { settings: DEFAULT_SETTINGS, catalog },
    });
    while ((r.snapshot.context as PuppetContext).tx === null) r.processNext();
    const base = viewOf(r);
    const withTx = (tx: Transaction): View => ({
      ...base,
      snapshot: { ...base.snapshot, context: { ...base.snapshot.context, tx } } as AnyMachineSnapshot,
    });
    const withWorld = (world: Partial<PuppetWorld>): View => ({ ...base, world: { ...base.world, ...world } });
    const breaks = (p: CheckProperty<PuppetWorld, PuppetLoopConfig, PuppetContext>, v: View) => {
      expect(p.holds(base), p.name).toBe(true);
      expect(p.holds(v), p.name).toBe(false);
    };

    const status = (ref: string, s: Partial<ResourceStatus>): ResourceStatus => ({
      ref,
      outOfSync: ['ensure'],
      changed: false,
      failed: false,
      skipped: false,
      noop: false,
      corrective: false,
      failedDependencies: [],
      restarted: false,
      failedToRestart: false,
      message: '',
      ...s,
    });
    const tx = newTransaction(1, 1, false, catalog, ['Package[a]', 'Service[a]'], {});
    breaks(orderRespectsRelationships, withTx({ ...tx, order: ['Service[a]', 'Package[a]'] }));
    breaks(
      failuresSkipDependents,
      withTx({
        ...tx,
        statuses: { 'Package[a]': status('Package[a]', { failed: true }), 'Service[a]': status('Service[a]', { changed: true }) },
      }),
    );
    breaks(noopChangesNothing, {
      ...withTx({ ...tx, noop: true }),
      world: {
        ...base.world,
        ops: [
          {
            id: 99,
            kind: 'sync',
            result: { ok: true },
            sync: { run: 1, ref: 'Package[a]', type: 'package', title: 'a', values: { ensure: '1.0' }, should: pkg.should },
          },
        ],
      },
    });

    const report = (over: Partial<RunReport>): RunReport => ({
      run: 1,
      time: 0,
      catalogVersion: 1,
      noop: false,
      status: 'unchanged',
      exitCode: 0,
      changes: 0,
      corrective: false,
      noopPending: false,
      resources: { total: 2, changed: 0, failed: 0, skipped: 0, outOfSync: 0, restarted: 0, failedToRestart: 0, corrective: 0 },
      statuses: [],
      order: [],
      ...over,
    });
    breaks(exitCodeMatchesReport, withWorld({ reports: [report({ status: 'failed', exitCode: 2, changes: 1 })], reportedAt: [1] }));
    const changed = report({
      run: 2,
      time: 1_800_000,
      status: 'changed',
      exitCode: 2,
      changes: 1,
      resources: { ...report({}).resources, changed: 1, outOfSync: 1 },
    });
    breaks(idempotent, withWorld({ reports: [report({}), changed], reportedAt: [3000, 1_803_000], faults: [] }));
    // A service found out of sync with nothing changed: excused only when the converged run removed its package after it.
    const unstarted = status('Service[a]', { failed: true });
    const failedStart = report({
      run: 2,
      time: 1_800_000,
      status: 'failed',
      exitCode: 4,
      statuses: [unstarted],
      resources: { ...report({}).resources, failed: 1, outOfSync: 1 },
    });
    const removed = status('Package[a]', { changed: true });
    const removedAfter = report({
      status: 'changed',
      exitCode: 2,
      changes: 1,
      order: ['Service[a]', 'Package[a]'],
      statuses: [status('Service[a]', { changed: true }), removed],
    });
    expect(idempotent.holds(withWorld({ reports: [removedAfter, failedStart], reportedAt: [3000, 1_803_000], faults: [] }))).toBe(true);
    breaks(
      idempotent,
      withWorld({
        reports: [{ ...removedAfter, order: ['Package[a]', 'Service[a]'] }, failedStart],
        reportedAt: [3000, 1_803_000],
        faults: [],
      }),
    );
    breaks(runsFollowRuninterval, withWorld({ reports: [report({}), report({ run: 2, time: 600_000 })], reportedAt: [3000, 603_000] }));
  });
});

/**
 * The explorer's bounded claims, sampled: the check scenarios' moves at random instants (or not at
 * all), then K runintervals of quiet; converges and no-stale-service must hold from then on.
 */
describe('the check scenarios under random schedules agree with the explorer (fast-check)', () => {
  const load = (file: string) => parsePuppetScenario(file, 'p', readYamlFile(file));
  const scheduleArb = (n: number) =>
    fc.array(fc.option(fc.integer({ min: 0, max: 4 * 60 }), { nil: undefined }), { minLength: n, maxLength: n });
  const settledFrom = (file: string, at: (number | undefined)[]) => {
    const s = load(file);
    const timeline = s.timeline.flatMap((e, i) => (at[i] === undefined ? [] : [{ ...e, at: at[i]! * 60_000 }]));
    const alphabet = s.timeline.map((entry, index) => ({ index, label: puppetLabel(entry), entry }));
    const quietFrom = Math.max(0, ...timeline.map((e) => e.at)) + convergenceRuns(alphabet) * s.config.settings.runintervalMs;
    const r = new Runner(puppetBinding, {
      scenario: s.name,
      seed: s.seed,
      world: s.world,
      config: s.config,
      timeline,
      recordFrames: false,
    });
    r.run(quietFrom);
    const eventually: CheckProperty<PuppetWorld, PuppetLoopConfig, PuppetContext>[] = [
      { name: 'converges', kind: 'eventually', claim: '', holds: converged },
      { name: 'no-stale-service', kind: 'eventually', claim: '', holds: noStaleService },
    ];
    return firstBroken(r, quietFrom + 2 * s.config.settings.runintervalMs, eventually);
  };

  it('package → file ~> service: converged and no stale nginx within K, whatever the schedule', () => {
    fc.assert(
      fc.property(scheduleArb(3), (at) => settledFrom('scenarios/puppet-check-package-file-service.yaml', at) === null),
      { numRuns: propertyRuns() },
    );
  });

  it('file ~> service without package → file: fast-check FINDS the lost refresh too (a finding, not a bug in the checker)', () => {
    const result = fc.check(
      fc.property(scheduleArb(3), (at) => settledFrom('scenarios/puppet-check-lost-refresh.yaml', at) === null),
      { numRuns: findRuns() },
    );
    expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
    expect(settledFrom('scenarios/puppet-check-lost-refresh.yaml', result.counterexample![0])).toMatch(/^no-stale-service/);
  });
});
