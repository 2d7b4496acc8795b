import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMPILED } from '../sim/compiled';

/**
 * Where loopscope's own files are: the clone's root when it runs from source (cli/*.ts) or the
 * installed package's root when it runs compiled (dist/node/*.js). The two sit at different depths
 * below the root, so the root is found by walking up to loopscope's package.json rather than by a
 * fixed number of `..`.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'loopscope') return dir;
    if (dirname(dir) === dir) throw new Error(`loopscope's package.json was not found above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(import.meta.dirname);

/** A path inside the package, e.g. packagePath('scenarios'). */
export const packagePath = (...parts: string[]) => join(PACKAGE_ROOT, ...parts);

/** The built lab (vite build of web/, `npm run build`): served by `loopscope lab`. */
export const LAB_DIR = packagePath('dist', 'lab');

/** The package's version (package.json), for --version and `init`'s dependency. */
export const VERSION = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;

/** The words that start this loopscope again (a systemd unit, a scaffolded test): node and the compiled
 * CLI when installed, the clone's launcher (tsx) from source. */
export const LAUNCHER: readonly string[] = COMPILED ? [process.execPath, packagePath('dist', 'node', 'loopscope.js')] : [packagePath('cli', 'loopscope')];
