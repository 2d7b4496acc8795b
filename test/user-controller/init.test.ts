// `loopscope init controller <dir>`: a module, a scenario and a test that loopscope accepts as they
// are; never overwrites; bad input is exit 2 with one line.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli/run';
import { loadScenario } from '../../sim/loops';

async function cli(...args: string[]) {
  let err = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err += String(s);
    return true;
  });
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await runCli(['node', 'loopscope', ...args]), err };
  } finally {
    spy.mockRestore();
    out.mockRestore();
  }
}

describe('loopscope init controller', () => {
  it('writes a project: a module, a scenario that loads, a package.json on this version, a vitest test', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'loopscope-init-')), 'My Controller');
    expect((await cli('init', 'controller', dir)).code).toBe(0);
    for (const f of ['controller.ts', 'check.yaml', 'check.test.ts', 'package.json', 'tsconfig.json', '.gitignore', 'regressions/.gitkeep'])
      expect(existsSync(join(dir, f)), f).toBe(true);
    const { scenario } = loadScenario(join(dir, 'check.yaml'));
    expect(scenario.name).toBe('my-controller');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const own = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; devDependencies: Record<string, string> };
    expect(manifest.name).toBe('my-controller');
    expect(manifest.devDependencies.loopscope).toBe(`^${own.version}`);
    expect(manifest.devDependencies.vitest).toBe(own.devDependencies.vitest);
    expect(manifest.scripts.test).toBe('vitest run');
    expect(manifest.scripts['check:emit']).toContain('--emit-test regressions');
    expect(readFileSync(join(dir, 'check.test.ts'), 'utf8')).toContain("'check'");
  });

  it('never overwrites, and names what it refuses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-init-'));
    expect((await cli('init', 'controller', dir)).code).toBe(0);
    const again = await cli('init', 'controller', dir);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/^loopscope: init <dir>: expected a directory without .*controller\.ts/);
    const bad = await cli('init', 'operator', dir);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
  });
});
