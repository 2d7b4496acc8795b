// A user's Metacontroller sync hook, for real: Debian's python3 serves the shipped hooks on
// loopback; loopscope calls them as Metacontroller would. The planted bug is found with its
// shortest trace, the fixed hook holds, runs are deterministic, and a hook that is down, hangs or
// answers garbage is a clear finding while the run goes on.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { loadScenario, runnerFor } from '../../sim/loops';
import { requires } from '../prerequisites';

const withPython = await requires('python3');
const ROOT = resolve(import.meta.dirname, '../..');
const DIR = mkdtempSync(join(tmpdir(), 'loopscope-webhook-'));
const hooks: ChildProcess[] = [];

/** Starts a python3 hook on a free loopback port; resolves with its URL. */
async function startHook(script: string, ...args: string[]): Promise<string> {
  const child = spawn('python3', [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  hooks.push(child);
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}`)));
  });
  return `http://127.0.0.1:${line.trim()}/sync`;
}

/** The shipped scenario pointed at `url`, with `timeline` entries kept (by index). */
function scenarioFor(url: string, name: string, keep: number[] = [0, 1, 2], timeout = '1s'): string {
  const yaml = readFileSync(join(ROOT, 'examples/metacontroller/check.yaml'), 'utf8');
  const [head, timeline] = yaml.split(/^timeline:\n/m) as [string, string];
  const entries = timeline.split(/^(?=  - )/m).filter((e) => e.trim());
  const file = join(DIR, `${name}.yaml`);
  writeFileSync(
    file,
    `${head.replace('http://127.0.0.1:8731/sync', url).replace('  sync:', `  timeout: ${timeout}\n  sync:`)}${keep.length ? `timeline:\n${keep.map((i) => entries[i]).join('')}` : 'timeline: []\n'}`,
  );
  return file;
}

let fixedUrl = '';
let buggyUrl = '';

/** Bounded: a hook that keeps failing keeps the workqueue's failure count growing (no fixed point). */
const verdictsOf = (file: string) => {
  const { entry, scenario } = loadScenario(file);
  const run = checkScenario(entry, scenario, { maxStates: 5000 });
  return { run, verdicts: Object.fromEntries(run.result.verdicts.map((v) => [v.property.name, v.status])) };
};

// The hooks start inside the gated suite: without python3 nothing is spawned.
withPython.describe('a Metacontroller webhook (python3 on loopback) under the explorer', () => {
  beforeAll(async () => {
    [fixedUrl, buggyUrl] = await Promise.all([
      startHook('examples/metacontroller/sync.py', '0'),
      startHook('examples/metacontroller/buggy_sync.py', '0'),
    ]);
  }, 30_000);
  afterAll(() => {
    for (const h of hooks) h.kill();
  });

  it('the planted bug (spec.host indexed, KeyError → HTTP 500) is found with its shortest trace', () => {
    const { run, verdicts } = verdictsOf(scenarioFor(buggyUrl, 'buggy', [0]));
    expect(verdicts['no-crash']).toBe('violated');
    const c = run.counterexamples.find((x) => x.property === 'no-crash')!;
    expect(c.path.length).toBeLessThanOrEqual(12);
    expect(run.alphabet[c.path.find((s) => s.kind === 'env')!.index!]!.label).toMatch(/^kubectl apply podservice\/web/);
    expect(JSON.stringify(c.trace)).toContain("answered HTTP 500: KeyError: 'host'");
  }, 120_000);

  it('the fixed hook holds on the same bounds', () => {
    const { run, verdicts } = verdictsOf(scenarioFor(fixedUrl, 'fixed', [0]));
    expect(run.result.stats.complete).toBe(true);
    // The host removed from the spec at any instant: the hook's default host makes every history end alike (differential).
    expect(verdicts).toEqual({
      'no-crash': 'holds',
      'no-orphans': 'holds',
      idempotent: 'holds',
      differential: 'holds',
      'cleanup-before-finalizer': 'holds',
      'one-pod': 'holds',
      converges: 'holds',
      'has-service': 'holds',
    });
  }, 120_000);

  it('same seed, byte-identical trace with a webhook', () => {
    const file = scenarioFor(fixedUrl, 'determinism');
    const traces = [0, 1].map(() => {
      const { runner, scenario } = runnerFor(file);
      runner.run(scenario.durationMs);
      return JSON.stringify(runner.trace());
    });
    expect(traces[0]).toBe(traces[1]);
    expect(traces[0]).toContain('sync hook → 3 desired children');
  }, 60_000);

  it('a hook that is down, hangs or answers garbage: a one-line finding, and the run goes on', async () => {
    const cases: [string, string, RegExp][] = [
      ['down', 'http://127.0.0.1:59998/sync', /is unreachable or too slow: ECONNREFUSED/],
      ['hang', await startHook('test/user-controller/fixtures/bad_hook.py', 'hang'), /is unreachable or too slow: timed out after 300 ms/],
      [
        'garbage',
        await startHook('test/user-controller/fixtures/bad_hook.py', 'garbage'),
        /answered something that is not JSON: <html>oops<\/html>/,
      ],
      [
        'wrong',
        await startHook('test/user-controller/fixtures/bad_hook.py', 'wrong'),
        /answered JSON that is not a sync response: children/,
      ],
    ];
    for (const [name, url, message] of cases) {
      const { runner } = runnerFor(scenarioFor(url, name, [], '300ms'));
      runner.run(20_000);
      const notes = runner.trace().frames.map((f) => f.note ?? '');
      const failures = notes.filter((n) => message.test(n));
      expect(failures.length, name).toBeGreaterThan(1); // retried with backoff: the run goes on
      expect(
        notes.every((n) => !n.includes('\n')),
        name,
      ).toBe(true);
    }
  }, 120_000);
});
