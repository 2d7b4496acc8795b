// The spilled level (sim/check/spilled-level.ts) really keeps its records on disk — a file of 12
// bytes a record while the level is built, gone once it is taken — and gives them back in order,
// across its read buffer's boundaries, each parent handed to exactly its children.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareCheck } from '../../sim/check/check';
import type { SearchNode } from '../../sim/check/expander';
import { Expander } from '../../sim/check/expander';
import { SpilledLevel } from '../../sim/check/spilled-level';
import { loadScenario } from '../../sim/loops';

const TMP = mkdtempSync(join(tmpdir(), 'loopscope-spilled-level-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('a spilled BFS level', () => {
  it('writes its records to a file and reads them back in order, parents to their children', () => {
    const { entry, scenario } = loadScenario('scenarios/incus-hpa-check-small.yaml');
    const p = prepareCheck(entry, scenario);
    const expander = new Expander(entry.binding, p.check, { config: p.config, world: scenario.world }, p.alphabet, p.properties, true);
    const start = expander.initial();
    // Parents with 1, 2 or 3 children each; 150,000 records span three read buffers (65,536 records each).
    const parents: SearchNode<unknown, unknown>[] = [];
    const expected: { parent: number; order: number; id: number }[] = [];
    const whole = { id: 0, ...start };
    const level = new SpilledLevel<unknown, unknown>(TMP);
    level.pushWhole(whole);
    let id = 1;
    while (expected.length < 150_000) {
      const parent = { id: parents.length + 1000, ...start };
      parents.push(parent);
      for (let order = 0; order < 1 + (parents.length % 3); order++, id++) {
        level.push(parent, order, id);
        expected.push({ parent: parent.id, order, id });
      }
    }
    expect(level.length).toBe(expected.length + 1);
    const [file] = readdirSync(TMP);
    expect(file).toBeDefined();
    // All but the last partial buffer is on disk already.
    expect(statSync(join(TMP, file!)).size).toBe(Math.floor(expected.length / 65_536) * 65_536 * 12);

    expect(
      level.take(0, () => {
        throw new Error('a whole state is not derived');
      }),
    ).toBe(whole);
    const got: { parent: number; order: number; id: number }[] = [];
    for (let i = 1; i < level.length; i++) {
      const node = level.take(i, (parent, order) => {
        got.push({ parent: parent.id, order, id: -1 });
        return { run: parent.run, remaining: Uint8Array.of(order) };
      });
      got[got.length - 1]!.id = node.id;
    }
    expect(got).toEqual(expected);
    expect(readdirSync(TMP)).toEqual([]); // taken to its end: the file is gone
  });
});
