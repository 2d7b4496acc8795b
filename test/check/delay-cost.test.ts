// A check's cost must not grow with the length of a delay: a backoff of 24 days is one wait, not
// 138,000 periods stepped one by one. The explorer already jumps to the next event; what stepped
// through the whole bound was the quiet run after a counterexample (its trace, and an emitted
// test's replay). Both now end where the quiet run comes round to a state it was in. Time is not
// measured here (bench/ does that): the states, the trace's frames and the replay's verdict are.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { replayProperty } from '../../sim/check/replay-property';
import { loadScenario } from '../../sim/loops';

const dir = mkdtempSync(join(tmpdir(), 'loopscope-delay-cost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** talk-lab (seed policy, whose leftover Stopped pod breaks no-leftovers for ever) with this backoff ceiling. */
function talkLabWithBackoff(max: string): string {
  const file = join(dir, `talk-lab-backoff-${max}.yaml`);
  const text = readFileSync('scenarios/talk-lab.yaml', 'utf8').replace(
    /^ {2}policy: seed$/m,
    `  policy: seed\n  backoff: { initial: 1s, max: ${max} }`,
  );
  expect(text).toContain(`max: ${max}`);
  writeFileSync(file, text);
  return file;
}

describe('check: the cost does not depend on how long a delay is', () => {
  const runs = ['1s', '1d', '24d'].map((max) => {
    const file = talkLabWithBackoff(max);
    const { entry, scenario } = loadScenario(file);
    return { max, file, run: checkScenario(entry, scenario) };
  });

  it('the same states and the same counterexample, however long the backoff (1 s, 1 d, 24 d)', () => {
    const [first, ...rest] = runs;
    for (const r of rest) {
      expect(r.run.result.stats.distinct, r.max).toBe(first!.run.result.stats.distinct);
      expect(
        r.run.counterexamples.map((c) => c.property),
        r.max,
      ).toEqual(first!.run.counterexamples.map((c) => c.property));
    }
    for (const r of runs) {
      const cex = r.run.counterexamples.find((c) => c.property === 'no-leftovers');
      expect(cex, `${r.max}: no-leftovers is broken by the seed policy's leftover`).toBeDefined();
      // Before: the trace ran on to 1.5 × the bound (36 days at 24 d: ~200,000 frames, 1.2 GB).
      expect(cex!.trace.frames.length, r.max).toBeLessThan(100);
      expect(cex!.trace.frames.length, r.max).toBe(
        runs[0]!.run.counterexamples.find((c) => c.property === 'no-leftovers')!.trace.frames.length,
      );
      const last = cex!.trace.frames.filter((f) => f.note?.includes('✗ no-leftovers')).at(-1);
      expect(last?.note, r.max).toMatch(/the run repeats, so it fails for ever/);
    }
  });

  it("an emitted test's replay of that counterexample ends on the cycle and says it fails for ever", () => {
    for (const r of runs) {
      const cex = r.run.counterexamples.find((c) => c.property === 'no-leftovers')!;
      const path = cex.path.map((s) =>
        s.kind === 'env' ? { kind: 'env' as const, index: s.index, label: r.run.alphabet[s.index]!.label } : { kind: 'tick' as const },
      );
      const result = replayProperty({ scenario: r.file, property: 'no-leftovers', path });
      expect(result.failures, r.max).toHaveLength(1);
      expect(result.failures[0], r.max).toMatch(
        /still fails at t = .* \(for ever: from t = [\d.]+s the run repeats a cycle on which it fails\)/,
      );
    }
  });

  it('a backoff past what a Node timer holds is refused in one line naming the field', () => {
    expect(() => loadScenario(talkLabWithBackoff('10000d'))).toThrow(/config\.backoff\.max: expected a backoff of at most 2147483647 ms/);
  });
});
