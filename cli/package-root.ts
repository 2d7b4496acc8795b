import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMPILED } from '../sim/compiled';

/** What the CLI reads of loopscope's own package.json. */
export interface Manifest {
  name?: unknown;
  version: string;
  devDependencies?: Record<string, string>;
}

/**
 * Where loopscope's own files are: the clone's root when it runs from source (cli/*.ts) or the
 * installed package's root when it runs compiled (dist/node/*.js). The two sit at different depths
 * below the root, so the root is found by walking up to loopscope's package.json rather than by a
 * fixed number of `..`; the manifest read there is kept (version, init's ranges) rather than read again.
 */
function findRoot(from: string): { root: string; manifest: Manifest } {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest; // cast: unchecked: trusts the package.json found to have the manifest's shape; only its name is compared here
      if (manifest.name === 'loopscope') return { root: dir, manifest };
    }
    if (dirname(dir) === dir) throw new Error(`loopscope's package.json was not found above ${from}`);
  }
}

const found = findRoot(import.meta.dirname);

export const PACKAGE_ROOT = found.root;

/** loopscope's package.json. */
export const MANIFEST: Manifest = found.manifest;

/** A path inside the package, e.g. packagePath('scenarios'). */
export const packagePath = (...parts: string[]) => join(PACKAGE_ROOT, ...parts);

/** The built lab (vite build of web/, `npm run build`): served by `loopscope lab`. */
export const LAB_DIR = packagePath('dist', 'lab');

/** The package's version, for --version and `init`'s dependency. */
export const VERSION = MANIFEST.version;

/** The words that start this loopscope again (a systemd unit, a scaffolded test): node and the compiled
 * CLI when installed, the clone's launcher (tsx) from source. */
export const LAUNCHER: readonly string[] = COMPILED
  ? [process.execPath, packagePath('dist', 'node', 'loopscope.js')]
  : [packagePath('cli', 'loopscope')];
