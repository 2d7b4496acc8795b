// `loopscope swarm` as CI and a Kubernetes Indexed Job run it: three real processes of the CLI,
// each with JOB_COMPLETION_INDEX set as the Job sets it in its pods, split the seeds; `swarm merge`
// takes their shard files, and rejects a shard missing or given twice. Bad input: one line, exit 2.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readShard } from '../../sim/swarm/result-file';
import type { SeedRange } from '../../sim/swarm/seeds';
import { parseShard, seedsOf, shardSeeds } from '../../sim/swarm/seeds';
import { strategyOf } from '../../sim/swarm/swarm';
import { parseTraceText } from '../../sim/trace-schema';
import { propertyRuns } from '../property-runs';
import type { CliResult } from '../cli/in-process';
import { runInProcess } from '../cli/in-process';

const ROOT = resolve(import.meta.dirname, '../..');
const SCENARIO = 'scenarios/terraform-check-orphan-name.yaml';
const TMP = mkdtempSync(join(tmpdir(), 'loopscope-swarm-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

// Child processes must not inherit this vitest's worker variables (a nested vitest would read them).
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'JOB_COMPLETION_INDEX'),
);

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(
      join(ROOT, 'cli/loopscope'),
      ['swarm', ...args],
      { cwd: ROOT, encoding: 'utf8', env: { ...childEnv, NO_COLOR: '1', ...extraEnv }, maxBuffer: 16 << 20 },
      (_e, stdout, stderr) => {
        done({ code: child.exitCode, stdout, stderr });
      },
    );
  });
}

describe('shards split the seed range exactly once', () => {
  it('for any range and shard count, the shards are consecutive blocks covering every seed once', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 50 }), (from, size, count) => {
        const range: SeedRange = { from, to: from + size - 1 };
        const all = Array.from({ length: count }, (_, index) => seedsOf(shardSeeds(range, { index, count }))).flat();
        expect(all).toEqual(seedsOf(range));
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('--shard: i/n, /n from JOB_COMPLETION_INDEX, and both only when they agree', () => {
    expect(parseShard('1/3', undefined)).toEqual({ index: 1, count: 3 });
    expect(parseShard('/3', '2')).toEqual({ index: 2, count: 3 });
    expect(parseShard('2/3', '2')).toEqual({ index: 2, count: 3 });
    expect(parseShard('1/3', '2')).toMatch(/is not JOB_COMPLETION_INDEX=2/);
    expect(parseShard('/3', undefined)).toMatch(/JOB_COMPLETION_INDEX, which is not set/);
    expect(parseShard('/3', '3')).toMatch(/below 3, got 3 \(JOB_COMPLETION_INDEX\)/);
  });
});

describe('three processes with JOB_COMPLETION_INDEX, then swarm merge', () => {
  const out = join(TMP, 'job');
  const shards = Promise.all(
    [0, 1, 2].map((i) => cli([SCENARIO, '--seeds', '0..29', '--shard', '/3', '--out', out], { JOB_COMPLETION_INDEX: String(i) })),
  );

  it('each process runs its block; together every seed once, each with its strategy', async () => {
    const results = await shards;
    results.forEach((r, i) => {
      expect(r.stderr).toBe('');
      expect(r.code, r.stdout).toBe(1); // converges is promised and violated
      expect(r.stdout).toContain(`shard ${i}/3`);
    });
    const files = readdirSync(out)
      .filter((f) => f.startsWith('swarm-'))
      .sort();
    expect(files).toEqual([0, 1, 2].map((i) => `swarm-terraform-check-orphan-name-shard-${i}-of-3.json`));
    const seeds = files.flatMap((f) => readShard(join(out, f)).seeds);
    expect(seeds.map((s) => s.seed).sort((a, b) => a - b)).toEqual(seedsOf({ from: 0, to: 29 }));
    for (const s of seeds) expect(s.strategy).toBe(strategyOf('rotate', s.seed));
    expect(readShard(join(out, files[1]!)).seeds.map((s) => s.seed)).toEqual(seedsOf({ from: 10, to: 19 }));
  }, 120_000);

  it('the counterexample traces are traces the lab loads, marked where the claim breaks', async () => {
    await shards;
    const shard = readShard(join(out, 'swarm-terraform-check-orphan-name-shard-0-of-3.json'));
    expect(shard.violations.map((v) => v.property)).toContain('converges');
    for (const v of shard.violations) {
      const parsed = parseTraceText(readFileSync(join(out, v.trace), 'utf8'));
      if (!parsed.ok) throw new Error(`${v.trace}: ${parsed.error}`);
      expect(parsed.trace.frames.some((f) => f.note?.includes(`✗ ${v.property}`))).toBe(true);
    }
  }, 120_000);

  it('merge: the range covered once, the shortest counterexample per property, exit 1 (a promised one is violated)', async () => {
    await shards;
    const r = await cli(['merge', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^# swarm merge terraform-check-orphan-name · 3 shards$/m);
    expect(r.stdout).toMatch(/^seeds: 0\.\.29, each in one shard · 30 of 30 run$/m);
    expect(r.stdout).toMatch(/^✗ eventually converges +1 steps .*\(promised\)$/m);
    const merged = [0, 1, 2].map((i) => readShard(join(out, `swarm-terraform-check-orphan-name-shard-${i}-of-3.json`)));
    const shortest = Math.min(...merged.flatMap((s) => s.violations.filter((v) => v.property === 'no-orphans').map((v) => v.length)));
    expect(r.stdout).toMatch(new RegExp(`^✗ eventually no-orphans +${shortest} steps .*\\(not promised\\)$`, 'm'));
    expect(r.stdout).toMatch(/^result: a promised property is violated .* · exit 1$/m);
  }, 120_000);

  it('merge rejects a missing shard and a shard given twice, in one line, exit 2', async () => {
    await shards;
    const missing = join(TMP, 'missing');
    const twice = join(TMP, 'twice');
    mkdirSync(missing);
    mkdirSync(twice);
    for (const i of [0, 2])
      copyFileSync(
        join(out, `swarm-terraform-check-orphan-name-shard-${i}-of-3.json`),
        join(missing, `swarm-terraform-check-orphan-name-shard-${i}-of-3.json`),
      );
    copyFileSync(
      join(out, 'swarm-terraform-check-orphan-name-shard-0-of-3.json'),
      join(twice, 'swarm-terraform-check-orphan-name-shard-0-of-3.json'),
    );
    const [m, t] = await Promise.all([cli(['merge', missing]), cli(['merge', out, twice])]);
    expect(m.code).toBe(2);
    expect(m.stdout).toBe('');
    expect(m.stderr.trimEnd()).toBe('loopscope: swarm merge: shard 1 of 3 missing: seeds 10..19 not covered');
    expect(t.code).toBe(2);
    expect(t.stderr.trimEnd()).toMatch(
      /^loopscope: swarm merge: shard 0\/3 given twice \(.*shard-0-of-3\.json and .*shard-0-of-3\.json\): its seeds would count twice$/,
    );
  }, 120_000);
});

describe('bad input: one line naming the option or file, exit 2, nothing written', () => {
  const notShard = join(TMP, 'not-a-shard.json');
  writeFileSync(notShard, '{"kind":"something else"}\n');
  const cases: [string[], Record<string, string>, RegExp][] = [
    [[SCENARIO, '--seeds', '9..2'], {}, /^loopscope: --seeds: expected A\.\.B with A ≤ B, got "9\.\.2"$/],
    [[SCENARIO, '--seeds', 'many'], {}, /^loopscope: --seeds: expected A\.\.B .* or a count N ≥ 1 .*, got "many"$/],
    [[SCENARIO, '--shard', '3/3'], {}, /^loopscope: --shard: expected an index below 3, got 3$/],
    [
      [SCENARIO, '--shard', '/3'],
      {},
      /^loopscope: --shard: "\/3" leaves the shard's index to JOB_COMPLETION_INDEX, which is not set: give i\/n$/,
    ],
    [[SCENARIO, '--shard', '1/3'], { JOB_COMPLETION_INDEX: '2' }, /^loopscope: --shard: shard 1 of "1\/3" is not JOB_COMPLETION_INDEX=2$/],
    [[SCENARIO, '--strategy', 'bfs'], {}, /^loopscope: --strategy: expected one of random-walk, dfs, pct, all, got "bfs"/],
    [[SCENARIO, '--time-limit', 'soon'], {}, /^loopscope: --time-limit: expected a duration such as 90s or 5m, got "soon"$/],
    [[SCENARIO, '--policy', 'nope'], {}, /^loopscope: --policy: expected no --policy: loop terraform has no policies$/],
    [['scenarios/no-such-file.yaml'], {}, /^loopscope: scenarios\/no-such-file\.yaml: /],
    [
      ['merge', join(TMP, 'no-such-dir')],
      {},
      /^loopscope: .*no-such-dir: expected a directory of swarm shard files or a shard file \(ENOENT\)$/,
    ],
    [['merge', notShard], {}, /^loopscope: .*not-a-shard\.json: kind: expected a swarm shard file \(loopscope-swarm-shard version 1\): /],
    [
      ['merge', TMP],
      {},
      /^loopscope: swarm merge: expected shard files \(swarm-\*-shard-\*-of-\*\.json\) in the directories given, found none$/,
    ],
  ];
  // In this process (test/cli/in-process.ts): a process each would cost seconds of tsx start-up apiece.
  it('each case', async () => {
    for (const [args, env, message] of cases) {
      const saved = process.env.JOB_COMPLETION_INDEX;
      if (env.JOB_COMPLETION_INDEX === undefined) delete process.env.JOB_COMPLETION_INDEX;
      else process.env.JOB_COMPLETION_INDEX = env.JOB_COMPLETION_INDEX;
      let r: CliResult;
      try {
        r = await runInProcess(['swarm', ...args]);
      } finally {
        if (saved === undefined) delete process.env.JOB_COMPLETION_INDEX;
        else process.env.JOB_COMPLETION_INDEX = saved;
      }
      const what = args.join(' ');
      expect(r.code, what).toBe(2);
      expect(r.stdout, what).toBe('');
      expect(r.stderr.trimEnd(), what).toMatch(message);
      expect(r.stderr.trim().split('\n'), what).toHaveLength(1);
    }
  }, 120_000);
});
