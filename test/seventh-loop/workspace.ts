// A copy of the repository with a seventh loop added the way docs/ARCHITECTURE.md's "Adding a loop"
// says: the loop's own files (test/seventh-loop/files/, laid out at the paths the list names) and
// one entry in each registry (test/seventh-loop/registries.patch). The copy is made from the tracked
// files, so the tests never touch the repository itself; node_modules is linked, not copied.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const FILES = join(ROOT, 'test/seventh-loop/files');
export const PATCH = join(ROOT, 'test/seventh-loop/registries.patch');

/** The files the patch changes: the registries, one entry each. */
export function patchedFiles(): string[] {
  return [...readFileSync(PATCH, 'utf8').matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((m) => m[1]!);
}

/** The loop's own new files, relative to the repository's root. */
export function loopFiles(): string[] {
  return readdirSync(FILES, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(FILES, join(e.parentPath, e.name)))
    .sort();
}

export interface Workspace {
  dir: string;
  remove(): void;
}

/** The repository's tracked files in a fresh directory, the seventh loop's files copied in and the registries patched. */
export function seventhLoopWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'loopscope-seventh-loop-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  cpSync(FILES, dir, { recursive: true });
  // git apply works outside a repository as a plain patch tool; it refuses a hunk whose context moved.
  execFileSync('git', ['apply', '--whitespace=nowarn', PATCH], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
