import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LoopCheck } from '../../sim/check/model';
import { LOOP_IDS, loadScenario, withPolicy } from '../../sim/loops';
import type { StepState } from '../../sim/step';
import { stateKey } from '../../sim/check/symmetry';
import { keySafety } from './key-safety';
import type { KeyWriter } from '../../sim/check/key-writer';

const checkScenarios = (loop: string) =>
  readdirSync('scenarios')
    .filter((f) => f.startsWith(`${loop}-check-`) && f.endsWith('.yaml'))
    .map((f) => `scenarios/${f}`);

function sample(file: string, tamper?: (check: LoopCheck<unknown, unknown, unknown>) => LoopCheck<unknown, unknown, unknown>) {
  const { entry, scenario } = loadScenario(file);
  const check = tamper ? tamper(entry.check) : entry.check;
  const alphabet = scenario.timeline.map((e, index) => ({ index, label: check.label(e), entry: e }));
  const variants: readonly (string | undefined)[] = entry.policies?.names ?? [undefined];
  return variants.map((v) => {
    const config = v === undefined ? scenario.config : withPolicy(entry, scenario, v);
    const start = { config, world: scenario.world };
    // The key the explorer merges by: the loop's symmetry's, when it declares one (sim/check/symmetry.ts).
    const key = stateKey(check, start, alphabet, true).key;
    const merging = { ...check, canonicalizer: () => key };
    const properties = check.properties(config, alphabet, undefined, scenario.world);
    return { variant: v ?? 'as written', report: keySafety(entry.binding, merging, start, alphabet, 1500, properties) };
  });
}

describe('canonical keys are safe: equal keys, equal successor keys for every move, equal properties', () => {
  for (const loop of LOOP_IDS) {
    const files = checkScenarios(loop);
    it(`${loop} has a check scenario`, () => expect(files.length).toBeGreaterThan(0));
    for (const file of files) {
      it(file, () => {
        for (const { variant, report } of sample(file)) {
          expect(report.mismatches, `${file} (${variant})`).toEqual([]);
          expect(report.states, `${file} (${variant}): states sampled`).toBeGreaterThan(10);
        }
      });
    }
  }

  it('catches a key that drops part of the state (the HPA key without the queue of pending events)', () => {
    const dropQueue = (check: LoopCheck<unknown, unknown, unknown>): LoopCheck<unknown, unknown, unknown> => ({
      ...check,
      canonicalizer: (start, alphabet) => {
        const key = check.canonicalizer(start, alphabet);
        return (s: StepState<unknown, unknown>, out: KeyWriter) => key({ ...s, queue: [] }, out);
      },
    });
    const reports = sample('scenarios/incus-hpa-check-small.yaml', dropQueue);
    expect(reports.some((r) => r.report.mismatches.length > 0)).toBe(true);
  });

  it('catches a key that merges states a property tells apart (the HPA key blind to unownedTouched, under the seed)', () => {
    const blind = (check: LoopCheck<unknown, unknown, unknown>): LoopCheck<unknown, unknown, unknown> => ({
      ...check,
      canonicalizer: (start, alphabet) => {
        const key = check.canonicalizer(start, alphabet);
        return (s: StepState<unknown, unknown>, out: KeyWriter) => key({ ...s, world: { ...(s.world as object), unownedTouched: 0 } }, out);
      },
    });
    const reports = sample('scenarios/incus-hpa-check-small.yaml', blind);
    expect(reports.flatMap((r) => r.report.mismatches).some((m) => m.includes('disagree on never-touches-unowned'))).toBe(true);
  });
});
