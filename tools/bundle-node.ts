// The CLI and the library bundled by esbuild for Node (no tsx, vite or vitest at run time): what the
// package ships in dist/node (tools/build.ts) and what the benchmarks time (bench/compiled-cli.ts).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build as esbuild } from 'esbuild';
import type { CompiledFacts } from '../sim/compiled';
import { transpile } from '../sim/user-controller/isolate';
import { CLI_ENTRY, PUBLIC_ENTRIES, WORKER_ENTRY } from './entries';

const ROOT = resolve(import.meta.dirname, '..');

/** Bundles the public entries, the CLI (`<outDir>/loopscope.js`, executable) and the explorer's worker into `outDir`.
 * Packages stay external: `outDir` must be where Node finds this project's node_modules (inside the project). */
export async function bundleNode(outDir: string): Promise<string> {
  const api = (file: string) => transpile(readFileSync(join(ROOT, file), 'utf8'), file, 'ts');
  const facts: CompiledFacts = {
    sandboxApis: { controller: api('sim/user-controller/api.ts'), policy: api('sim/user-controller/policy-api.ts') },
  };
  const entryPoints = Object.fromEntries([
    ...PUBLIC_ENTRIES.map((e) => [e.out, e.source]),
    [CLI_ENTRY.out, CLI_ENTRY.source],
    [WORKER_ENTRY.out, WORKER_ENTRY.source],
  ]);
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    chunkNames: 'chunk-[hash]',
    minifySyntax: true,
    define: { LOOPSCOPE_COMPILED: JSON.stringify(facts), LOOPSCOPE_BUNDLED: 'true' },
  });
  // The bin: a node shebang (npm links it and sets the executable bit on install; set it here for the clone).
  const bin = join(outDir, `${CLI_ENTRY.out}.js`);
  writeFileSync(bin, `#!/usr/bin/env node\n${readFileSync(bin, 'utf8')}`);
  chmodSync(bin, 0o755);
  return bin;
}
