import { describe, expect, it } from 'vitest';
import { LOOP_IDS, parseScenario } from '../../sim/loops';

/** Every loop reads the same header (sim/scenario/header.ts) and words its errors the same way. */
const problemsOf = (doc: object): string => {
  try {
    parseScenario('bad.yaml', 'bad', doc);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '';
};

describe('one scenario header for every loop', () => {
  for (const loop of LOOP_IDS) {
    it(loop, () => {
      const message = problemsOf({ loop, name: 5, seed: -1, duration: 'soon' });
      expect(message).toMatch(/bad\.yaml: name: expected a name \(text\)/);
      expect(message).toMatch(/bad\.yaml: seed: expected a whole number ≥ 0/);
      expect(message).toMatch(/bad\.yaml: duration: expected a duration/);
    });
  }
});
