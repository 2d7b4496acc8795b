// Every shipped check scenario's counterexamples, written as ITF (Apalache's ADR-015 "Informal
// Trace Format", sim/itf/): each validates against the schema written from the ADR, holds no JSON
// fraction, comes back as the same trace, and a lasso's `loop` is the state its cycle returns to.
// The explorer runs in this process with a bound of MAX_STATES states per scenario (the whole set
// unbounded takes minutes): a breadth-first search finds the shortest counterexamples first, so
// those inside the bound are the ones the CLI writes too. Searched completely: the flapping scenario
// (the lassos) under each policy, and one scenario of each loop whose counterexample lies past the
// bound (a few seconds each), so every loop's summaries are exported.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../sim/check/check';
import { checkScenario, variantNames } from '../../sim/check/check';
import { itfJson, traceToItf } from '../../sim/itf/export';
import { parseAnyTraceText } from '../../sim/itf/read';
import { loadScenario } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { traceJson } from '../../sim/trace-schema';
import { expectValidItf } from '../trace/itf-schema';

const ROOT = join(import.meta.dirname, '..', '..');
const MAX_STATES = 400;
const FLAPPING = 'incus-hpa-check-flapping.yaml';
const COMPLETE = new Set([FLAPPING, 'systemd-restart-check-start-limit.yaml', 'puppet-check-lost-refresh.yaml']);
const CHECK_SCENARIOS = readdirSync(join(ROOT, 'scenarios'))
  .filter((f) => /-check-.*\.yaml$/.test(f))
  .sort();

function runsOf(file: string): CheckRun[] {
  const { entry, scenario } = loadScenario(join(ROOT, 'scenarios', file));
  if (file === FLAPPING) return variantNames(entry).map((policy) => checkScenario(entry, scenario, { policy }));
  return [checkScenario(entry, scenario, COMPLETE.has(file) ? {} : { maxStates: MAX_STATES })];
}

/** Each counterexample's trace, and a differential finding's other history. */
const tracesOf = (runs: readonly CheckRun[]) =>
  runs.flatMap((run) =>
    run.counterexamples.flatMap((ce): { name: string; trace: Trace }[] => [
      { name: `${run.policy ?? ''}.${ce.property}`, trace: ce.trace },
      ...(ce.other ? [{ name: `${run.policy ?? ''}.${ce.property}.other`, trace: ce.other.trace }] : []),
    ]),
  );

function checkItf(name: string, trace: Trace): void {
  const text = itfJson(traceToItf(trace, { source: name }));
  const doc: unknown = JSON.parse(text);
  expectValidItf(doc, name);
  const back = parseAnyTraceText(text);
  if (!back.ok) throw new Error(`${name}: ${back.error}`);
  expect(traceJson(back.trace), name).toBe(traceJson(trace));
}

describe('counterexamples of every shipped check scenario, as ITF', () => {
  const exported: string[] = [];

  it.each(CHECK_SCENARIOS)(
    '%s',
    (file) => {
      for (const { name, trace } of tracesOf(runsOf(file))) {
        checkItf(`${file}${name}`, trace);
        exported.push(file);
      }
    },
    120_000,
  );

  it('exported counterexamples of every loop', () => {
    const loops = new Set(exported.map((f) => f.split('-check-')[0]));
    expect([...loops].sort()).toEqual(['cron', 'incus-hpa', 'kubernetes', 'puppet', 'systemd-restart', 'terraform']);
  });
});

describe("lassos (liveness counterexamples) carry ITF's loop", () => {
  const { entry, scenario } = loadScenario(join(ROOT, 'scenarios', FLAPPING));

  it.each(variantNames(entry))('incus-hpa-check-flapping, policy %s: loop is the state the cycle returns to', (policy) => {
    const run = checkScenario(entry, scenario, { policy });
    const lassos = run.counterexamples.filter((ce) => ce.trace.lasso !== undefined);
    expect(lassos.length).toBeGreaterThan(0);
    for (const ce of lassos) {
      const itf = traceToItf(ce.trace);
      const cycleStart = ce.trace.lasso!.cycleStart;
      expect(itf.loop).toBe(cycleStart);
      // ADR-015: the loop starts at states[loop] and ends in the last state, which is followed by
      // states[loop] again: the last state is the machine state the cycle began from.
      const last = itf.states.at(-1)!;
      const before = itf.states[cycleStart - 1]!;
      expect([last.state, last.phase]).toEqual([before.state, before.phase]);
      expect(itf.states[cycleStart]!.notes).toContainEqual(expect.stringContaining('↻ the cycle starts here'));
      expect(last.notes).toContainEqual(expect.stringContaining(`↻ back to frame ${cycleStart + 1}`));
      // A counterexample that is no lasso has no loop.
      for (const other of run.counterexamples.filter((c) => c.trace.lasso === undefined))
        expect(traceToItf(other.trace).loop).toBeUndefined();
    }
  });
});
