import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { runnerFor } from '../../sim/loops';
import { decisionOf, divergences, ownPolicyOf } from '../../web/compare/divergence';

const ROOT = resolve(import.meta.dirname, '../..');
const frame = (t: number, v: number | null) => ({ t, v });
const value = (f: { v: number | null }) => f.v;

describe("side by side: where the policies' decisions part (web/compare/divergence.ts)", () => {
  it('marks a divergence when the values part and a convergence when they meet, changes at one instant taken together', () => {
    const a = [frame(0, null), frame(10, 2), frame(20, 2), frame(30, 1), frame(50, 1)];
    // b decides at the same instants, one frame later within t=10 (not a divergence), then holds 2 until 40.
    const b = [frame(0, null), frame(10, null), frame(10, 2), frame(30, 2), frame(40, 1)];
    expect(divergences([a, b], value)).toEqual([
      { t: 30, kind: 'diverge', values: [1, 2] },
      { t: 40, kind: 'converge', values: [1, 1] },
    ]);
    expect(divergences([a, a, a], value)).toEqual([]);
  });

  it('flapping: the seed rule and the kubernetes policy part at the first scale-down (the 300 s window holds 3)', () => {
    const runs = ['seed', 'kubernetes'].map((policy) => {
      const { runner, scenario } = runnerFor(join(ROOT, 'scenarios/flapping.yaml'), { policy });
      runner.run(scenario.durationMs);
      return runner.frames;
    });
    const marks = divergences(runs, decisionOf('incus-hpa')!);
    const first = marks[0]!;
    expect(first.kind).toBe('diverge');
    // Load drops at 3m: the seed rule deletes at its next compare, kubernetes keeps its recommendation.
    expect(first.t).toBeGreaterThan(3 * 60_000);
    expect(first.t).toBeLessThan(3 * 60_000 + 30_000);
    expect(first.values[0]!).toBeLessThan(first.values[1]!);
    expect(marks.filter((m) => m.kind === 'diverge').length).toBeGreaterThanOrEqual(3);
  });

  it("a scenario's own policy is a column of its own only when it is not one of the named policies", () => {
    const own = (file: string, policy?: string) => {
      const { entry, runner } = runnerFor(join(ROOT, file), policy ? { policy } : {});
      return ownPolicyOf(entry.id, runner);
    };
    expect(own('scenarios/flapping.yaml')).toBe('seed');
    expect(own('scenarios/flapping.yaml', 'kubernetes')).toBe('kubernetes');
    // A user's policy module, as the parser names it: not one of the named policies, so a column of its own.
    expect(own('examples/hpa-policy/check.yaml')).toMatch(/^module:.*step-policy\.ts$/);
    // kubernetes: options.policy, the upstream algorithm when absent.
    expect(own('scenarios/kubernetes-hpa.yaml')).toBe('kubernetes');
    expect(own('scenarios/kubernetes-hpa.yaml', 'seed')).toBe('seed');
    // A loop without policies to compare has none.
    expect(own('scenarios/cron-normal.yaml')).toBeUndefined();
  });
});
