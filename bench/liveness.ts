/**
 * Liveness's cost (sim/check/liveness.ts): the same exhaustive search with and without the
 * liveness properties — with them the explorer keeps every edge and looks for fair cycles
 * (Tarjan) after the search. Each run in its own process; the ratio is with / without, measured
 * in this run. Part of `npm run bench`; alone: npx tsx bench/liveness.ts
 */
import { execFileSync } from 'node:child_process';

interface Row {
  mode: string;
  distinct: number;
  generated: number;
  complete: boolean;
  ms: number;
  cpuMs: number;
  tableBytes: number;
  peakRssBytes: number;
  liveness: string[];
  others: string;
}

const CASES: [string, string][] = [
  ['scenarios/incus-hpa-check-flapping.yaml', 'seed'],
  ['bench/scenarios/incus-hpa-liveness.yaml', 'kubernetes'],
  ['bench/scenarios/incus-hpa-liveness.yaml', 'seed'],
];
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const run = (file: string, policy: string, mode: string): Row =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/liveness-case.ts', file, policy, mode], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    })
      .trim()
      .split('\n')
      .at(-1)!,
  ) as Row;

console.log('\n## Liveness (leads-to, eventually-always under weak fairness): the same search with and without it\n');
console.log(
  '| scenario | policy | distinct | edges | liveness | CPU time | with/without (CPU) | search tables | with/without (tables) | peak RSS | with/without (RSS) | liveness verdicts (prefix+cycle) | other verdicts equal |',
);
console.log('|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|');
for (const [file, policy] of CASES) {
  const without = run(file, policy, 'without');
  const withIt = run(file, policy, 'with');
  const name = file.replace(/^.*\//, '').replace(/\.yaml$/, '');
  for (const r of [without, withIt]) {
    const on = r.mode === 'with';
    console.log(
      `| ${name} | ${policy} | ${fmt(r.distinct)} | ${fmt(r.generated)} | ${on ? 'on' : 'off'} | ${fmt(r.cpuMs / 1000, 2)} s | ${on ? `${fmt(withIt.cpuMs / without.cpuMs, 2)}×` : '1.00×'} | ${fmt(r.tableBytes / r.distinct)} B/state | ${on ? `${fmt(withIt.tableBytes / without.tableBytes, 2)}×` : '1.00×'} | ${fmt(r.peakRssBytes / 1024 ** 2)} MiB | ${on ? `${fmt(withIt.peakRssBytes / without.peakRssBytes, 2)}×` : '1.00×'} | ${on ? r.liveness.join('; ') : '–'} | ${on ? (r.others === without.others && r.distinct === without.distinct ? 'yes' : 'NO') : ''} |`,
    );
  }
}
console.log(
  "\nEdges = generated successors (every one is kept with liveness on: 8 bytes each, plus 4 a state). CPU time is the process's user + system time for the search and the liveness judgement (lasso replays not included).",
);
