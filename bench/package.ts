/**
 * The installed package's benchmark: `npm pack` (which builds it), then the compiled CLI's start-up
 * measured against `node -e 0` in the same run, interleaved so that the machine's load falls on every
 * command alike — `--help`, `--version`, and `check` of the 2k-state check scenario end to end —
 * beside the CLI run from source (tsx) as it was before the build; and the tarball's size and files.
 * Targets: `--help` ≤ 0.25 s and `check scenarios/incus-hpa-check-small.yaml` ≤ 1.0 s.
 * Run: npx tsx bench/package.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_PACKAGE_RUNS ?? 11);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const out = mkdtempSync(join(tmpdir(), 'loopscope-bench-pack-'));
const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
) as { size: number; unpackedSize: number; entryCount: number }[];
rmSync(out, { recursive: true, force: true });
if (!packed) throw new Error('npm pack wrote no tarball');

const compiled = join(ROOT, 'dist/node/loopscope.js');
const source = join(ROOT, 'cli/loopscope');
const SMALL = 'scenarios/incus-hpa-check-small.yaml';
const commands: { name: string; argv: string[]; target?: number }[] = [
  { name: 'node -e 0 (reference)', argv: [process.execPath, '-e', '0'] },
  { name: 'loopscope --help', argv: [process.execPath, compiled, '--help'], target: 0.25 },
  { name: 'loopscope --version', argv: [process.execPath, compiled, '--version'] },
  { name: `loopscope check ${SMALL}`, argv: [process.execPath, compiled, 'check', SMALL], target: 1.0 },
  { name: 'from source (tsx): loopscope --help', argv: [source, '--help'] },
  { name: `from source (tsx): loopscope check ${SMALL}`, argv: [source, 'check', SMALL] },
];

const seconds = commands.map(() => [] as number[]);
for (let run = 0; run < RUNS; run++) {
  commands.forEach((c, i) => {
    const t0 = performance.now();
    const r = spawnSync(c.argv[0]!, c.argv.slice(1), { cwd: ROOT, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}`);
    seconds[i]!.push((performance.now() - t0) / 1000);
  });
}

const reference = median(seconds[0]!);
console.log(`\n## The package: CLI start-up, compiled, against node -e 0 (median of ${RUNS}, interleaved, same run)\n`);
console.log('| command | median | min | vs node -e 0 | target |');
console.log('|---|---:|---:|---:|---|');
commands.forEach((c, i) => {
  const m = median(seconds[i]!);
  const target = c.target === undefined ? '' : `≤ ${c.target.toFixed(2)} s: ${m <= c.target ? 'met' : 'NOT met'}`;
  console.log(`| ${c.name} | ${m.toFixed(3)} s | ${Math.min(...seconds[i]!).toFixed(3)} s | ${(m / reference).toFixed(2)}× | ${target} |`);
});
console.log(
  `\nThe tarball: ${(packed.size / 1024).toFixed(1)} KB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KB unpacked, ${packed.entryCount} files.`,
);
