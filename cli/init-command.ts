import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { MANIFEST, packagePath, VERSION } from './package-root';
import { UsageError } from './usage';

/**
 * `loopscope init controller <dir>`: a project of its own around a controller module to edit (the
 * shipped PodService example) — a check scenario, a package.json that depends on this loopscope,
 * and an `npm test` (vitest) that runs the check and every regression test `check --emit-test`
 * wrote into regressions/. The fastest way from "I have a reconcile" to "it holds on these bounds,
 * or here is the shortest trace" — and to keep it so in CI.
 */

/** The vitest (and Node types) the project's own tests use: the ones loopscope's emitted tests are written for. */
function devRange(name: 'vitest' | '@types/node'): string {
  const range = MANIFEST.devDependencies?.[name];
  if (range === undefined) throw new Error(`loopscope's package.json names no ${name}`);
  return range;
}

/** npm's package name rules: lower case, no spaces; the directory's name when it fits. */
const packageName = (dir: string) =>
  basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '') || 'my-controller';

function files(dir: string): Record<string, string> {
  const controller = readFileSync(packagePath('examples/podservice/controller.ts'), 'utf8').replace(
    /^\/\/ {2}loopscope check .*\n(\/\/ {2}loopscope check .*\n)*/m,
    '//   npx loopscope check check.yaml\n',
  );
  const scenario = readFileSync(packagePath('examples/podservice/check.yaml'), 'utf8')
    .replace(/^#.*\n/gm, '')
    .replace(/^name: .*$/m, `name: ${packageName(dir)}`);
  return {
    'package.json': `${JSON.stringify(
      {
        name: packageName(dir),
        version: '0.0.0',
        private: true,
        type: 'module',
        scripts: {
          test: 'vitest run',
          check: 'loopscope check check.yaml',
          // A counterexample becomes a regression test: it fails until the controller is fixed, then guards the fix.
          'check:emit': 'loopscope check check.yaml --out counterexamples --emit-test regressions',
          lab: 'loopscope lab check.yaml',
        },
        devDependencies: { '@types/node': devRange('@types/node'), loopscope: `^${VERSION}`, vitest: devRange('vitest') },
      },
      null,
      2,
    )}\n`,
    'controller.ts': controller,
    'check.yaml': `# Your controller (controller.ts) against the simulated control plane. The timeline is what the
# environment MAY do during \`loopscope check\`: each entry at any instant, in any order, or never.
${scenario}`,
    'check.test.ts': `// npm test: the controller keeps its promises on check.yaml (else the shortest trace is printed),
// and every test in regressions/ (written by \`npm run check:emit\`) replays a counterexample found before.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const loopscope = join(dirname(createRequire(import.meta.url).resolve('loopscope/package.json')), 'dist/node/loopscope.js');
const here = dirname(fileURLToPath(import.meta.url));

it('the controller keeps its promises on check.yaml', () => {
  const r = spawnSync(process.execPath, [loopscope, 'check', join(here, 'check.yaml')], { encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
}, 120_000);
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['*.ts', 'regressions'],
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules/\ncounterexamples/\n',
    'regressions/.gitkeep': '',
  };
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'scaffold a starting point: `init controller <dir>` writes a project (package.json, a controller module, a check scenario, an npm test)',
    )
    .argument('<what>', 'what to scaffold: controller')
    .argument('<dir>', 'directory to write into (created if missing; existing files are never overwritten)')
    .action((what: string, dir: string) => {
      if (what !== 'controller') throw new UsageError('init <what>', `expected "controller", got ${JSON.stringify(what.slice(0, 40))}`);
      const out = files(dir);
      const clash = Object.keys(out)
        .map((f) => join(dir, f))
        .filter((f) => existsSync(f));
      if (clash.length)
        throw new UsageError('init <dir>', `expected a directory without ${clash.join(', ')} (they exist; nothing was written)`);
      for (const [name, text] of Object.entries(out)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text, { flag: 'wx' });
      }
      process.stdout.write(`wrote ${dir}: ${Object.keys(out).join(', ')}\nnext: cd ${dir} && npm install && npm test\n`);
    });
}
