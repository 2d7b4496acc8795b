// `loopscope check --checkpoint DIR` as a real process, SIGKILLed once its first checkpoint is on
// disk, then run again on DIR: it says it resumed and reports what an uninterrupted search reports.
// And a DIR holding another search's checkpoint is refused in one line, the checkpoint untouched.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { checkpointPath } from '../../sim/check/checkpoint';
import { runOutcome } from '../../sim/check/outcome';
import { loadScenario } from '../../sim/loops';

const ROOT = resolve(import.meta.dirname, '../..');
const TMP = mkdtempSync(join(tmpdir(), 'loopscope-checkpoint-kill-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));

// Big enough to take seconds (the bench's ~10⁵-state configuration, bounded), small enough for a test.
const BIG = 'bench/scenarios/hpa-bench-medium.yaml';
const BOUND = 40_000;
const args = (dir: string) => [
  'check',
  BIG,
  '--max-states',
  String(BOUND),
  '--checkpoint',
  dir,
  '--checkpoint-every',
  '0s',
  '--format',
  'json',
  '--no-progress',
];

/** Resolves once `file` exists (its directory is watched: a checkpoint arrives by a rename). */
function appears(dir: string, file: string): Promise<void> {
  return new Promise((done) => {
    const watcher = watch(dir, () => {
      if (existsSync(file)) {
        watcher.close();
        done();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      done();
    }
  });
}

interface Json {
  runs: {
    outcome: string;
    stats: { distinct: number; generated: number; depth: number; resumedFrom?: { depth: number } };
    verdicts: { property: string; status: string; path?: string[] }[];
  }[];
}

describe('check --checkpoint survives kill -9', () => {
  it('resumed after SIGKILL: the same counts, verdicts and shortest counterexamples as an uninterrupted search', async () => {
    const dir = join(TMP, 'killed');
    const child = spawn(join(ROOT, 'cli/loopscope'), args(dir), { cwd: ROOT, env: childEnv, stdio: 'ignore' });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    );
    // The directory is made by the CLI before the search: wait for it, then for the checkpoint.
    await new Promise<void>((done) => {
      const w = watch(TMP, () => {
        if (existsSync(dir)) {
          w.close();
          done();
        }
      });
      if (existsSync(dir)) {
        w.close();
        done();
      }
    });
    await appears(dir, checkpointPath(dir));
    process.kill(child.pid!, 'SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' }); // killed mid-search, not finished

    const again = spawnSync(join(ROOT, 'cli/loopscope'), args(dir), { cwd: ROOT, env: childEnv, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(again.stderr).toMatch(/^loopscope: resumed from level \d+, \d+ states/m);
    const resumed = (JSON.parse(again.stdout) as Json).runs[0]!; // check --format json's shape (sim/check/json.ts), the fields read here
    expect(resumed.stats.resumedFrom?.depth).toBeGreaterThan(0);

    const { entry, scenario } = loadScenario(BIG);
    const whole = checkScenario(entry, scenario, { maxStates: BOUND });
    expect(whole.result.stats.distinct).toBe(BOUND); // the bound is reached: the search took its while
    const label = (s: { kind: string; index?: number }) => (s.kind === 'tick' ? 'tick' : whole.alphabet[s.index!]!.label);
    expect({
      distinct: resumed.stats.distinct,
      generated: resumed.stats.generated,
      depth: resumed.stats.depth,
      outcome: resumed.outcome,
    }).toEqual({
      distinct: whole.result.stats.distinct,
      generated: whole.result.stats.generated,
      depth: whole.result.stats.depth,
      outcome: runOutcome(whole),
    });
    expect(resumed.verdicts.map((v) => [v.property, v.status, v.path])).toEqual(
      whole.result.verdicts.map((v) => [v.property.name, v.status, v.path?.map(label)]),
    );
  }, 300_000);

  it('a checkpoint of another scenario is refused in one line, and left as it was', () => {
    const dir = join(TMP, 'other');
    const first = spawnSync(
      join(ROOT, 'cli/loopscope'),
      ['check', 'scenarios/incus-hpa-check-small.yaml', '--checkpoint', dir, '--checkpoint-every', '0s', '--no-progress'],
      { cwd: ROOT, env: childEnv, encoding: 'utf8' },
    );
    expect(first.stderr).not.toMatch(/resumed/);
    const before = readFileSync(checkpointPath(dir));
    const mtime = statSync(checkpointPath(dir)).mtimeMs;
    const other = spawnSync(
      join(ROOT, 'cli/loopscope'),
      ['check', 'scenarios/incus-hpa-check-flapping.yaml', '--checkpoint', dir, '--no-progress'],
      { cwd: ROOT, env: childEnv, encoding: 'utf8' },
    );
    expect(other.status).toBe(2);
    expect(other.stdout).toBe('');
    expect(other.stderr.trim().split('\n')).toHaveLength(1);
    expect(other.stderr).toMatch(/--checkpoint: .*checkpoint\.lsc is a checkpoint of another scenario or other options/);
    expect(readFileSync(checkpointPath(dir)).equals(before)).toBe(true);
    expect(statSync(checkpointPath(dir)).mtimeMs).toBe(mtime);
    // The same scenario with other options is another search too.
    const bounded = spawnSync(
      join(ROOT, 'cli/loopscope'),
      ['check', 'scenarios/incus-hpa-check-small.yaml', '--checkpoint', dir, '--depth', '3', '--no-progress'],
      { cwd: ROOT, env: childEnv, encoding: 'utf8' },
    );
    expect(bounded.status).toBe(2);
  }, 120_000);

  it('--checkpoint and --spill search in one thread: more workers are refused in one line', () => {
    const r = spawnSync(
      join(ROOT, 'cli/loopscope'),
      ['check', 'scenarios/incus-hpa-check-small.yaml', '--spill', join(TMP, 'spill'), '--workers', '2'],
      { cwd: ROOT, env: childEnv, encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^loopscope: --workers: --spill is not supported by the parallel search/);
  }, 60_000);
});
