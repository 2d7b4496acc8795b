/**
 * One search of the liveness benchmark in a fresh process (its peak RSS is its own):
 * `tsx bench/liveness-case.ts <scenario> <policy> with|without` — with: the scenario's properties
 * and its liveness properties (edges kept, lassos sought); without: the same search, liveness
 * properties left out. Prints one JSON line.
 */
import { prepareCheck } from '../sim/check/check';
import { explore } from '../sim/check/explorer';
import { isLiveness } from '../sim/check/model';
import { loadScenario } from '../sim/loops';

const [file, policy, mode] = process.argv.slice(2);
if (!file || !policy || (mode !== 'with' && mode !== 'without'))
  throw new Error('usage: liveness-case.ts <scenario> <policy> with|without');
const { entry, scenario } = loadScenario(file);
const prepared = prepareCheck(entry, scenario, { policy });
const properties = mode === 'with' ? prepared.properties : prepared.properties.filter((p) => !isLiveness(p.kind));
const { stats, verdicts } = explore(
  entry.binding,
  prepared.check,
  { config: prepared.config, world: scenario.world },
  prepared.alphabet,
  properties,
  {},
);
process.stdout.write(
  JSON.stringify({
    mode,
    distinct: stats.distinct,
    generated: stats.generated,
    complete: stats.complete,
    ms: stats.timeMs,
    cpuMs: stats.cpuMs,
    tableBytes: stats.tableBytes,
    peakRssBytes: stats.peakRssBytes,
    liveness: verdicts
      .filter((v) => isLiveness(v.property.kind))
      .map(
        (v) => `${v.property.name} ${v.status}${v.cycleStart !== undefined ? ` (${v.cycleStart}+${v.path!.length - v.cycleStart})` : ''}`,
      ),
    others: verdicts
      .filter((v) => !isLiveness(v.property.kind))
      .map((v) => `${v.property.name}:${v.status}:${v.path?.length ?? ''}`)
      .join(' '),
  }) + '\n',
);
