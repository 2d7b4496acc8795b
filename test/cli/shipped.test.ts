// A scenario argument into the shipped scenarios/ or examples/ works from any directory (the README's
// commands, typed where loopscope is installed); anything else is the user's own path, untouched.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../cli/package-root';
import { scenarioArgument } from '../../cli/shipped';

describe('scenarioArgument', () => {
  const before = process.cwd();
  let dir = '';
  let notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loopscope-shipped-'));
    process.chdir(dir);
    notes = [];
  });
  afterEach(() => {
    process.chdir(before);
  });

  it('a shipped scenario or example not in this directory is read from the package, and says so', () => {
    expect(scenarioArgument('scenarios/talk-lab.yaml', note)).toBe(join(PACKAGE_ROOT, 'scenarios/talk-lab.yaml'));
    expect(scenarioArgument('examples/podservice/check-buggy.yaml', note)).toBe(join(PACKAGE_ROOT, 'examples/podservice/check-buggy.yaml'));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^scenarios\/talk-lab\.yaml: not in this directory; using the one loopscope ships/);
  });

  it("the user's own file wins; other paths are left to fail as usual", () => {
    mkdirSync('scenarios');
    writeFileSync('scenarios/talk-lab.yaml', 'loop: incus-hpa\n');
    expect(scenarioArgument('scenarios/talk-lab.yaml', note)).toBe('scenarios/talk-lab.yaml');
    for (const other of [
      'scenarios/no-such.yaml',
      '../scenarios/talk-lab.yaml',
      'talk-lab.yaml',
      'scenarios',
      join(dir, 'x/scenarios/talk-lab.yaml'),
    ]) {
      expect(scenarioArgument(other, note), other).toBe(other);
    }
    expect(notes).toEqual([]);
  });
});
