/**
 * The Kubernetes check scenarios at full size: each shipped scenario whose controller may crash
 * between reconciles (`restartController: true`) is searched as shipped and again with the crash in
 * the middle of a write added (`write-lands`, `write-lost`: the API server applies the write after the
 * crash, or never gets it). Same process per case as bench/explorer-loops.ts (bench/explorer-case.ts).
 * Part of `npm run bench`; alone: npx tsx bench/kubernetes-full.ts [name filter]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';

interface Row {
  scenario: string;
  distinct: number;
  depth: number;
  complete: boolean;
  ms: number;
  perSecond: number;
  peakRssBytes: number;
  violated: string[];
}

const filter = process.argv[2] ?? '';
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** The scenario's text with both mid-write crashes added next to its crash between reconciles, or undefined if it has none. */
function fullSize(text: string): string | undefined {
  const doc = parseDocument(text);
  const timeline = doc.get('timeline');
  if (!isSeq(timeline)) return undefined;
  const crash = timeline.items.find((e) => isMap(e) && e.get('restartController') === true);
  if (!isMap(crash)) return undefined;
  const at = crash.get('at');
  for (const write of ['write-lands', 'write-lost']) timeline.add(doc.createNode({ at, restartController: write }));
  doc.set('name', `${String(doc.get('name'))}-full`);
  return doc.toString();
}

function search(file: string): Row {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/explorer-case.ts', file], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Row;
}

const dir = mkdtempSync(join(tmpdir(), 'loopscope-kube-full-'));
try {
  console.log('\n## The Kubernetes check scenarios at full size (a crash in the middle of a write added)\n');
  console.log(
    '| scenario | distinct as shipped | distinct at full size | × | time at full size | distinct states/s | peak RSS | violated at full size |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const name of readdirSync('scenarios')
    .filter((f) => /^kubernetes-check-.*\.yaml$/.test(f) && f.includes(filter))
    .sort()) {
    const full = fullSize(readFileSync(join('scenarios', name), 'utf8'));
    if (full === undefined) continue;
    const file = join(dir, name);
    writeFileSync(file, full);
    const shipped = search(join('scenarios', name));
    const big = search(file);
    console.log(
      `| ${name.replace(/\.yaml$/, '')} | ${fmt(shipped.distinct)} | ${fmt(big.distinct)}${big.complete ? '' : ' (bounded)'} | ${fmt(big.distinct / shipped.distinct, 1)} | ${fmt(big.ms / 1000, 1)} s | ${fmt(big.perSecond)} | ${fmt(big.peakRssBytes / 1024 ** 2)} MiB | ${big.violated.join(', ') || '–'} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
