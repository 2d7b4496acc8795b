// The one gate every suite uses for what the machine must have (test/prerequisites.ts): outside CI a
// missing prerequisite skips and says once why; with CI set it fails with the same reason. The
// last test runs a real vitest on a small test file, with and without CI, with a tool that does not exist.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Prerequisite } from './prerequisites';
import { PREREQUISITES, gate, onPath, prerequisite, whyMissing } from './prerequisites';

const ROOT = resolve(import.meta.dirname, '..');
/** A program no machine has: fresh each run, so no leftover file can make it exist. */
const NO_SUCH_TOOL = `loopscope-no-such-tool-${randomBytes(4).toString('hex')}`;
const absent: Prerequisite = {
  detect: () => (onPath(NO_SUCH_TOOL) ? undefined : `${NO_SUCH_TOOL} missing`),
  install: 'bash .ci/setup-nothing.sh',
};
const present: Prerequisite = { detect: () => undefined, install: 'nothing to do' };
const TMP = mkdtempSync(join(tmpdir(), 'loopscope-prerequisites-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('detecting a prerequisite', () => {
  it('onPath finds an executable in a PATH directory and nothing else', () => {
    expect(onPath(basename(process.execPath), dirname(process.execPath))).toBe(true);
    expect(onPath(NO_SUCH_TOOL)).toBe(false);
    // A directory is not an executable, and an empty PATH entry is not the current directory.
    expect(onPath(basename(dirname(process.execPath)), dirname(dirname(process.execPath)))).toBe(false);
    expect(onPath(basename(process.execPath), '')).toBe(false);
  });

  it('a missing one reads "<what> missing — run <install>"; a present one is undefined', async () => {
    expect(await whyMissing(absent)).toBe(`${NO_SUCH_TOOL} missing — run bash .ci/setup-nothing.sh`);
    expect(await whyMissing(present)).toBeUndefined();
  });

  it("the registry's tools are looked up on PATH, and each says what installs it", async () => {
    expect((await prerequisite('xmllint')) === undefined).toBe(onPath('xmllint'));
    expect((await prerequisite('systemd-analyze')) === undefined).toBe(onPath('systemd-analyze'));
    for (const [name, p] of Object.entries(PREREQUISITES)) expect(p.install, name).toMatch(/\S/);
  });
});

describe('the gate', () => {
  it('outside CI a missing prerequisite skips, naming it and its install', () => {
    const g = gate([undefined, `${NO_SUCH_TOOL} missing — run x`], false);
    expect(g.skip).toBe(true);
    expect(g.missing).toBe(`${NO_SUCH_TOOL} missing — run x`);
  });

  it('with CI a missing prerequisite never skips', () => {
    const g = gate([`${NO_SUCH_TOOL} missing — run x`], true);
    expect(g.skip).toBe(false);
    expect(g.missing).toBe(`${NO_SUCH_TOOL} missing — run x`);
  });

  it('everything present: nothing skips, in CI or not; several missing are all named', () => {
    for (const ci of [false, true]) expect(gate([undefined, undefined], ci)).toMatchObject({ skip: false, missing: undefined });
    expect(gate(['a missing — run x', undefined, 'b missing — run y'], false).missing).toBe('a missing — run x; b missing — run y');
  });
});

interface JsonReport {
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

/** A real vitest on a test file that gates a suite and a test on NO_SUCH_TOOL and a test on a present prerequisite. */
function runGatedFile(ci: boolean) {
  const dir = mkdtempSync(join(TMP, ci ? 'ci-' : 'local-'));
  const module = (file: string) => JSON.stringify(join(ROOT, 'test', file));
  writeFileSync(
    join(dir, 'gated.test.ts'),
    `
import { it } from 'vitest';
import { gate, onPath, whyMissing } from ${module('prerequisites.ts')};
const absent = await whyMissing({ detect: () => (onPath(${JSON.stringify(NO_SUCH_TOOL)}) ? undefined : ${JSON.stringify(`${NO_SUCH_TOOL} missing`)}), install: 'bash .ci/setup-nothing.sh' });
const withAbsent = gate([absent]);
const withPresent = gate([await whyMissing({ detect: () => undefined, install: 'nothing to do' })]);
withAbsent.describe('a suite that needs the tool', () => {
  it('its test', () => { throw new Error('ran without its prerequisite'); });
  it('its other test', () => { throw new Error('ran without its prerequisite'); });
});
withAbsent.it('a test that needs the tool', () => { throw new Error('ran without its prerequisite'); });
withPresent.it('a test whose prerequisite is there', () => {});
`,
  );
  // The child must not see this vitest's worker variables, nor this run's CI flag.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'CI'),
  );
  const report = join(dir, 'report.json');
  const r = spawnSync(
    join(ROOT, 'node_modules/.bin/vitest'),
    ['run', '--root', dir, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: dir, encoding: 'utf8', env: { ...env, NO_COLOR: '1', ...(ci ? { CI: 'true' } : {}) } },
  );
  const json = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  const tests = Object.fromEntries(json.testResults.flatMap((f) => f.assertionResults).map((t) => [t.title, t]));
  return { status: r.status, output: r.stdout + r.stderr, tests };
}

describe('in a real vitest run', () => {
  const reason = `${NO_SUCH_TOOL} missing — run bash .ci/setup-nothing.sh`;

  it('without CI the gated suite and test skip, the reason printed once, and the run passes', () => {
    const { status, output, tests } = runGatedFile(false);
    expect(status, output).toBe(0);
    expect(tests['its test']?.status).toBe('skipped');
    expect(tests['its other test']?.status).toBe('skipped');
    expect(tests['a test that needs the tool']?.status).toBe('skipped');
    expect(tests['a test whose prerequisite is there']?.status).toBe('passed');
    expect(output.split(reason).length - 1, output).toBe(1);
    expect(output).toContain(`skipped: ${reason} ("a suite that needs the tool" and whatever else in this file needs it)`);
  }, 60_000);

  it('with CI=true the gated suite and test fail with the reason, nothing skips, and the run fails', () => {
    const { status, output, tests } = runGatedFile(true);
    expect(status, output).toBe(1);
    expect(Object.values(tests).map((t) => t.status)).not.toContain('skipped');
    // The suite's body never runs (no lab started, no daemon touched): one failing test stands for it.
    expect(tests['its test']).toBeUndefined();
    expect(tests['has its prerequisites']?.status).toBe('failed');
    expect(tests['has its prerequisites']?.failureMessages.join('\n')).toContain(reason);
    expect(tests['a test that needs the tool']?.status).toBe('failed');
    expect(tests['a test that needs the tool']?.failureMessages.join('\n')).toContain(
      `${reason} (CI is set: a missing prerequisite fails, it never skips)`,
    );
    expect(tests['a test whose prerequisite is there']?.status).toBe('passed');
    expect(output).not.toContain('skipped: ');
  }, 60_000);
});
