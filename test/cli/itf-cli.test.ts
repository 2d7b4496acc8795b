// The command line's ITF: `check --out DIR --trace-format itf` writes <stem>.itf.json files (a
// lasso with ITF's loop), `trace --to itf|json` converts a trace file both ways, and bad input is
// one line on stderr with exit 2 and nothing written. In-process (test/cli/in-process.ts).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAnyTraceText } from '../../sim/itf/read';
import { expectValidItf, itfSchemaProblem } from '../trace/itf-schema';
import { runInProcess } from './in-process';

const TMP = mkdtempSync(join(tmpdir(), 'loopscope-itf-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ORPHAN = 'scenarios/terraform-check-orphan-name.yaml';
const FLAPPING = 'scenarios/incus-hpa-check-flapping.yaml';
const check = (...args: string[]) => runInProcess(['check', ...args, '--workers', '1', '--no-progress']);

/** One line on stderr, naming what is wrong, and no stack trace. */
function expectOneLine(stderr: string, pattern: RegExp): void {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

function expectItfFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  const doc: unknown = JSON.parse(text);
  expectValidItf(doc, path);
  expect(parseAnyTraceText(text).ok, path).toBe(true);
  return doc;
}

describe('check --out DIR --trace-format itf', () => {
  it('writes each counterexample as <stem>.itf.json (and names it in the report)', async () => {
    const out = join(TMP, 'orphan');
    const r = await check(ORPHAN, '--out', out, '--trace-format', 'itf');
    expect(r.code).toBe(1); // the promised `converges` is violated: the scenario's point
    const files = readdirSync(out).sort();
    expect(files).toEqual([
      'terraform-check-orphan-name.converges-after-force-unlock.itf.json',
      'terraform-check-orphan-name.converges.itf.json',
      'terraform-check-orphan-name.no-orphans.itf.json',
    ]);
    for (const f of files) {
      const doc = expectItfFile(join(out, f));
      expect(doc).toMatchObject({ '#meta': { format: 'ITF', source: ORPHAN } });
      expect(r.stdout).toContain(`(trace: ${join(out, f)})`);
    }
  });

  it("a lasso counterexample carries ITF's loop: its trace's cycle start", async () => {
    const out = join(TMP, 'flapping');
    const r = await check(FLAPPING, '--policy', 'seed', '--out', out, '--trace-format', 'itf');
    expect(r.code).toBe(0);
    const doc = expectItfFile(join(out, 'incus-hpa-check-flapping.seed.settles.itf.json'));
    const back = parseAnyTraceText(readFileSync(join(out, 'incus-hpa-check-flapping.seed.settles.itf.json'), 'utf8'));
    if (!back.ok) throw new Error(back.error);
    expect(back.trace.lasso).toBeDefined();
    expect(doc).toMatchObject({ loop: back.trace.lasso!.cycleStart });
    expect(expectItfFile(join(out, 'incus-hpa-check-flapping.seed.no-leftovers.itf.json'))).not.toHaveProperty('loop');
  });

  it("the default stays loopscope's trace JSON", async () => {
    const out = join(TMP, 'default');
    await check(ORPHAN, '--out', out);
    expect(readdirSync(out).every((f) => f.endsWith('.trace.json'))).toBe(true);
  });

  it('a bad value: one line naming the flag and the accepted values, exit 2, nothing written', async () => {
    const out = join(TMP, 'bad-format');
    const r = await check(ORPHAN, '--out', out, '--trace-format', 'tla');
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^loopscope: --trace-format: expected one of json, itf, got "tla"/);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('without --out: exit 2, saying it applies to --out', async () => {
    const r = await check(ORPHAN, '--trace-format', 'itf');
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^loopscope: --trace-format: applies to the traces --out writes/);
  });
});

describe('loopscope trace --to itf|json', () => {
  const traceFile = join(TMP, 'talk-lab.trace.json');
  // Written on first use: one command runs at a time in this process.
  let simmed: Promise<void> | undefined;
  const simOnce = () =>
    (simmed ??= runInProcess(['sim', 'scenarios/talk-lab.yaml', '--until', '10m', '--out', traceFile]).then((r) => {
      if (r.code !== 0) throw new Error(r.stderr);
    }));

  it('converts a trace file to ITF on stdout, or into --out; and back to the same trace file', async () => {
    await simOnce();
    const r = await runInProcess(['trace', '--to', 'itf', traceFile]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc: unknown = JSON.parse(r.stdout);
    expect(itfSchemaProblem(doc)).toBeNull();
    expect(doc).toMatchObject({ '#meta': { format: 'ITF', source: 'talk-lab' } });

    const itfFile = join(TMP, 'talk-lab.itf.json');
    const written = await runInProcess(['trace', '--to', 'itf', traceFile, '--out', itfFile]);
    expect([written.code, written.stdout]).toEqual([0, '']);
    expect(readFileSync(itfFile, 'utf8')).toBe(r.stdout);

    const back = await runInProcess(['trace', '--to', 'json', itfFile]);
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(readFileSync(traceFile, 'utf8'));
  });

  it('bad input: one line naming the file and what was expected, exit 2', async () => {
    const notJson = join(TMP, 'not.json');
    writeFileSync(notJson, 'frames: []\n');
    const notTrace = join(TMP, 'not-trace.json');
    writeFileSync(notTrace, '{"hello":"world"}\n');
    const missing = join(TMP, 'missing.json');
    const cases: [string[], RegExp][] = [
      [
        ['trace', '--to', 'itf', missing],
        new RegExp(`^loopscope: ${missing}: file not found \\(expected a path to a loopscope trace .*or an ITF trace`),
      ],
      [['trace', '--to', 'itf', notJson], new RegExp(`^loopscope: ${notJson}: expected a loopscope trace .*, got text that is not JSON`)],
      [
        ['trace', '--to', 'itf', notTrace],
        new RegExp(`^loopscope: ${notTrace}: expected a loopscope trace .*: loop: expected one of cron, puppet`),
      ],
      [['trace', '--to', 'tla', notTrace], /^loopscope: --to: expected one of itf, json, got "tla"/],
      [['trace', notTrace], /--to/],
    ];
    for (const [args, pattern] of cases) {
      const r = await runInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expectOneLine(r.stderr, pattern);
    }
  });

  it('an --out that cannot be written: exit 2, naming it', async () => {
    await simOnce();
    const r = await runInProcess(['trace', '--to', 'itf', traceFile, '--out', join(TMP, 'no-such-dir', 'x.itf.json')]);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^loopscope: --out: expected a file that can be written, got ".*no-such-dir.*" \(ENOENT\)/);
  });
});
