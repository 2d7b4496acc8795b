// `npm run build` (run by `npm pack` through prepack): the installed package's files, in dist/:
//   dist/lab/              the lab, built by vite (served by `loopscope lab`)
//   dist/lab-single.html   the lab folded into one file (the base of `loopscope export`'s page)
//   dist/node/             the CLI and the library, bundled by esbuild (no tsx, vite or vitest at run time)
//   dist/types/            the public entries' declarations (tsc), for `exports`' "types"
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build as viteBuild } from 'vite';
import { buildSingleFileLab } from '../cli/export/lab-html';
import { bundleNode } from './bundle-node';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
// On stderr: `npm pack --json` runs this (prepack) and prints its JSON on stdout.
const step = (what: string, t0: number) => process.stderr.write(`build: ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);

async function lab(): Promise<void> {
  const t0 = performance.now();
  await viteBuild({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'error' });
  writeFileSync(join(DIST, 'lab-single.html'), await buildSingleFileLab());
  step('lab → dist/lab, dist/lab-single.html', t0);
}

async function node(): Promise<void> {
  const t0 = performance.now();
  await bundleNode(join(DIST, 'node'));
  step('CLI and library → dist/node', t0);
}

/** Declarations of the public entries. tsc writes extensionless relative imports (the project resolves
 * like a bundler); a consumer resolving as Node does (node16/nodenext) needs `./x.js` or `./x/index.js`. */
function types(): void {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`tsc (declarations) failed:\n${r.stdout}${r.stderr}`);
  const out = join(DIST, 'types');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
  for (const file of files(out).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8').replace(
      /(from |import\()(['"])(\.{1,2}\/[^'"]+)\2/g,
      (whole, lead: string, q: string, spec: string) => {
        const target = resolve(dirname(file), spec);
        if (existsSync(`${target}.d.ts`)) return `${lead}${q}${spec}.js${q}`;
        if (existsSync(join(target, 'index.d.ts'))) return `${lead}${q}${spec}/index.js${q}`;
        return whole;
      },
    );
    writeFileSync(file, text);
  }
  step(`declarations → ${relative(ROOT, out)}`, t0);
}

const t0 = performance.now();
rmSync(DIST, { recursive: true, force: true });
await lab();
await node();
types();
step('done', t0);
