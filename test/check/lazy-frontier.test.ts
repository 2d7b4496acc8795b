import { describe, expect, it } from 'vitest';
import { prepareCheck } from '../../sim/check/check';
import type { ExploreResult } from '../../sim/check/model';
import { explore } from '../../sim/check/explorer';
import { loadScenario } from '../../sim/loops';

/**
 * The lazy frontier (sim/check/frontier.ts) re-derives a state from its parent instead of keeping
 * it; searches only reach it past 65,536 states a level, so here every state is re-derived
 * (lazyFrom 0) and the search must be the same: counts, depth, verdicts, every path, settle times.
 */
const same = (r: ExploreResult<unknown, unknown>) => ({
  distinct: r.stats.distinct,
  generated: r.stats.generated,
  depth: r.stats.depth,
  verdicts: r.verdicts.map((v) => [v.property.name, v.status, v.path, v.settleMs, v.cycleStart, v.detail]),
});

describe('the lazy frontier re-derives exactly the states it dropped', () => {
  for (const file of [
    'scenarios/incus-hpa-check-small.yaml',
    'scenarios/incus-hpa-check-flapping.yaml',
    'scenarios/kubernetes-check-replicaset-no-expectations.yaml',
    'scenarios/cron-check-dst-start.yaml',
    'scenarios/puppet-check-lost-refresh.yaml',
    'scenarios/systemd-restart-check-start-limit.yaml',
    'scenarios/terraform-check-protected-replace.yaml',
  ]) {
    it(`${file}: every state re-derived = every state kept`, () => {
      const { entry, scenario } = loadScenario(file);
      const p = prepareCheck(entry, scenario);
      const run = (lazyFrom: number) =>
        explore(entry.binding, p.check, { config: p.config, world: scenario.world }, p.alphabet, p.properties, { lazyFrom });
      expect(same(run(0))).toEqual(same(run(Number.POSITIVE_INFINITY)));
    }, 120_000);
  }
});
