// The package as a user gets it: the tarball `npm pack` makes, installed into an empty directory.
// .ci/pack.sh packs once, fills the npm cache with what installing the tarball needs and sets
// LOOPSCOPE_TARBALL and LOOPSCOPE_NPM_OFFLINE=1: the install then reaches no registry (`--offline`).
// Without them (a newcomer's `npm test`) the tarball is packed here from a copy of the working tree
// — never in the clone, whose dist/ other suites may be reading — and installed preferring the cache.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** The exact versions the clone installed: the ones .ci/pack.sh put in the npm cache. */
export const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** Packs a copy of the working tree (tracked and untracked files, not ignored ones); returns the tarball. */
function packCopy(): string {
  const work = mkdtempSync(join(tmpdir(), 'loopscope-pack-'));
  const src = join(work, 'src');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(src, f)), { recursive: true });
    try {
      cpSync(join(ROOT, f), join(src, f));
    } catch {
      /* listed but deleted in the working tree: not part of it */
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'));
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: src, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
  const [packed] = JSON.parse(r.stdout) as { filename: string }[];
  if (!packed) throw new Error('npm pack wrote no tarball');
  return join(work, packed.filename);
}

export const tarball = (): string => process.env.LOOPSCOPE_TARBALL ?? packCopy();

/** An empty project in a temporary directory with `specs` installed (the tarball among them). */
export function installProject(specs: string[], name = 'user-project'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'loopscope-user-')), name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
  install(dir, specs);
  return dir;
}

/** `npm install` in `dir`: offline when .ci/pack.sh filled the cache, else preferring it. */
export function install(dir: string, specs: string[]): void {
  const mode = process.env.LOOPSCOPE_NPM_OFFLINE === '1' ? '--offline' : '--prefer-offline';
  const r = spawnSync('npm', ['install', mode, '--no-audit', '--no-fund', ...specs], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(
      `npm install ${mode} ${specs.join(' ')} failed in ${dir}:\n${r.stderr
        .split('\n')
        .filter((l) => /error/.test(l))
        .join('\n')}`,
    );
}
