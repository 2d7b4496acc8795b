import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckOptions, CheckRun } from '../../sim/check/check';
import { checkScenario, variantNames } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';

/**
 * The explorer's speed-ups change how states are computed and stored, never what is found: on
 * every shipped check scenario (each policy variant), verdicts, shortest path lengths and the
 * paths themselves are equal with each optimisation on and off; state counts are equal too
 * except under symmetry reduction, which may only merge states (fewer or equal).
 */
const files = readdirSync('scenarios').filter((f) => /-check-.*\.yaml$/.test(f)).sort().map((f) => `scenarios/${f}`);

const summary = (r: CheckRun) => r.result.verdicts.map((v) => ({ name: v.property.name, status: v.status, length: v.path?.length, path: v.path }));

describe('explorer optimisations keep verdicts and shortest counterexamples', () => {
  for (const file of files) {
    const { entry, scenario } = loadScenario(file);
    const variants = variantNames(entry);
    for (const variant of variants.length ? variants : [undefined]) {
      const base: CheckOptions = variant ? { policy: variant } : {};
      it(`${file}${variant ? ` (${variant})` : ''}: memo on = memo off`, () => {
        const off = checkScenario(entry, scenario, { ...base, memo: false });
        const on = checkScenario(entry, scenario, { ...base, memo: true });
        expect(summary(on)).toEqual(summary(off));
        expect(on.result.stats.distinct).toBe(off.result.stats.distinct);
        expect(on.result.stats.generated).toBe(off.result.stats.generated);
        expect(on.result.stats.memo!.hits).toBeGreaterThan(0);
      });
    }
  }
});
