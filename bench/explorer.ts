/**
 * Explorer benchmark: distinct states/s and peak memory on the HPA model at about 10⁴ and 10⁶
 * distinct states, and fast-check property runs/s. Run: npx tsx bench/explorer.ts [small|large|all]
 * Targets (issue 6): ≥ 50,000 distinct states/s on one core at the small size; 10⁶ states < 2 GB.
 */
import { checkScenario } from '../sim/check/check';
import { LOOPS } from '../sim/loops/registry';
import type { LoadedScenario } from '../sim/loops/registry';
import { LARGE_MOVES, SMALL_MOVES, benchScenario } from './explorer-scenarios';
import { propertyRunsPerSecond } from '../test/check/hpa-arbitraries';

const MiB = 1024 ** 2;

function measure(label: string, scenario: LoadedScenario, maxStates?: number) {
  const entry = LOOPS['incus-hpa']!;
  const run = checkScenario(entry, scenario, maxStates ? { maxStates } : {});
  const s = run.result.stats;
  return { label, distinct: s.distinct, generated: s.generated, complete: s.complete, seconds: s.timeMs / 1000,
    perSecond: Math.round(s.distinctPerSecond), rssMiB: Math.round(s.peakRssBytes / MiB), heapMiB: Math.round(s.peakHeapBytes / MiB) };
}

const which = process.argv[2] ?? 'all';
const rows: ReturnType<typeof measure>[] = [];
measure('warm-up', benchScenario(2, SMALL_MOVES.slice(0, 3), 'fixed'));
if (which === 'small' || which === 'all') rows.push(measure('~10⁴ states (max 3, 6 moves, fixed)', benchScenario(3, SMALL_MOVES, 'fixed')));
if (which === 'large' || which === 'all') rows.push(measure('~10⁶ states (max 4, 11 moves, fixed)', benchScenario(4, LARGE_MOVES, 'fixed'), 1_000_000));
console.log('| size | distinct | generated | complete | time (s) | distinct states/s | peak rss (MiB) | peak heap (MiB) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.label} | ${r.distinct} | ${r.generated} | ${r.complete ? 'yes' : 'bounded'} | ${r.seconds.toFixed(2)} | ${r.perSecond} | ${r.rssMiB} | ${r.heapMiB} |`);
if (which === 'all' || which === 'properties') {
  const p = propertyRunsPerSecond(200);
  console.log(`\nproperty runs/s (fast-check, generated HPA scenarios of ${p.minutes} virtual minutes each): ${Math.round(p.perSecond)} (${p.runs} runs in ${p.seconds.toFixed(2)}s)`);
}
