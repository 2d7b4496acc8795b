// The CLI the benchmarks time: bundled by esbuild the way the package ships it (tools/bundle-node.ts),
// so a run's time is the explorer's, not tsx transpiling the sources at start. Built into
// node_modules/.cache (inside the project, so the bundle finds its packages; never tracked).
import { resolve } from 'node:path';
import { bundleNode } from '../tools/bundle-node';

const OUT = resolve(import.meta.dirname, '../node_modules/.cache/loopscope-bench/node');

/** The command that runs the compiled CLI: [node, …/loopscope.js]. */
export async function compiledCli(): Promise<string[]> {
  return [process.execPath, await bundleNode(OUT)];
}

/** The clone's CLI through tsx (cli/loopscope): what a contributor runs, transpiled at every start. */
export const sourceCli = (): string[] => [process.execPath, '--import', 'tsx', resolve(import.meta.dirname, '../cli/main.ts')];
