// The shipped example of a user's controller module (examples/podservice): the explorer finds the
// planted bug with its shortest trace, proves the fixed module on the same bounds, and the module
// runs through `loopscope sim` / `check` like a built-in controller.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { checkFile, movesOf } from '../check/check-file';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'cli/loopscope');

describe('a user controller module under the explorer (examples/podservice)', () => {
  it('the planted bug (generateName + a stale Pod cache) is found with its shortest trace', () => {
    const { run, verdicts } = checkFile('examples/podservice/check-buggy.yaml');
    expect(run.result.stats.complete).toBe(true);
    // The second pod also outlives the run: the differential oracle sees a world the same desired
    // state does not reach from the start (one pod) — the same bug, seen by a second oracle.
    expect(verdicts).toEqual({
      'no-crash': 'holds',
      'no-orphans': 'holds',
      idempotent: 'holds',
      differential: 'violated',
      'cleanup-before-finalizer': 'holds',
      'one-pod': 'violated',
      converges: 'holds',
      'has-service': 'holds',
    });
    expect([...run.promises].sort()).toEqual([
      'converges',
      'differential',
      'has-service',
      'idempotent',
      'no-crash',
      'no-orphans',
      'one-pod',
    ]);
    const c = run.counterexamples.find((x) => x.property === 'one-pod')!;
    expect({ steps: c.path.length, moves: movesOf(run, c.path) }).toEqual({ steps: 11, moves: ['stale cache: Pod watch +3s for 5s'] });
    expect(c.trace.frames.at(-1)?.note).toContain('✗ one-pod');
  }, 120_000);

  it('the fixed module (a deterministic pod name) holds on the same bounds', () => {
    const { run, verdicts } = checkFile('examples/podservice/check.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(Object.values(verdicts).every((v) => v === 'holds')).toBe(true);
    expect(run.result.stats.distinct).toBe(284);
  }, 120_000);

  it('same seed, same trace (the module is deterministic in its sandbox)', () => {
    const { runner: a, scenario } = runnerFor('examples/podservice/check.yaml');
    const { runner: b } = runnerFor('examples/podservice/check.yaml');
    a.run(scenario.durationMs);
    b.run(scenario.durationMs);
    expect(JSON.stringify(a.trace())).toBe(JSON.stringify(b.trace()));
    expect(a.trace().frames.some((f) => f.note?.includes('create Pod web-pod'))).toBe(true);
  });

  it('a crashing module is a finding of no-crash, reported by check with its trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-crash-'));
    writeFileSync(
      join(dir, 'crash.ts'),
      `export const controller = { for: 'PodService', owns: ['Pod'] };
      export function reconcile(req, client) { const ps = client.get('PodService', req); return ps.spec.template.labels; }`,
    );
    writeFileSync(
      join(dir, 'crash.yaml'),
      `loop: kubernetes\nduration: 10s\ncontroller: { module: ./crash.ts }\nobjects:\n  - { kind: PodService, metadata: { name: web }, spec: { image: nginx, port: 80 } }\n`,
    );
    const r = spawnSync(CLI, ['check', '--max-states', '300', join(dir, 'crash.yaml')], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ always\s+no-crash/);
    expect(r.stdout).toContain("panic: TypeError: Cannot read properties of undefined (reading 'labels')");
  }, 120_000);

  it('a missing module: exit 2, one line naming the scenario field, no stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-missing-'));
    writeFileSync(join(dir, 's.yaml'), 'loop: kubernetes\ncontroller: { module: ./nope.ts }\n');
    const r = spawnSync(CLI, ['sim', join(dir, 's.yaml')], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/s\.yaml.*controller\.module.*cannot read/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  }, 60_000);
});
