// A seventh loop — a room thermostat — added to a copy of the repository through exactly the places
// docs/ARCHITECTURE.md's "Adding a loop" lists: it compiles, the compiler names the loop when any one
// registry entry is left out, and the loop runs in the simulator and the explorer from the CLI. (The
// lab part is test/browser/seventh-loop.test.ts.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from './workspace';
import { ROOT, loopFiles, patchedFiles, seventhLoopWorkspace } from './workspace';

const LOOP = 'thermostat';

/** The paths "Adding a loop" names, `<loop>` standing for the loop's id. */
function listedPaths(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = /^## Adding a loop\n([\s\S]*?)^## /m.exec(doc)?.[1] ?? '';
  return [...section.matchAll(/`([\w./<>*-]+\/[\w./<>*-]+)`/g)].map((m) => m[1]!);
}
/** A listed path as a pattern: `<loop>` the loop's id, `*` a name's part, a folder (ending in /) anything under it. */
const asPattern = (listed: string) =>
  new RegExp(
    `^${listed
      .replace(/[.]/g, '\\.')
      .replace(/\*/g, '[\\w-]*')
      .replace(/<loop>/g, LOOP)}${listed.endsWith('/') ? '.+' : ''}$`,
  );

/** Source files parsed so far, by path and text. */
const parsed = new Map<string, ts.SourceFile>();

/** Type errors of `files` (all when omitted) in the workspace, each file read through `read`. */
function typeErrors(dir: string, read: (file: string) => string | undefined, files?: readonly string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(dir, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.json: not readable');
  const host = ts.createCompilerHost(config.options);
  host.readFile = (file) => read(file) ?? ts.sys.readFile(file);
  // Each program differs from the others in one file: the rest are parsed once and shared, as an editor's do.
  host.getSourceFile = (file, language) => {
    const text = host.readFile(file);
    if (text === undefined) return undefined;
    const key = `${file}\u0000${text}`;
    let source = parsed.get(key);
    if (!source) {
      source = ts.createSourceFile(file, text, language);
      parsed.set(key, source);
    }
    return source;
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const sources = files ? files.map((f) => program.getSourceFile(join(dir, f))).filter((s) => s !== undefined) : program.getSourceFiles();
  return sources
    .flatMap((s) => [...program.getSyntacticDiagnostics(s), ...program.getSemanticDiagnostics(s)])
    .map((d) => `${d.file ? d.file.fileName.slice(dir.length + 1) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

function cli(dir: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(join(dir, 'cli/loopscope'), args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a seventh loop, added by following ARCHITECTURE.md', () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = seventhLoopWorkspace();
  }, 60_000);
  afterAll(() => ws?.remove());

  it('puts its files and its registry entries only where "Adding a loop" says', () => {
    const patterns = listedPaths().map(asPattern);
    expect(patterns.length).toBeGreaterThan(5);
    for (const file of [...loopFiles(), ...patchedFiles()]) {
      expect(
        patterns.some((p) => p.test(file)),
        `${file} is not a place "Adding a loop" lists`,
      ).toBe(true);
    }
  });

  it('compiles, strict, with the whole project (tests included)', () => {
    expect(typeErrors(ws.dir, () => undefined)).toEqual([]);
  }, 180_000);

  // Each registry is completed by the compiler: leaving the loop out of any one of them is an error
  // that names the loop (the registry read as it is in the repository, everything else added).
  for (const registry of patchedFiles()) {
    it(`the compiler names the loop when it is left out of ${registry}`, () => {
      const original = readFileSync(join(ROOT, registry), 'utf8');
      const errors = typeErrors(ws.dir, (file) => (file === join(ws.dir, registry) ? original : undefined), [
        ...patchedFiles(),
        ...loopFiles().filter((f) => f.endsWith('.ts') || f.endsWith('.tsx')),
      ]);
      expect(
        errors.filter((e) => e.includes(`'${LOOP}'`) || e.includes(`"${LOOP}"`)),
        errors.join('\n'),
      ).not.toEqual([]);
    }, 120_000);
  }

  it('runs in the simulator: the room is heated into its band and back after a draught', () => {
    const r = cli(ws.dir, ['sim', 'scenarios/thermostat-morning.yaml', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const trace = JSON.parse(r.stdout) as {
      loop: string;
      frames: { t: number; state: string; world: { temperatureC: number; heaterOn: boolean } }[];
    };
    expect(trace.loop).toBe(LOOP);
    const temperatures = (fromMin: number, toMin: number) =>
      trace.frames.filter((f) => f.t >= fromMin * 60_000 && f.t < toMin * 60_000).map((f) => f.world.temperatureC);
    // Set point 20 °C, hysteresis 1: the band is 19–21; a reading every 31 s of a room that moves a degree a minute keeps it within a degree of the band.
    expect(temperatures(0, 1)).toContain(14);
    expect(Math.min(...temperatures(10, 40))).toBeGreaterThanOrEqual(18);
    expect(Math.max(...temperatures(0, 60))).toBeLessThanOrEqual(22);
    expect(Math.min(...temperatures(40, 41))).toBe(16);
    expect(Math.min(...temperatures(50, 60))).toBeGreaterThanOrEqual(18);
    // comparing passes in no time (an always transition): frames are taken in the states the loop rests in.
    expect(new Set(trace.frames.map((f) => f.state))).toEqual(new Set(['observing', 'acting', 'waiting']));
  }, 120_000);

  it('runs in the explorer: a slow thermostat overshoots its band (a finding with its counterexample)', () => {
    const r = cli(ws.dir, ['check', 'scenarios/thermostat-check-overshoot.yaml']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✗ always +within-a-degree +violated after \d+ steps \(not promised\)/);
    expect(r.stdout).toMatch(/✓ eventually settles .*\(promised\)/);
    expect(r.stdout).toMatch(/## shortest counterexample: within-a-degree\n# thermostat · scenario thermostat-check-overshoot/);
  }, 120_000);

  it('runs in the explorer: a fast one holds the band through a draught', () => {
    const r = cli(ws.dir, ['check', 'scenarios/thermostat-check-draught.yaml']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/environment moves .*: draught −3 °C/);
    expect(r.stdout).toMatch(/states: \d+ generated, \d+ distinct, depth \d+ \(complete\)/);
    expect(r.stdout).toMatch(/✓ always +within-a-degree +holds in all \d+ states/);
    expect(r.stdout).toMatch(/result: every promised property holds \(0 violated, 0 unknown, 0 findings/);
  }, 120_000);
});
