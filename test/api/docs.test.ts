// docs/api.md's examples, run as the page says: the controller module and the policy module with
// their scenarios (sim runs them, check holds on them), and the script, whose output must be the
// output the page shows.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, simulate } from '../../api/index';
import type { CodeBlock } from './doc-examples';
import { apiPageBlocks, ROOT } from './doc-examples';

const TSX = join(ROOT, 'node_modules/tsx/dist/esm/index.mjs');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-api-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let blocks: CodeBlock[];
beforeAll(() => {
  blocks = apiPageBlocks();
  // The script uses top-level await: an ES module, as in the repository.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const b of blocks) if (b.name !== undefined) writeFileSync(join(dir, b.name), b.code);
});

const named = (name: string) => {
  const block = blocks.find((b) => b.name === name);
  if (!block) throw new Error(`docs/api.md: no block whose first line names ${name}`);
  return block;
};

describe('docs/api.md: every example runs as the page says', () => {
  it.each([
    ['the controller module (loopscope/controller)', 'podservice-controller.ts', 'podservice.yaml'],
    ['the policy module (loopscope/policy)', 'step-policy.ts', 'step-policy.yaml'],
  ])(
    '%s: its scenario simulates, and check holds (exit 0)',
    async (_what, module, scenario) => {
      expect(named(scenario).code).toContain(`module: ./${module}`);
      named(module);
      const run = await simulate(join(dir, scenario));
      expect(run.exitCode).toBe(0);
      expect(run.frames.length).toBeGreaterThan(5);
      const result = await check(join(dir, scenario));
      expect(
        result.runs.flatMap((r) =>
          r.verdicts.filter((v) => v.promised && v.outcome !== 'holds').map((v) => `${v.property}: ${v.status} (${v.detail})`),
        ),
      ).toEqual([]);
      expect(result.exitCode).toBe(0);
    },
    120_000,
  );

  it('the script (loopscope) prints what the page shows and exits 1', () => {
    const script = named('check-podservice.ts');
    // The page shows the output in the first untitled block after the script's command.
    const shown = blocks.find((b) => b.line > script.line && b.lang === '' && b.name === undefined);
    expect(shown, 'the output block after the script').toBeDefined();
    // From the repository's root, as the page says: its tsconfig maps 'loopscope' to the sources.
    const r = spawnSync(process.execPath, ['--import', TSX, join(dir, 'check-podservice.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(shown!.code);
    expect(r.status).toBe(1);
  }, 120_000);
});
