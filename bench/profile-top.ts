/**
 * Summarises a V8 .cpuprofile (node --cpu-prof; open the file itself in https://www.speedscope.app
 * or Chrome DevTools for the flame graph): the top functions by self time and by total time.
 * Run: npx tsx bench/profile-top.ts <file.cpuprofile> [n]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, n = '20'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [n]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const c of node.children ?? []) parentOf.set(c, node.id);

const name = (node: ProfileNode) => {
  const f = node.callFrame;
  const where = f.url ? `${f.url.replace(/^.*\/(node_modules\/|main\/)/, '')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}${f.url ? `:${(f as { columnNumber?: number }).columnNumber ?? 0}` : ''}`.trim();
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  all += dt;
  const leaf = byId.get(id)!;
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const k = name(byId.get(at)!);
    if (seen.has(k)) continue; // recursion counts once
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + dt);
  }
});
const top = (m: Map<string, number>, title: string) => {
  console.log(`\n${title} (of ${(all / 1000).toFixed(0)} ms sampled)\n`);
  console.log('|  % | ms | function |\n|---:|---:|---|');
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(n)))
    console.log(`| ${((100 * v) / all).toFixed(1)} | ${(v / 1000).toFixed(0)} | ${k} |`);
};
top(self, 'Top by self time');
top(total, 'Top by total time');
