import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../sim/check/check';
import { checkScenario } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';
import { parsePuppetScenario } from '../../sim/loops/puppet';
import { puppetCheck } from '../../sim/properties/puppet';
import { InputError } from '../../sim/scenario/errors';
import { envMoves, verdictOf, verdictsOf } from '../check/check-run';

const verdict = verdictOf;
const statuses = verdictsOf;
const moves = (run: CheckRun, name: string) => envMoves(run, verdict(run, name).path).map((m) => m.label);

const PUBLISH = 'publish nginx 1.22.1-10';
const FAIL = 'next 1 install of nginx fails';
const CATALOG = 'new catalog #3a276a: Package[nginx]=latest, File[/etc/nginx/nginx.conf]=worker_processes auto;, Service[nginx]=running';
const PROVED = {
  'order-respects-relationships': 'holds',
  'failures-skip-dependents': 'holds',
  'exit-code-matches-report': 'holds',
  'noop-changes-nothing': 'holds',
  idempotent: 'holds',
  'runs-follow-runinterval': 'holds',
  'skips-a-dependent': 'holds',
  'restarts-a-service': 'holds',
  converges: 'holds',
};

describe('puppet-check-lost-refresh: nginx.conf notifies nginx but does not require the package', () => {
  const { entry, scenario } = loadScenario('scenarios/puppet-check-lost-refresh.yaml');
  const run = checkScenario(entry, scenario);

  it('explores the whole bounded space (pinned: a change in semantics or in the key shows here)', () => {
    expect(run.result.stats.complete).toBe(true);
    expect(run.result.stats.distinct).toBe(3541);
    expect(run.result.stats.depth).toBe(63);
    expect(run.alphabet.map((m) => m.label)).toEqual([PUBLISH, FAIL, CATALOG]);
  });

  it('proves every promise and refutes only no-stale-service, which Puppet does not promise', () => {
    expect(statuses(run)).toEqual({ ...PROVED, 'no-stale-service': 'violated' });
    expect(run.promises).toContain('converges');
    expect(run.promises).not.toContain('no-stale-service');
    expect(verdict(run, 'converges').settleMs).toBe(5_400_200);
  });

  it('shortest counterexample: the upgrade, its failure and the new catalog before the first run — nginx is never restarted', () => {
    const v = verdict(run, 'no-stale-service');
    expect(v.path).toEqual([
      { kind: 'env', index: 0 },
      { kind: 'env', index: 1 },
      { kind: 'env', index: 2 },
    ]);
    expect(v.settleMs).toBe(Infinity);
    const { trace } = run.counterexamples.find((c) => c.property === 'no-stale-service')!;
    const notes = trace.frames.map((f) => f.note ?? '');
    expect(notes.some((n) => n.includes('Service[nginx]: Skipping because of failed dependencies'))).toBe(true);
    expect(
      notes.some((n) => n.includes("File[/etc/nginx/nginx.conf]: content changed 'worker_processes 1;' to 'worker_processes auto;'")),
    ).toBe(true);
    expect(notes.some((n) => n.includes("Triggered 'refresh'"))).toBe(false);
    expect(trace.frames.at(-1)!.note).toMatch(/✗ no-stale-service/);
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace); // plain JSON, as the lab loads it
  });

  it('the sometimes-witnesses are short: a skip after 12 steps, a refresh after 13', () => {
    expect(verdict(run, 'skips-a-dependent').path).toHaveLength(12);
    expect(moves(run, 'skips-a-dependent')).toEqual([PUBLISH, FAIL]);
    expect(verdict(run, 'restarts-a-service').path).toHaveLength(13);
    expect(moves(run, 'restarts-a-service')).toEqual([CATALOG]);
  });
});

describe('puppet-check-package-file-service: the usual package → file ~> service', () => {
  const { entry, scenario } = loadScenario('scenarios/puppet-check-package-file-service.yaml');
  const run = checkScenario(entry, scenario);

  it('explores the whole bounded space and proves every claim, no-stale-service included', () => {
    expect(run.result.stats.complete).toBe(true);
    expect(run.result.stats.distinct).toBe(3495);
    expect(run.result.stats.depth).toBe(62);
    expect(statuses(run)).toEqual({ ...PROVED, 'no-stale-service': 'holds' });
    expect(verdict(run, 'no-stale-service').settleMs).toBe(3_614_100);
    expect(run.counterexamples).toEqual([]);
    expect(verdict(run, 'skips-a-dependent').path).toHaveLength(11);
    expect(verdict(run, 'restarts-a-service').path).toHaveLength(13);
  });

  it('K is tight enough to matter: one runinterval is refuted, with a shortest path', () => {
    const tight = checkScenario(entry, scenario, { withinPeriods: 1 });
    const v = verdict(tight, 'converges');
    expect(v.status).toBe('violated');
    // A new version before the first run: run 1 upgrades, run 2 reports unchanged 30 min 3.2 s later.
    expect(v.path).toEqual([{ kind: 'env', index: 0 }]);
    expect(v.settleMs).toBe(1_803_200);
  });
});

describe('puppet-check-drift: a hand-edited config, a stopped service, a removed package, at any instant', () => {
  const { entry, scenario } = loadScenario('scenarios/puppet-check-drift.yaml');
  const run = checkScenario(entry, scenario);

  it('explores the whole bounded space and proves every claim: reverted within K, idempotent, never stale', () => {
    expect(run.result.stats.complete).toBe(true);
    expect(run.result.stats.distinct).toBe(7188);
    expect(run.result.stats.depth).toBe(53);
    expect(run.alphabet.map((m) => m.label)).toEqual([
      'drift File[/etc/nginx/nginx.conf] content=worker_processes 1; # quick fix by hand',
      'drift Service[nginx] ensure=stopped',
      'drift Package[nginx] ensure=absent',
    ]);
    const { 'skips-a-dependent': _noFailures, ...proved } = PROVED;
    expect(statuses(run)).toEqual({ ...proved, 'no-stale-service': 'holds' });
    expect(run.promises).toContain('converges');
    expect(verdict(run, 'converges').settleMs).toBe(3_600_200);
    expect(verdict(run, 'no-stale-service').settleMs).toBe(1_802_100);
    expect(run.counterexamples).toEqual([]);
  });
});

describe('bad check scenarios are rejected, naming file, field and expectation', () => {
  const doc = {
    loop: 'puppet',
    agent: { runinterval: '30m' },
    timings: { installJitter: '0s' },
    repo: { nginx: { versions: ['1.0'], service: 'nginx' } },
    catalog: [{ package: 'nginx' }, { service: 'nginx', ensure: 'running', require: 'Package[nginx]' }],
  };
  const rejection = (over: object) => {
    try {
      puppetCheck.validate(parsePuppetScenario('bad.yaml', 'bad', { ...doc, ...over }));
      return '';
    } catch (e) {
      return e instanceof InputError ? e.message : `not an InputError: ${String(e)}`;
    }
  };
  const drift = (i: number) => ({ at: '1m', drift: { resource: 'Service[nginx]', ensure: i % 2 ? 'stopped' : 'running' } });

  it.each([
    [{}, ''],
    [{ agent: { splay: true } }, 'bad.yaml: agent.splay: expected false for check'],
    [{ timings: {} }, 'bad.yaml: timings.installJitter: expected 0s for check'],
    [{ timeline: Array.from({ length: 9 }, (_, i) => drift(i)) }, 'bad.yaml: timeline: expected at most 8 entries for check'],
    [
      { timeline: [{ at: '1m', agent: { noop: true } }] },
      'bad.yaml: timeline[0]: expected drift, failInstall, publish or catalog for check, got agent',
    ],
    [
      { timeline: [drift(0), { at: '1m', run: true }] },
      'bad.yaml: timeline[1]: expected drift, failInstall, publish or catalog for check, got run',
    ],
    [
      { timeline: [{ at: '1m', failInstall: { package: 'nginx', times: 4 } }] },
      'bad.yaml: timeline[0].failInstall.times: expected at most 3 (or always) for check, got 4',
    ],
  ])('%j → %s', (over, message) => {
    const got = rejection(over);
    if (message === '') expect(got).toBe('');
    else expect(got.startsWith(message)).toBe(true);
  });

  it('loopscope check exits 2 on one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-puppet-check-'));
    const file = join(dir, 'puppet-bad.yaml');
    writeFileSync(file, JSON.stringify({ ...doc, agent: { splay: true } }));
    let status = 0;
    let stderr = '';
    try {
      execFileSync('./cli/loopscope', ['check', file], { stdio: 'pipe' });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = String((e as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toContain('agent.splay: expected false for check');
  }, 60_000);
});
