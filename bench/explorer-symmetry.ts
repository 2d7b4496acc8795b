/**
 * Symmetry reduction on every check scenario (and the HPA bench configurations), each search in
 * its own process: distinct states with the reduction on and off (the factor), and the ceiling —
 * the loop's key with every generated name erased (test/check/symmetry-ceiling.ts), the most any
 * renaming of names could merge, NOT sound — with whether its verdicts would still agree.
 * Run: npx tsx bench/explorer-symmetry.ts [scenario files…]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

interface Row {
  loop: string;
  scenario: string;
  distinct: number;
  complete: boolean;
  ms: number;
  symmetry: string;
  verdicts: string[];
}

const given = process.argv.slice(2);
const files = given.length
  ? given
  : [
      ...readdirSync('scenarios')
        .filter((f) => /-check-.*\.yaml$/.test(f))
        .sort()
        .map((f) => `scenarios/${f}`),
      'bench/scenarios/hpa-bench-small.yaml',
      'bench/scenarios/hpa-bench-medium.yaml',
    ];
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const run = (file: string, flag?: string): Row =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/explorer-case.ts', file, ...(flag ? [flag] : [])], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .trim()
      .split('\n')
      .at(-1)!,
  ) as Row;

console.log('\n## Symmetry reduction: distinct states on / off, and the ceiling of any name symmetry (one process each)\n');
console.log(
  '| loop | scenario | symmetry | distinct (off) | distinct (on) | factor | time off | time on | ceiling (unsound) | ceiling factor | ceiling verdicts |',
);
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const file of files) {
  const off = run(file, '--no-symmetry');
  const on = run(file);
  const same = (a: Row, b: Row) => a.verdicts.join() === b.verdicts.join();
  if (!same(on, off)) process.exitCode = 1; // the default must not change a verdict or a shortest length
  const ceiling = /^scenarios\/(kubernetes|incus-hpa)-|^bench\//.test(file) ? run(file, '--ceiling') : undefined;
  console.log(
    `| ${on.loop} | ${on.scenario} | ${on.symmetry} | ${fmt(off.distinct)} | ${fmt(on.distinct)}${same(on, off) ? '' : ' VERDICTS DIFFER'} | ${fmt(off.distinct / on.distinct, 2)} | ${fmt(off.ms / 1000, 2)} s | ${fmt(on.ms / 1000, 2)} s | ` +
      `${ceiling ? fmt(ceiling.distinct) : '–'} | ${ceiling ? fmt(off.distinct / ceiling.distinct, 2) : '–'} | ${ceiling ? (same(ceiling, off) ? 'equal' : 'differ') : '–'} |`,
  );
}
console.log(
  '\nsymmetry "none": the loop declares no interchangeable objects and says why (sim/properties/<loop>.ts), so on = off. The ceiling erases generated names (Kubernetes pod suffixes, the HPA\'s created instances): an upper bound on any reduction by renaming them.',
);
