/**
 * Explorer benchmark: `loopscope check` end to end (a fresh process each: honest time to verdict
 * and peak RSS) on the bench HPA configurations — ~10⁴ states (bench/scenarios/hpa-bench-small.yaml)
 * and ~10⁵ (hpa-bench-medium.yaml); `large` adds ~10⁶ (max 4 pods, 11 moves, bounded at 10⁶) —
 * with the transition memo on and off, symmetry on and off, 1 and 2 workers; then SPIN (bench/spin.ts) and fast-check
 * property runs/s. Wall and CPU time both: other processes load the machine, compare ratios
 * within one run. Run: npx tsx bench/explorer.ts [small|medium|large|all]
 * Targets (what makes exhaustive checking usable interactively): ≥ 50,000 distinct states/s on one core at ~10⁴; ~10⁵ no slower than SPIN
 * end to end; 10⁶ states < 1 GB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { propertyRunsPerSecond } from '../test/check/hpa-arbitraries';
import { compiledCli } from './compiled-cli';
import { largeScenario } from './large-scenario';

const MiB = 1024 ** 2;
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

interface Stats {
  symmetry?: { state: string };
  distinct: number;
  generated: number;
  complete: boolean;
  timeMs: number;
  cpuMs: number;
  peakRssBytes: number;
  tableBytes: number;
  workers: number;
  memo?: { hits: number; misses: number };
}

const CLI = await compiledCli();

function check(file: string, args: string[]): { wall: number; cpu: number; stats: Stats; outcome: string } {
  const r = spawnSync(
    'bash',
    [
      '-c',
      `TIMEFORMAT='%R %U %S'; { time ( "$@" ) ; } 2> "$TIMEFILE"; cat "$TIMEFILE" >&2`,
      'bench',
      ...CLI,
      'check',
      file,
      '--format',
      'json',
      '--no-progress',
      ...args,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, TIMEFILE: join(mkdtempSync(join(tmpdir(), 'bench-')), 'time') } },
  );
  const [wall, user, sys] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  const json = JSON.parse(r.stdout) as { runs: { outcome: string; stats: Stats }[] };
  return { wall: wall!, cpu: user! + sys!, stats: json.runs[0]!.stats, outcome: json.runs[0]!.outcome };
}

const which = process.argv[2] ?? 'all';
const sizes: [string, string, string[]][] = [];
// The bench scenarios are not check scenarios (*-check-*.yaml), for which `check` would stop at 5,000
// states: an explicit bound far above their size lets each search complete.
const UNBOUNDED = ['--max-states', '10000000'];
if (which === 'small' || which === 'all') sizes.push(['~10⁴ (max 3, 6 moves)', resolve('bench/scenarios/hpa-bench-small.yaml'), UNBOUNDED]);
if (which === 'medium' || which === 'all')
  sizes.push(['~10⁵ (max 3, 7 moves)', resolve('bench/scenarios/hpa-bench-medium.yaml'), UNBOUNDED]);
if (which === 'large') sizes.push(['~10⁶ (max 4, 11 moves, bound 10⁶)', largeScenario(), ['--max-states', '1000000']]);

console.log('\n## The explorer: loopscope check end to end (one process each; HPA, fixed policy)\n');
console.log(
  '| size | memo | symmetry | workers | distinct | wall | CPU | distinct states/s (wall) | distinct states/s (CPU) | peak RSS | RSS/state | tables/state | memo hits | vs baseline (wall) |',
);
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [label, file, extra] of sizes) {
  let baseline = 0;
  // Symmetry off once (memo on, 1 worker): the HPA declares none (sim/properties/incus-hpa.ts), so the
  // row shows it costs nothing; bench/explorer-symmetry.ts has every loop and the ceiling of any renaming.
  for (const [memo, workers, symmetry] of [
    [false, 1, true],
    [true, 1, true],
    [true, 1, false],
    [true, 2, true],
    [false, 2, true],
  ] as const) {
    const r = check(file, [...extra, '--workers', String(workers), ...(memo ? [] : ['--no-memo']), ...(symmetry ? [] : ['--no-symmetry'])]);
    const s = r.stats;
    if (!baseline) baseline = r.wall;
    const hits = s.memo ? `${fmt((100 * s.memo.hits) / Math.max(1, s.memo.hits + s.memo.misses))}%` : '–';
    const sym = s.symmetry?.state === 'none' ? `none${symmetry ? '' : ' (--no-symmetry)'}` : symmetry ? 'on' : 'off';
    console.log(
      `| ${label} | ${memo ? 'on' : 'off'} | ${sym} | ${workers} | ${fmt(s.distinct)}${s.complete ? '' : ' (bounded)'} | ${fmt(r.wall, 1)} s | ${fmt(r.cpu, 1)} s | ${fmt(s.distinct / r.wall)} | ${fmt(s.distinct / r.cpu)} | ${fmt(s.peakRssBytes / MiB)} MiB | ${fmt(s.peakRssBytes / s.distinct)} B | ${fmt(s.tableBytes / s.distinct)} B | ${hits} | ${fmt(baseline / r.wall, 2)}× |`,
    );
  }
}
console.log(
  '\nThe compiled CLI (bundled as the package ships it: no transpiling at start). Wall and CPU include process start, module load and, for 2 workers, booting them: this is the time a user waits. Baseline: memo off, 1 worker, same size, same run.',
);

if (which === 'all' || which === 'medium') spawnSync(process.execPath, ['--import', 'tsx', 'bench/spin.ts'], { stdio: 'inherit' });
if (which === 'all' || which === 'properties') {
  const p = propertyRunsPerSecond(200);
  console.log(
    `\nproperty runs/s (fast-check, generated HPA scenarios of ${p.minutes} virtual minutes each): ${Math.round(p.perSecond)} (${p.runs} runs in ${p.seconds.toFixed(2)}s)`,
  );
}
