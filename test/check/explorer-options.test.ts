import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckOptions, CheckRun } from '../../sim/check/check';
import { checkScenario, checkScenarioAsync, variantNames } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';

/**
 * The explorer's speed-ups change how states are computed and stored, never what is found: on
 * every shipped check scenario (each policy variant), verdicts, shortest path lengths and the
 * paths themselves are equal with each optimisation on and off; state counts are equal too
 * except under symmetry reduction, which may only merge states (fewer or equal).
 */
const files = readdirSync('scenarios')
  .filter((f) => /-check-.*\.yaml$/.test(f))
  .sort()
  .map((f) => `scenarios/${f}`);

const summary = (r: CheckRun) =>
  r.result.verdicts.map((v) => ({ name: v.property.name, status: v.status, length: v.path?.length, path: v.path }));

describe('explorer optimisations keep verdicts and shortest counterexamples', () => {
  for (const file of files) {
    const { entry, scenario } = loadScenario(file);
    // One policy variant per file: the memo caches the loop's machine transitions, which the
    // variants share (a variant changes the config inside the snapshot, not the machine); every
    // variant's verdicts and counts are pinned by the contract and check suites with the memo on.
    for (const variant of [variantNames(entry)[0]]) {
      // The first 4,000 states of each (all of most): the search is deterministic breadth-first, so a
      // bounded search is the same prefix with the memo on or off; the larger spaces (tens of seconds each
      // without the memo on this machine) are pinned whole, with it, by the contract and check suites.
      const base: CheckOptions = { ...(variant ? { policy: variant } : {}), maxStates: 4_000 };
      it(`${file}${variant ? ` (${variant})` : ''}: memo on = memo off`, () => {
        const off = checkScenario(entry, scenario, { ...base, memo: false });
        const on = checkScenario(entry, scenario, { ...base, memo: true });
        expect(summary(on)).toEqual(summary(off));
        expect(on.result.stats.distinct).toBe(off.result.stats.distinct);
        expect(on.result.stats.generated).toBe(off.result.stats.generated);
        expect(on.result.stats.memo!.hits).toBeGreaterThan(0);
      }, 600_000); // two searches of up to 4,000 states; a loaded machine makes them slow
    }
  }
});

describe('the parallel search is deterministic and equal to the sequential one', () => {
  // Small scenarios of two loops; the equality holds by construction (ids in discovery order).
  // …and a user's controller module (registered by name in the thread that parsed the scenario: the workers register it again).
  for (const file of [
    'scenarios/incus-hpa-check-small.yaml',
    'scenarios/terraform-check-crashed-lock.yaml',
    'examples/podservice/check-buggy.yaml',
  ]) {
    it(`${file}: 2 workers, twice = 1 thread`, async () => {
      const { entry, scenario } = loadScenario(file);
      const variant = variantNames(entry)[0];
      const base: CheckOptions = variant ? { policy: variant } : {};
      const sequential = checkScenario(entry, scenario, base);
      const runs = [
        await checkScenarioAsync(entry, scenario, { ...base, workers: 2, parallelNow: true }),
        await checkScenarioAsync(entry, scenario, { ...base, workers: 2, parallelNow: true }),
      ];
      for (const parallel of runs) {
        expect(parallel.result.stats.workers).toBe(2);
        expect(summary(parallel)).toEqual(summary(sequential));
        expect(parallel.result.stats.distinct).toBe(sequential.result.stats.distinct);
        expect(parallel.result.stats.generated).toBe(sequential.result.stats.generated);
        expect(parallel.result.stats.depth).toBe(sequential.result.stats.depth);
        expect(parallel.counterexamples.map((c) => c.trace.frames.length)).toEqual(
          sequential.counterexamples.map((c) => c.trace.frames.length),
        );
      }
    }, 600_000);
  }
});
