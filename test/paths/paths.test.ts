import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../sim/loops';
import { LOOPS } from '../../sim/loops/registry';
import { generatePaths } from '../../sim/paths/paths';

const ROOT = join(import.meta.dirname, '../..');
const TMP = mkdtempSync(join(tmpdir(), 'loopscope-paths-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

// Child processes must not inherit this vitest's worker variables (a nested vitest would read them).
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS')),
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

const UNREACHABLE = /^not reachable in this world: the exhaustive exploration of .+ never takes it$/;
const BETWEEN = /^reachable only by a move between two events due at one instant/;

describe('every loop: the generated paths take every transition a scenario can reach in its world', () => {
  for (const entry of Object.values(LOOPS)) {
    it(
      entry.id,
      () => {
        const { scenario } = loadScenario(join(ROOT, 'scenarios', entry.pathScenario));
        const out = join(TMP, entry.id);
        const report = generatePaths(entry, scenario, { cover: 'transitions', out });
        // Measured by running the written scenarios through the Runner, as `loopscope sim` does.
        expect(report.coverage.generatedOfPlaceable.percent, JSON.stringify(report.notTaken, null, 2)).toBe(100);
        expect(report.transitions.placeable).toBeGreaterThan(0);
        // Every transition not taken is named with its reason: unreachable, or only between two events of one instant.
        const between = report.notTaken.filter((n) => BETWEEN.test(n.reason));
        for (const n of report.notTaken) expect(n.reason, n.transition).toMatch(new RegExp(`${UNREACHABLE.source}|${BETWEEN.source}`));
        expect(between).toHaveLength(report.transitions.reachable - report.transitions.placeable);
        expect(report.transitions.total - report.notTaken.length).toBe(report.coverage.generated.taken);
        // One scenario and one test per path, and the report.
        const files = readdirSync(out);
        expect(files.filter((f) => f.endsWith('.yaml'))).toHaveLength(report.paths.length);
        expect(files.filter((f) => f.endsWith('.test.ts'))).toHaveLength(report.paths.length);
        expect(JSON.parse(readFileSync(join(out, 'coverage.json'), 'utf8'))).toEqual(report);
      },
      180_000,
    );
  }
});

it('--cover states: every reachable machine state is reached by a generated path', () => {
  const entry = LOOPS['incus-hpa'];
  const { scenario } = loadScenario(join(ROOT, 'scenarios', entry.pathScenario));
  const report = generatePaths(entry, scenario, { cover: 'states', out: join(TMP, 'states') });
  expect(report.states?.reachable).toBeGreaterThan(1);
  expect(report.states?.generated).toBe(report.states?.reachable);
}, 120_000);

describe('the written tests', () => {
  it('pass as written and fail once their scenario is altered', () => {
    const entry = LOOPS['incus-hpa'];
    const { scenario } = loadScenario(join(ROOT, 'scenarios', entry.pathScenario));
    const dir = join(TMP, 'vitest');
    const report = generatePaths(entry, scenario, { cover: 'transitions', out: dir });
    // The longest path with moves: its test runs green as written, then fails once its timeline is emptied (the moves it needs never happen).
    const altered = [...report.paths].reverse().find((p) => p.moves > 0)!;
    const vitest = () =>
      spawnSync(join(ROOT, 'node_modules/.bin/vitest'), ['run', '--root', dir, basename(altered.test)], {
        cwd: dir,
        encoding: 'utf8',
        env,
      });
    const passing = vitest();
    expect(passing.status, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).toMatch(/Tests\s+1 passed \(1\)/);

    const yaml = readFileSync(altered.scenario, 'utf8');
    writeFileSync(altered.scenario, yaml.replace(/\ntimeline:\n[\s\S]*$/, '\ntimeline: []\n'));
    const failing = vitest();
    const text = failing.stdout + failing.stderr;
    expect(failing.status, text).toBe(1);
    expect(text).toMatch(/Tests\s+1 failed/);
    expect(text).toContain(`${altered.name} takes its transitions`);
  }, 300_000);
});

describe('bad input: one line, exit 2, nothing written', () => {
  const cli = (...args: string[]) => spawnSync(join(ROOT, 'cli/loopscope'), ['paths', ...args], { cwd: ROOT, encoding: 'utf8', env });
  it.each([
    [
      ['incus-hpa', '--cover', 'edges', '--out', join(TMP, 'never-1')],
      'loopscope: --cover: expected one of transitions, states, got "edges"',
    ],
    [['incus-hpa'], 'loopscope: --out: expected a directory to write the paths into (--out <dir>)'],
    [
      [join(TMP, 'missing.yaml'), '--out', join(TMP, 'never-2')],
      `loopscope: ${join(TMP, 'missing.yaml')}: file not found (expected a path to a YAML file)`,
    ],
  ])('%j', (args, line) => {
    const r = cli(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
    expect(r.stdout).toBe('');
    expect(readdirSync(TMP).filter((f) => f.startsWith('never-'))).toEqual([]);
  });
});
