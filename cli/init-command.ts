import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from './usage';

/**
 * `loopscope init controller <dir>`: a controller module to edit (the shipped PodService example),
 * a check scenario for it and a test (node:test) that runs `loopscope check` on it — the fastest
 * way from "I have a reconcile" to "it holds on these bounds, or here is the shortest trace".
 */

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'cli/loopscope');

function files(): Record<string, string> {
  const controller = readFileSync(join(ROOT, 'examples/podservice/controller.ts'), 'utf8')
    .replace(/^\/\/ {2}loopscope check .*$/m, '//   loopscope check check.yaml');
  const scenario = readFileSync(join(ROOT, 'examples/podservice/check.yaml'), 'utf8')
    .replace(/^#.*\n/gm, '')
    .replace(/^name: .*$/m, 'name: my-controller');
  return {
    'controller.ts': controller,
    'check.yaml': `# Your controller (controller.ts) against the simulated control plane. The timeline is what the
# environment MAY do during \`loopscope check\`: each entry at any instant, in any order, or never.
${scenario}`,
    'controller.test.mjs': `// Run with: node --test controller.test.mjs — fails with the shortest trace when a promise breaks.
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the controller keeps its promises on check.yaml', () => {
  const r = spawnSync(${JSON.stringify(CLI)}, ['check', new URL('./check.yaml', import.meta.url).pathname], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
`,
  };
}

export function registerInit(program: Command): void {
  program.command('init')
    .description('scaffold a starting point: `init controller <dir>` writes a controller module, a check scenario and a test')
    .argument('<what>', 'what to scaffold: controller')
    .argument('<dir>', 'directory to write into (created if missing; existing files are never overwritten)')
    .action((what: string, dir: string) => {
      if (what !== 'controller') throw new UsageError('init <what>', `expected "controller", got ${JSON.stringify(what.slice(0, 40))}`);
      const out = files();
      const clash = Object.keys(out).map((f) => join(dir, f)).filter((f) => existsSync(f));
      if (clash.length) throw new UsageError('init <dir>', `expected a directory without ${clash.join(', ')} (they exist; nothing was written)`);
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(out)) writeFileSync(join(dir, name), text, { flag: 'wx' });
      process.stdout.write(`wrote ${Object.keys(out).map((f) => join(dir, f)).join(', ')}\nnext: loopscope check ${join(dir, 'check.yaml')}\n`);
    });
}
