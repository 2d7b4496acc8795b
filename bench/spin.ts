/**
 * Time-to-verdict against SPIN on the same HPA configuration: `loopscope check` on
 * bench/scenarios/hpa-bench-medium.yaml vs SPIN end to end (spin -a, cc, ./pan) on the hand-written
 * bench/spin/hpa-bench.pml, both timed in this run (wall and CPU: other processes load the
 * machine, CPU time is the steadier figure). Both must find the three invariants holding.
 * Run: npx tsx bench/spin.ts [workers]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compiledCli, sourceCli } from './compiled-cli';

const INVARIANTS = ['never-touches-unowned', 'at-most-max', 'one-operation-at-a-time'];
const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** Runs a shell command under bash's `time`: wall, user+sys CPU (children included), stdout. */
function timed(command: string, cwd: string, timeFile: string): { wall: number; cpu: number; stdout: string; status: number } {
  const r = spawnSync(
    'bash',
    ['-c', `TIMEFORMAT='%R %U %S'; { time ( ${command} ) ; } 2> "${timeFile}"; echo "exit=$?"; tail -n 1 "${timeFile}"`],
    { cwd, encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const lines = r.stdout.trim().split('\n');
  const [wall, user, sys] = lines.at(-1)!.split(' ').map(Number);
  const status = Number(lines.at(-2)!.replace('exit=', ''));
  return { wall: wall!, cpu: user! + sys!, stdout: lines.slice(0, -2).join('\n'), status };
}

const installed = spawnSync('sh', ['-c', 'command -v spin && command -v cc'], { encoding: 'utf8' }).status === 0;

/** The two sizes: the Promela model's moves match the scenario's (MID_DEMAND adds `demand: 1500MB`). */
const SIZES = [
  { label: '~10⁵', scenario: 'bench/scenarios/hpa-bench-medium.yaml', defines: '' },
  { label: '~10⁶', scenario: 'bench/scenarios/hpa-bench-1e6.yaml', defines: '-DMID_DEMAND' },
];

if (!installed) {
  console.log('\n## Time to verdict: loopscope check vs SPIN\n');
  console.log('spin is not installed (apt-get install spin, or .ci/setup-tools.sh): no SPIN comparison.');
} else {
  // Built once (as the package ships it) for both sizes.
  const compiled = await compiledCli();
  for (const size of SIZES) compare(size, compiled);
}

function compare(size: (typeof SIZES)[number], compiled: string[]): void {
  console.log(`\n## Time to verdict: loopscope check vs SPIN (bench HPA configuration, ${size.label} loopscope states)\n`);
  const dir = mkdtempSync(join(tmpdir(), 'loopscope-spin-'));
  try {
    const workers = process.argv[2] ?? '1';
    const model = resolve('bench/spin/hpa-bench.pml');
    const spin = timed(
      `spin ${size.defines} -a ${model} >/dev/null && cc -O2 -DSAFETY -o pan pan.c && ./pan -m100000`,
      dir,
      join(dir, 'time-spin.txt'),
    );
    const spinStates = Number(/(\d+) states, stored/.exec(spin.stdout)?.[1] ?? NaN);
    const spinErrors = Number(/errors: (\d+)/.exec(spin.stdout)?.[1] ?? NaN);
    console.log('| tool | states | wall | CPU | invariants | wall ratio | CPU ratio |');
    console.log('|---|---:|---:|---:|---|---:|---:|');
    console.log(
      `| SPIN 6.5 (spin -a + cc + pan) | ${spinStates.toLocaleString('en-US')} | ${fmt(spin.wall)} s | ${fmt(spin.cpu)} s | ${spinErrors === 0 ? 'all hold' : `${spinErrors} errors`} | 1.0× | 1.0× |`,
    );
    let same = spinErrors === 0;
    // The compiled CLI (as the package ships it) and the clone's tsx one: the difference is start-up.
    for (const [name, cli] of [
      ['compiled', compiled],
      ['tsx, from the clone', sourceCli()],
    ] as const) {
      // Not a check scenario (*-check-*): an explicit bound far above its size lets the search complete.
      const command = [
        ...cli,
        'check',
        resolve(size.scenario),
        '--format',
        'json',
        '--no-progress',
        '--max-states',
        '10000000',
        '--workers',
        workers,
      ];
      const check = timed(command.map((a) => `'${a}'`).join(' '), resolve('.'), join(dir, 'time-check.txt'));
      const json = JSON.parse(check.stdout) as {
        runs: { stats: { distinct: number; complete: boolean }; verdicts: { property: string; status: string }[] }[];
      };
      const run = json.runs[0]!;
      const ours = INVARIANTS.map((p) => run.verdicts.find((v) => v.property === p)?.status);
      same &&= run.stats.complete && ours.every((s) => s === 'holds');
      console.log(
        `| loopscope check (${name}, --workers ${workers}) | ${run.stats.distinct.toLocaleString('en-US')}${run.stats.complete ? '' : ' (bounded)'} | ${fmt(check.wall)} s | ${fmt(check.cpu)} s | ${ours.join(', ')} | ${fmt(check.wall / spin.wall)}× | ${fmt(check.cpu / spin.cpu)}× |`,
      );
    }
    console.log(
      `\nsame verdicts on the invariants: ${same ? 'yes' : 'NO'} (SPIN's untimed model over-approximates the timed one: more states, same claims).`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
