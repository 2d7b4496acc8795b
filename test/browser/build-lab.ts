// The browser project's global setup: the lab built once, as `npm run build` builds it (the project's
// vite config), into a temporary folder that every browser file serves (harness.ts startLab). One
// bundle per page load instead of a dev server transforming hundreds of modules on every visit, and the
// page tested is the one users get from `loopscope lab`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

const ROOT = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    labDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'loopscope-test-lab-'));
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    root: join(ROOT, 'web'),
    logLevel: 'error',
    build: { outDir: dir, emptyOutDir: true },
  });
  project.provide('labDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
