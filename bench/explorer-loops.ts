/**
 * The explorer on every loop's shipped check scenarios (scenarios/<loop>-check-*.yaml), each
 * variant (e.g. HPA policy) in its own process: distinct states, generated, depth, time, distinct
 * states/s and peak RSS. Part of `npm run bench`; alone: npx tsx bench/explorer-loops.ts
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { variantNames } from '../sim/check/check';
import { loadScenario } from '../sim/loops';

interface Row {
  loop: string;
  scenario: string;
  variant: string;
  distinct: number;
  generated: number;
  depth: number;
  complete: boolean;
  ms: number;
  perSecond: number;
  peakRssBytes: number;
  outcome: string;
  violated: string[];
}

const files = readdirSync('scenarios')
  .filter((f) => /-check-.*\.yaml$/.test(f))
  .sort()
  .map((f) => `scenarios/${f}`);
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const rows: Row[] = [];
const failed: string[] = [];
for (const file of files) {
  const { entry } = loadScenario(file);
  const variants = variantNames(entry);
  for (const variant of variants.length ? variants : ['']) {
    try {
      const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/explorer-case.ts', file, ...(variant ? [variant] : [])], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      rows.push(JSON.parse(out.trim().split('\n').at(-1)!) as Row);
    } catch (e) {
      // A case that cannot run is a row that says so, not a missing row.
      const stderr = (e as { stderr?: string }).stderr ?? String(e);
      failed.push(
        `${file}${variant ? ` (${variant})` : ''}: ${
          stderr
            .trim()
            .split('\n')
            .find((l) => l && !l.startsWith('npm warn')) ?? 'failed'
        }`,
      );
    }
  }
}
console.log("\n## The explorer on every loop's check scenarios (one process each)\n");
console.log('| loop | scenario | variant | distinct | generated | depth | complete | time | distinct states/s | peak RSS | verdict |');
console.log('|---|---|---|---:|---:|---:|---|---:|---:|---:|---|');
for (const r of rows) {
  const verdict = r.violated.length ? `violated: ${r.violated.join(', ')}` : r.outcome;
  console.log(
    `| ${r.loop} | ${r.scenario} | ${r.variant || '–'} | ${fmt(r.distinct)} | ${fmt(r.generated)} | ${r.depth} | ${r.complete ? 'yes' : 'bounded'} | ${fmt(r.ms / 1000, 2)} s | ${fmt(r.perSecond)} | ${fmt(r.peakRssBytes / 1024 ** 2)} MiB | ${verdict} |`,
  );
}
for (const f of failed) console.log(`\nFAILED ${f}`);
if (failed.length) process.exitCode = 1;
