/**
 * Fingerprint mode on disk: `loopscope check` end to end (a fresh process each, peak RSS from GNU
 * time's %M, the kernel's high-water mark) on the bench's large HPA configuration, in memory vs
 * with the frontier spilled (--spill) and checkpoints (--checkpoint, every level: the worst case)
 * — the same counts, and what the disk costs. `--huge` adds the 10⁷-state search: the large
 * configuration with two more moves (13; 11 stop short of 10⁷), bounded at 10⁷ distinct states,
 * spilled and checkpointed every 5 minutes; goal: under 8 GiB peak RSS. It takes many minutes, so
 * it runs only with --huge (and then alone): last in `npm run bench`, or alone with npm run bench -- huge.
 * Run: npx tsx bench/fingerprint.ts [--huge]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LARGE_MOVES, largeScenario } from './large-scenario';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const GOAL = 8 * GiB;
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

interface Stats {
  distinct: number;
  generated: number;
  depth: number;
  complete: boolean;
  peakRssBytes: number;
  tableBytes: number;
  fingerprint: { collisionProbability: number };
}

function check(file: string, args: string[]): { wall: number; cpu: number; maxRss: number; stats: Stats; verdicts: string[] } {
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %U %S %M',
      process.execPath,
      '--import',
      'tsx',
      resolve('cli/main.ts'),
      'check',
      file,
      '--format',
      'json',
      '--no-progress',
      ...args,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  if (!r.stdout) throw new Error(`check failed: ${r.stderr}`);
  // check --format json's shape (sim/check/json.ts), the fields read here
  const run = (JSON.parse(r.stdout) as { runs: { stats: Stats; verdicts: { property: string; status: string; path?: string[] }[] }[] })
    .runs[0]!;
  return {
    wall: wall!,
    cpu: user! + sys!,
    maxRss: kb! * 1024,
    stats: run.stats,
    verdicts: run.verdicts.map((v) => `${v.property}:${v.status}:${v.path?.length ?? '-'}`),
  };
}

const huge = process.argv.includes('--huge');
const row = (label: string, mode: string, r: ReturnType<typeof check>, baseline: number, extra = '') =>
  console.log(
    `| ${label} | ${mode} | ${fmt(r.stats.distinct)}${r.stats.complete ? '' : ' (bounded)'} | ${fmt(r.stats.generated)} | ${r.stats.depth} | ${fmt(r.wall, 1)} s | ${fmt(r.cpu, 1)} s | ${fmt(r.maxRss / MiB)} MiB | ${fmt(r.maxRss / r.stats.distinct)} B | ${r.stats.fingerprint.collisionProbability.toExponential(1)} | ${fmt(baseline / r.wall, 2)}× | ${extra} |`,
  );

console.log(
  '\n## Fingerprint mode: the frontier on disk and checkpoints (loopscope check end to end, one process each; HPA, fixed policy)\n',
);
console.log(
  "| size | mode | distinct | generated | depth | wall | CPU | peak RSS | RSS/state | collision probability (TLC's optimistic) | vs in memory (wall) | notes |",
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
const work = mkdtempSync(join(tmpdir(), 'bench-fingerprint-'));
try {
  if (!huge) {
    const large = largeScenario();
    const bound = ['--max-states', '200000'];
    const memory = check(large, bound);
    row('2·10⁵ (max 4, 11 moves)', 'in memory', memory, memory.wall);
    const spilled = check(large, [...bound, '--spill', join(work, 'spill')]);
    row(
      '2·10⁵ (max 4, 11 moves)',
      '--spill',
      spilled,
      memory.wall,
      spilled.verdicts.join() === memory.verdicts.join() && spilled.stats.distinct === memory.stats.distinct
        ? 'same verdicts and counts'
        : 'DIFFERENT RESULT',
    );
    const ckDir = join(work, 'checkpoint');
    const checkpointed = check(large, [...bound, '--spill', join(work, 'spill'), '--checkpoint', ckDir, '--checkpoint-every', '0s']);
    row(
      '2·10⁵ (max 4, 11 moves)',
      '--spill --checkpoint (every level)',
      checkpointed,
      memory.wall,
      `${checkpointed.verdicts.join() === memory.verdicts.join() ? 'same verdicts' : 'DIFFERENT RESULT'}; checkpoint ${fmt(statSync(join(ckDir, 'checkpoint.lsc')).size / MiB)} MiB`,
    );
    console.log('\n(the 10⁷-state case comes last in npm run bench; alone: npm run bench -- huge; it takes many minutes)');
  } else {
    const file = largeScenario('hpa-bench-huge', [...LARGE_MOVES, 'demand: 700MB', 'slowApi: { factor: 3, for: 60s }']);
    const dir = join(work, 'huge-checkpoint');
    const r = check(file, ['--max-states', '10000000', '--spill', join(work, 'spill'), '--checkpoint', dir, '--checkpoint-every', '5m']);
    row(
      '10⁷ (max 4, 13 moves)',
      '--spill --checkpoint (every 5 min)',
      r,
      r.wall,
      `peak RSS ${r.maxRss < GOAL ? 'under' : 'OVER'} the 8 GiB goal (${fmt(r.maxRss / GiB, 2)} GiB); search tables ${fmt(r.stats.tableBytes / MiB)} MiB; ${existsSync(join(dir, 'checkpoint.lsc')) ? `last checkpoint ${fmt(statSync(join(dir, 'checkpoint.lsc')).size / MiB)} MiB` : 'no checkpoint written'}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(
  "\nPeak RSS: GNU time's maximum resident set size of the check process. Wall and CPU include process start; the machine is shared, compare ratios within one run.",
);
