/**
 * One explorer run in a fresh process (so its peak RSS is its own): `tsx bench/explorer-case.ts
 * <check scenario> [variant]` prints one JSON line with the search statistics and the verdicts.
 */
import { checkScenario } from '../sim/check/check';
import { runOutcome } from '../sim/check/outcome';
import { loadScenario } from '../sim/loops';

const [file, variant] = process.argv.slice(2);
if (!file) throw new Error('usage: explorer-case.ts <scenario> [variant]');
const { entry, scenario } = loadScenario(file);
const run = checkScenario(entry, scenario, variant ? { policy: variant } : {});
const s = run.result.stats;
process.stdout.write(JSON.stringify({
  loop: run.loop, scenario: scenario.name, variant: variant ?? '', distinct: s.distinct, generated: s.generated, depth: s.depth,
  complete: s.complete, ms: s.timeMs, perSecond: s.distinctPerSecond, peakRssBytes: s.peakRssBytes, outcome: runOutcome(run),
  violated: run.result.verdicts.filter((v) => v.status === 'violated').map((v) => v.property.name),
}) + '\n');
