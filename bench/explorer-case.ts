/**
 * One explorer run in a fresh process (so its peak RSS is its own): `tsx bench/explorer-case.ts
 * <check scenario> [variant] [--no-symmetry | --ceiling]` prints one JSON line with the search
 * statistics and the verdicts. --ceiling searches with the unsound name-erasing key of
 * test/check/symmetry-ceiling.ts: the most any symmetry could merge (a measurement only).
 */
import { checkScenario } from '../sim/check/check';
import { runOutcome } from '../sim/check/outcome';
import { loadScenario } from '../sim/loops';
import { ceilingEntry } from '../test/check/symmetry-ceiling';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const [file, variant] = args.filter((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: explorer-case.ts <scenario> [variant] [--no-symmetry | --ceiling]');
const { entry, scenario } = loadScenario(file);
const run = checkScenario(flags.has('--ceiling') ? ceilingEntry(entry) : entry, scenario, {
  ...(variant ? { policy: variant } : {}),
  symmetry: !flags.has('--no-symmetry'),
});
const s = run.result.stats;
process.stdout.write(
  JSON.stringify({
    loop: run.loop,
    scenario: scenario.name,
    variant: variant ?? '',
    distinct: s.distinct,
    generated: s.generated,
    depth: s.depth,
    complete: s.complete,
    ms: s.timeMs,
    perSecond: s.distinctPerSecond,
    peakRssBytes: s.peakRssBytes,
    outcome: runOutcome(run),
    violated: run.result.verdicts.filter((v) => v.status === 'violated').map((v) => v.property.name),
    symmetry: s.symmetry?.state ?? 'none',
    verdicts: run.result.verdicts.map((v) => `${v.property.name}:${v.status}${v.path ? `:${v.path.length}` : ''}`),
  }) + '\n',
);
