import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GOLDEN_FILE, GOLDEN_SCENARIOS, traceDigest } from './golden';

/**
 * Determinism and stability: every shipped scenario parses, runs, and produces exactly the trace
 * pinned in golden-traces.json (twice in a row). A change here is a change in what a loop decides
 * or shows: regenerate with `npm run golden` only when it is intended, and say why in the commit.
 */
const pinned = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Record<string, { sha256: string; frames: number }>;

describe('every shipped scenario runs to the pinned trace', () => {
  it('every shipped scenario is pinned, and nothing else', () => {
    expect(Object.keys(pinned).sort()).toEqual([...GOLDEN_SCENARIOS].sort());
  });
  for (const file of GOLDEN_SCENARIOS) {
    it(file, () => {
      const once = traceDigest(file);
      expect(traceDigest(file)).toEqual(once);
      expect(once).toEqual(pinned[file]);
    });
  }
});
