// The picker reads a scenario's loop and description from those two entries only (web/lab/scenario-header.ts):
// it must agree with a full parse on every shipped scenario and on any block-mapping YAML, whatever the key
// order, comments, multi-line descriptions or other entries around them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { expect, it } from 'vitest';
import { scenarioHeader } from '../../web/lab/scenario-header';

const ROOT = join(import.meta.dirname, '../..');

/** What the picker showed before: the whole file parsed. */
function fullHeader(text: string) {
  const doc = ((): { loop?: unknown; description?: unknown } | null => {
    try {
      return parse(text) as { loop?: unknown; description?: unknown } | null;
    } catch {
      return null;
    } // a broken file lists as '?'
  })();
  return { loop: typeof doc?.loop === 'string' ? doc.loop : '?', description: typeof doc?.description === 'string' ? doc.description : '' };
}

it('agrees with a full parse on every shipped scenario', () => {
  const files = readdirSync(join(ROOT, 'scenarios')).filter((f) => f.endsWith('.yaml'));
  expect(files.length).toBeGreaterThan(30);
  for (const f of files) {
    const text = readFileSync(join(ROOT, 'scenarios', f), 'utf8');
    expect(scenarioHeader(text), f).toEqual(fullHeader(text));
  }
});

it('agrees with a full parse on any block mapping: key order, comments, block and folded descriptions, nested entries', () => {
  const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_-]{0,8}$/).filter((k) => k !== 'loop' && k !== 'description');
  const value = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(key, fc.string(), { maxKeys: 3 }),
  );
  const text = fc.oneof(
    fc.string(),
    fc.lorem({ maxCount: 30 }),
    fc.constantFrom('a\nb', 'x: y', '# not a comment', '- item', 'it\'s "quoted"', '  lead'),
  );
  fc.assert(
    fc.property(
      fc.dictionary(key, value, { maxKeys: 5 }),
      fc.option(text),
      fc.option(text),
      fc.nat(),
      fc.constantFrom('PLAIN', 'BLOCK_LITERAL', 'BLOCK_FOLDED', 'QUOTE_DOUBLE'),
      fc.boolean(),
      (others, loop, description, at, style, commented) => {
        const entries = Object.entries(others);
        if (description !== null) entries.splice(at % (entries.length + 1), 0, ['description', description]);
        if (loop !== null) entries.splice((at >> 3) % (entries.length + 1), 0, ['loop', loop]);
        let yaml = stringify(Object.fromEntries(entries), { defaultStringType: style, lineWidth: 40 });
        if (commented) yaml = `# a scenario\n${yaml.replace(/\n(?=[a-z])/, '\n# between entries\n')}`;
        expect(scenarioHeader(yaml)).toEqual(fullHeader(yaml));
      },
    ),
    { numRuns: 500 },
  );
});
