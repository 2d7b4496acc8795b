/**
 * Explorer benchmark: distinct states/s and peak memory on the HPA model at about 10⁴ and 10⁶
 * distinct states, and fast-check property runs/s. Run: npx tsx bench/explorer.ts [small|large|all]
 * Targets (issue 6): ≥ 50,000 distinct states/s on one core at the small size; 10⁶ states < 2 GB.
 */
import { DEFAULT_CONFIG } from '../machines/incus-hpa';
import type { HpaConfig } from '../machines/incus-hpa';
import { checkScenario } from '../sim/check/check';
import { LOOPS } from '../sim/loops/registry';
import type { LoadedScenario } from '../sim/loops/registry';
import { DEFAULT_PARAMS } from '../sim/loops/incus-hpa';
import type { TimelineEntry } from '../sim/runner';
import type { HpaFault, HpaWorld, SimInstance } from '../sim/worlds/incus-hpa';
import { createHpaWorld } from '../sim/worlds/incus-hpa';
import { propertyRunsPerSecond } from '../test/check/hpa-arbitraries';

const MB = 1e6;
const MiB = 1024 ** 2;

/** A bounded HPA configuration whose state space grows with maxPods and the number of moves. */
export function benchScenario(maxPods: number, moves: TimelineEntry<HpaFault, HpaConfig>[], policy: HpaConfig['policy']): LoadedScenario {
  const config: HpaConfig = { ...DEFAULT_CONFIG, policy, minPods: 1, maxPods, memoryThreshold: 50, limitsMemoryBytes: 1000 * MB,
    backoffInitialMs: 5_000, backoffMaxMs: 15_000, downscaleStabilizationMs: 30_000 };
  const instances: SimInstance[] = [
    { name: 'pod-a', owner: config.name, status: 'Running', limitBytes: 1000 * MB, stressBytes: 0, serves: true, createdAt: 0 },
    { name: 'podman-cache', owner: null, status: 'Running', limitBytes: 1000 * MB, stressBytes: 0, serves: false, createdAt: 0 },
  ];
  const world: HpaWorld = createHpaWorld(1, { ...DEFAULT_PARAMS, baselineBytes: 50 * MB }, instances, 300 * MB);
  return { file: `bench:${maxPods}`, name: `bench-${policy}-max${maxPods}-${moves.length}moves`, description: '', seed: 1, durationMs: 0, config, world, timeline: moves };
}

const at = 0;
export const SMALL_MOVES: TimelineEntry<HpaFault, HpaConfig>[] = [
  { at, fault: { kind: 'demand', bytes: 2500 * MB } }, { at, fault: { kind: 'kill', instance: 'pod-a' } },
  { at, fault: { kind: 'failApi', calls: 1 } }, { at, fault: { kind: 'restartController' } },
  { at, fault: { kind: 'demand', bytes: 100 * MB } }, { at, fault: { kind: 'failApi', calls: 1 } },
];
export const LARGE_MOVES: TimelineEntry<HpaFault, HpaConfig>[] = [
  ...SMALL_MOVES,
  { at, fault: { kind: 'slowApi', factor: 10, forMs: 30_000 } }, { at, fault: { kind: 'demand', bytes: 1500 * MB } },
  { at, fault: { kind: 'restartController' } }, { at, fault: { kind: 'deleteInstance', instance: 'pod-a' } },
  { at, fault: { kind: 'failApi', calls: 1 } },
];

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
