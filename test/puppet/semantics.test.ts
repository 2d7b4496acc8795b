import { describe, expect, it } from 'vitest';
import type { Resource, ResourceStatus, Transaction } from '../../machines/puppet';
import {
  DEFAULT_SETTINGS,
  applyStep,
  buildReport,
  detailedExitCode,
  evaluationOrder,
  isCorrective,
  newSystemValue,
  newTransaction,
  nextRunDelay,
  nextStep,
  outOfSync,
  propertyInSync,
  refreshTargets,
  reportStatus,
  splaylimitOf,
} from '../../machines/puppet';

const res = (
  type: Resource['type'],
  title: string,
  should: Resource['should'],
  rel: Partial<Pick<Resource, 'require' | 'before' | 'notify' | 'subscribe' | 'noop'>> = {},
): Resource => ({ type, title, should, require: [], before: [], notify: [], subscribe: [], noop: false, ...rel });

// lib/puppet/defaults.rb: runinterval 30m; splay false; splaylimit defaults to runinterval; noop false.
describe('agent settings (defaults.rb) and the scheduler (Puppet::Scheduler::Job, SplayJob)', () => {
  it('runinterval 30 min, splay off, splaylimit = runinterval, noop off', () => {
    expect(DEFAULT_SETTINGS).toEqual({ runintervalMs: 1_800_000, splay: false, splaylimitMs: null, noop: false });
    expect(splaylimitOf(DEFAULT_SETTINGS)).toBe(1_800_000);
  });
  it.each([
    // last run started, now, → next run in
    [0, 65_000, 1_735_000], // a 65 s run: next run 30 min after the start, not after the end
    [0, 1_800_000, 0], // exactly one interval
    [0, 2_000_000, 0], // overran: run at once
  ])('start %i, now %i → %i', (start, now, delay) => expect(nextRunDelay(start, now, 1_800_000)).toBe(delay));
});

// Property#insync? per type (lib/puppet/type/package.rb, file.rb, service.rb, user.rb).
describe('insync? table', () => {
  it.each([
    // type, property, should, current, latest, insync
    ['package', 'ensure', 'present', '1.2-1', '1.3-1', true],
    ['package', 'ensure', 'installed', 'purged', '1.3-1', false],
    ['package', 'ensure', 'absent', 'purged', null, true],
    ['package', 'ensure', 'purged', 'absent', null, true],
    ['package', 'ensure', 'latest', '1.2-1', '1.3-1', false],
    ['package', 'ensure', 'latest', '1.3-1', '1.3-1', true],
    ['package', 'ensure', '1.2-1', '1.3-1', '1.3-1', false],
    ['file', 'ensure', 'present', 'file', null, true],
    ['file', 'ensure', 'file', 'absent', null, false],
    ['file', 'content', 'a', 'b', null, false],
    ['service', 'ensure', 'running', 'stopped', null, false],
    ['service', 'enable', 'true', 'true', null, true],
    ['user', 'shell', '/bin/bash', '/bin/sh', null, false],
  ] as const)('%s %s should %s, is %s (latest %s) → %s', (type, prop, should, current, latest, insync) => {
    expect(propertyInSync(type, prop, should, current, latest)).toBe(insync);
  });

  it('when ensure is out of sync only ensure changes (ResourceHarness#perform_changes)', () => {
    expect(outOfSync('file', { ensure: 'file', content: 'x' }, { current: { ensure: 'absent' }, latest: null })).toEqual(['ensure']);
    expect(outOfSync('file', { ensure: 'file', content: 'x' }, { current: { ensure: 'file', content: 'y' }, latest: null })).toEqual([
      'content',
    ]);
    expect(outOfSync('file', { ensure: 'absent', content: 'x' }, { current: { ensure: 'absent' }, latest: null })).toEqual([]);
    expect(
      outOfSync('service', { ensure: 'running', enable: 'true' }, { current: { ensure: 'running', enable: 'true' }, latest: null }),
    ).toEqual([]);
  });
});

// Event#calculate_corrective_change and ResourceHarness#new_system_value.
describe('corrective change (drift) vs intentional change', () => {
  it.each([
    // old system value (store), current → corrective?
    ['content A', 'edited by hand', true], // drift: the system moved away from what the last run left
    ['content A', 'content A', false], // the catalog changed, the system did not: intentional
    [undefined, 'anything', false], // no history: first run
  ] as const)('store %s, now %s → corrective %s', (old, current, corrective) => {
    expect(isCorrective('file', 'content', old, current, null)).toBe(corrective);
  });
  it('a new upstream version with ensure => latest is not drift', () => {
    expect(isCorrective('package', 'ensure', 'latest', '1.2-1', '1.3-1')).toBe(false);
    expect(isCorrective('package', 'ensure', 'latest', 'purged', '1.3-1')).toBe(true); // removed by hand
  });
  it('the store keeps should after success/in-sync, the old value after noop or failure', () => {
    expect(newSystemValue('success', 'A', 'B', 'C')).toBe('A');
    expect(newSystemValue(null, 'A', 'A', undefined)).toBe('A');
    expect(newSystemValue('noop', 'A', 'B', 'C')).toBe('C');
    expect(newSystemValue('failure', 'A', 'B', undefined)).toBe('B');
  });
});

// Report#compute_status and #exit_status (lib/puppet/transaction/report.rb); `--detailed-exitcodes`.
describe('report status and detailed exit codes', () => {
  it.each([
    // changes, failed, failedToRestart → status, exit
    [0, 0, 0, 'unchanged', 0],
    [3, 0, 0, 'changed', 2],
    [0, 1, 0, 'failed', 4],
    [2, 1, 0, 'failed', 6],
    [0, 0, 1, 'failed', 4],
  ] as const)('%i changes, %i failed, %i failed to restart → %s, exit %i', (changes, failed, ftr, status, code) => {
    expect(reportStatus(failed, ftr, changes)).toBe(status);
    expect(detailedExitCode(changes, failed, ftr)).toBe(code);
  });
  it('noop events are not changes: a noop run with drift reports unchanged, exit 0, noop_pending', () => {
    const s: ResourceStatus = {
      ref: 'File[/x]',
      outOfSync: ['content'],
      changed: false,
      failed: false,
      skipped: false,
      noop: true,
      corrective: true,
      failedDependencies: [],
      restarted: false,
      failedToRestart: false,
      message: '',
    };
    const r = buildReport(1, 0, 1, true, ['File[/x]'], [s]);
    expect([r.status, r.exitCode, r.noopPending, r.corrective]).toEqual(['unchanged', 0, true, true]);
  });
  it('a catalog that could not be applied is failed, exit 1', () => {
    expect(buildReport(1, 0, 1, false, [], [], false)).toMatchObject({ status: 'failed', exitCode: 1 });
  });
});

describe('ordering (relationship graph, ordering = manifest)', () => {
  const pkg = res('package', 'nginx', { ensure: 'present' });
  const conf = res('file', '/etc/nginx.conf', { ensure: 'file' }, { require: ['Package[nginx]'], notify: ['Service[nginx]'] });
  const svc = res('service', 'nginx', { ensure: 'running' });
  const motd = res('file', '/etc/motd', { ensure: 'file' }, { before: ['Package[nginx]'] });
  it('dependencies first, manifest order among the ready ones', () => {
    expect(evaluationOrder([svc, conf, pkg])).toEqual({ ok: true, order: ['Package[nginx]', 'File[/etc/nginx.conf]', 'Service[nginx]'] });
    expect(evaluationOrder([pkg, conf, svc, motd])).toEqual({
      ok: true,
      order: ['File[/etc/motd]', 'Package[nginx]', 'File[/etc/nginx.conf]', 'Service[nginx]'],
    });
  });
  it('a cycle fails the catalog', () => {
    const a = res('file', '/a', {}, { require: ['File[/b]'] });
    const b = res('file', '/b', {}, { require: ['File[/a]'] });
    expect(evaluationOrder([a, b]).ok).toBe(false);
  });
  it('notify and subscribe both send refresh events', () => {
    const sub = res('service', 'app', { ensure: 'running' }, { subscribe: ['Package[nginx]'] });
    expect(refreshTargets([pkg, conf, svc, sub], 'File[/etc/nginx.conf]')).toEqual(['Service[nginx]']);
    expect(refreshTargets([pkg, conf, svc, sub], 'Package[nginx]')).toEqual(['Service[app]']);
  });
});

// transaction.rb eval_resource / propagate_failure / skip?; event_manager.rb process_events.
describe('a transaction, step by step', () => {
  const catalog = [
    res('package', 'db', { ensure: 'present' }),
    res('file', '/etc/db.conf', { ensure: 'file', content: 'c' }, { require: ['Package[db]'] }),
    res('service', 'db', { ensure: 'running' }, { subscribe: ['File[/etc/db.conf]'] }),
    res('user', 'backup', { ensure: 'present' }),
  ];
  const observed = {
    'Package[db]': { current: { ensure: 'purged' }, latest: '15' },
    'File[/etc/db.conf]': { current: { ensure: 'absent' }, latest: null },
    'Service[db]': { current: { ensure: 'stopped' }, latest: null },
    'User[backup]': { current: { ensure: 'absent' }, latest: null },
  };
  const start = (noop = false): Transaction => ({
    ...newTransaction(1, 1, noop, catalog, evaluationOrder(catalog).ok ? (evaluationOrder(catalog) as { order: string[] }).order : [], {}),
    observed,
  });
  const walk = (tx: Transaction, fail: string[]) => {
    const kinds: string[] = [];
    for (let step = nextStep(tx); step.kind !== 'done'; step = nextStep(tx)) {
      kinds.push(`${step.kind} ${step.ref}`);
      tx = applyStep(tx, step, step.kind === 'sync' && fail.includes(step.ref) ? { ok: false, error: 'boom' } : { ok: true });
    }
    return { kinds: kinds.filter((k) => !k.startsWith('next')), tx };
  };
  it('a failed package skips its file and, transitively, the service; the user is still created', () => {
    const { kinds, tx } = walk(start(), ['Package[db]']);
    expect(kinds).toEqual(['sync Package[db]', 'skip File[/etc/db.conf]', 'skip Service[db]', 'sync User[backup]']);
    expect(tx.statuses['Service[db]']!.failedDependencies).toEqual(['Package[db]']);
    expect(tx.statuses['Service[db]']!.message).toBe('Skipping because of failed dependencies');
  });
  it('all good: the file change refreshes the subscribed service', () => {
    const { kinds } = walk(start(), []);
    expect(kinds).toEqual(['sync Package[db]', 'sync File[/etc/db.conf]', 'sync Service[db]', 'refresh Service[db]', 'sync User[backup]']);
  });
  it('noop: every difference is recorded, nothing synced, the refresh only "would have" happened', () => {
    const { kinds, tx } = walk(start(true), []);
    expect(kinds).toEqual([
      'noop Package[db]',
      'noop File[/etc/db.conf]',
      'noop Service[db]',
      'wouldRefresh Service[db]',
      'noop User[backup]',
    ]);
    expect(tx.statuses['Service[db]']!.message).toContain("Would have triggered 'refresh' from 1 event");
  });
});
