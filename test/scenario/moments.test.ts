import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createRunner, LOOP_IDS, parseScenario, parseScenarioText } from '../../sim/loops';
import { BUILTIN_MOMENTS, momentIndex, momentTitle } from '../../sim/scenario/moments';

const ROOT = join(import.meta.dirname, '../..');
/** A shipped scenario of the loop (valid apart from what a test changes). */
const shipped = (loop: string): Record<string, unknown> => {
  for (const f of readdirSync(join(ROOT, 'scenarios')).sort()) {
    const doc = parse(readFileSync(join(ROOT, 'scenarios', f), 'utf8')) as Record<string, unknown>;
    if (doc.loop === loop && !f.includes('-check-')) return doc;
  }
  throw new Error(`no scenario for ${loop}`);
};
const errorOf = (doc: object): string => {
  try {
    parseScenario('bad.yaml', 'bad', doc);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '';
};

describe('scenario moments (chapters) in the shared header', () => {
  for (const loop of LOOP_IDS) {
    it(`${loop}: a bad moment is named with its field and expectation`, () => {
      expect(errorOf({ loop, moments: [{ name: 'Bad Name', at: '1m' }] })).toMatch(/bad\.yaml: moments\[0\]\.name: expected a moment name/);
      expect(errorOf({ loop, moments: [{ name: 'x', at: '1m', when: 'first-act' }] })).toMatch(
        /bad\.yaml: moments\[0\]: expected exactly one of at/,
      );
      expect(errorOf({ loop, moments: [{ name: 'x', when: 'first-deploy' }] })).toMatch(
        /bad\.yaml: moments\[0\]\.when: expected one of first-act, first-error, first-fault/,
      );
      expect(
        errorOf({
          ...shipped(loop),
          moments: [
            { name: 'x', at: '1m' },
            { name: 'x', at: '2m' },
          ],
        }),
      ).toMatch(/bad\.yaml: moments\[1\]\.name: expected a unique name/);
      expect(errorOf({ ...shipped(loop), duration: '5m', moments: [{ name: 'late', at: '6m' }] })).toMatch(
        /bad\.yaml: moments\[0\]\.at: expected a time within the scenario's duration/,
      );
      expect(errorOf({ loop, moments: [{ name: 'x', at: '1m', colour: 'red' }] })).toMatch(/moments\[0\]\.colour: unknown key/);
    });
  }

  it("talk-lab's chapters resolve to the frames the talk shows", () => {
    const text = readFileSync(join(ROOT, 'scenarios/talk-lab.yaml'), 'utf8');
    const { entry, scenario } = parseScenarioText('scenarios/talk-lab.yaml', 'talk-lab', text);
    expect(scenario.moments?.map((m) => m.name)).toEqual(['load-arrives', 'first-scale-up', 'instance-is-running', 'leftover-stopped-pod']);
    const runner = createRunner(entry, scenario).run(scenario.durationMs);
    const at = (name: string) => {
      const m = scenario.moments!.find((x) => x.name === name)!;
      return runner.frames[momentIndex(m, runner.frames)!]!;
    };
    expect(at('load-arrives').t).toBe(60_000);
    expect(at('first-scale-up').phase).toBe('act');
    expect(at('first-scale-up').t).toBe(60_500);
    expect(at('instance-is-running').note).toMatch(/Instance is running/);
    expect(at('instance-is-running').t).toBe(721_900);
    const stopped = at('leftover-stopped-pod').world as { pods: { status: string }[] };
    expect(stopped.pods.some((p) => p.status === 'Stopped')).toBe(true);
    expect(momentTitle(scenario.moments![1]!, 'pt-BR')).toBe('Primeira expansão');
    expect(momentTitle(scenario.moments![1]!, 'en')).toBe('First scale-up');
  });

  it('a moment not reached yet has no frame; built-in events work on any run', () => {
    const text = readFileSync(join(ROOT, 'scenarios/talk-lab.yaml'), 'utf8');
    const { entry, scenario } = parseScenarioText('scenarios/talk-lab.yaml', 'talk-lab', text);
    const runner = createRunner(entry, scenario).run(30_000);
    expect(momentIndex({ name: 'x', at: 60_000 }, runner.frames)).toBeUndefined();
    const firstAct = BUILTIN_MOMENTS.find((m) => m.name === 'first-act')!;
    expect(momentIndex(firstAct, runner.frames)).toBeUndefined();
    runner.run(70_000);
    expect(runner.frames[momentIndex(firstAct, runner.frames)!]!.phase).toBe('act');
  });
});
