// The sandbox's cases (module-cases.ts) through the CLI run from source; test/package runs them again
// through the installed package's compiled CLI.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_CASES, runModuleCase } from './module-cases';

const CLI = join(import.meta.dirname, '../../cli/loopscope');
const DIR = mkdtempSync(join(tmpdir(), 'loopscope-module-cli-'));

describe('user modules through the CLI (from source)', () => {
  MODULE_CASES.forEach((c, i) => {
    it(
      c.name,
      () => {
        const r = runModuleCase([CLI], c, join(DIR, String(i)));
        expect(r.code, r.output).toBe(c.exit);
        expect(r.output).toContain(c.says);
        expect(r.output).not.toMatch(/\n\s+at .*:\d+:\d+/); // never a stack trace
      },
      120_000,
    );
  });
});
