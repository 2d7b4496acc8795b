// `loopscope check` for automation: exit codes, --format text|json|junit (validated against a JUnit
// schema with xmllint), --emit-test (the emitted test fails, then passes once the policy is fixed),
// --table, bad options. The CLI runs as a real process, as CI would call it.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { registerCheck } from '../../cli/check-command';
import { checkScenario } from '../../sim/check/check';
import { xmlAttr, xmlText } from '../../sim/check/junit';
import { formatTimeline } from '../../sim/format';
import { loadScenario } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { requires } from '../prerequisites';

const ROOT = resolve(import.meta.dirname, '../..');
const SMALL = 'scenarios/incus-hpa-check-small.yaml';
const SCHEMA = join(ROOT, 'test/fixtures/junit.xsd');
const withXmllint = await requires('xmllint');

const TMP = mkdtempSync(join(tmpdir(), 'loopscope-check-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

// Child processes must not inherit this vitest's worker variables (a nested vitest would read them).
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
const env = { ...childEnv, NO_COLOR: '1', FORCE_COLOR: '0' };

function cli(...args: string[]) {
  const r = spawnSync(join(ROOT, 'cli/loopscope'), ['check', ...args], { cwd: ROOT, encoding: 'utf8', env, maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, without waiting: several quick ones (bad input) run side by side. */
function cliAsync(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(
      join(ROOT, 'cli/loopscope'),
      ['check', ...args],
      { cwd: ROOT, encoding: 'utf8', env },
      (_error, stdout, stderr) => {
        done({ code: child.exitCode, stdout, stderr });
      },
    );
  });
}

/** Runs once, on first use: several tests read the same run. */
function once<T>(f: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: f() }).v;
}

function xmllint(...args: string[]) {
  const r = spawnSync('xmllint', args, { encoding: 'utf8' });
  if (r.error) throw new Error(`xmllint: ${r.error.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function validate(xml: string, name: string) {
  const file = join(TMP, name);
  writeFileSync(file, xml);
  return xmllint('--noout', '--schema', SCHEMA, file);
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const seedJson = once(() =>
  cli(SMALL, '--policy', 'seed', '--format', 'json', '--out', join(TMP, 'seed-traces'), '--emit-test', join(TMP, 'seed-tests')),
);
const tableJunit = once(() => cli(SMALL, '--table', '--within', '1', '--format', 'junit'));
const fixedTight = once(() => cli(SMALL, '--policy', 'fixed', '--within', '1', '--format', 'json'));

describe('exit codes', () => {
  it('0: every promised property holds', () => {
    const r = cli(SMALL, '--policy', 'fixed');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✓ always {5}never-touches-unowned .*\(promised\)$/m);
    expect(r.stdout).toMatch(/^result: every promised property holds \(0 violated, 0 unknown, 0 findings .*\) · exit 0$/m);
  }, 60_000);

  it('1: a promised property is violated (fixed promises to converge; K = 1 period is too tight)', () => {
    const r = fixedTight();
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { exitCode: number }).exitCode).toBe(1);
  }, 60_000);

  it('3: a bound was reached and nothing promised is violated (--depth here; --max-states under junit)', () => {
    const r = cli(SMALL, '--policy', 'fixed', '--depth', '5');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^\? always {5}never-touches-unowned .*bound reached/m);
    expect(r.stdout).toMatch(/^\? eventually converges\s+undecided for \d+ states at the bound/m);
    expect(r.stdout).toMatch(/^result: a bound was reached before every promised property was decided .* · exit 3$/m);
  }, 60_000);

  it('--help lists the exit codes', () => {
    const r = cli('--help');
    expect(r.code).toBe(0);
    for (const line of [
      /^ {2}0 {2}every promised property holds/m,
      /^ {2}1 {2}a promised property is violated/m,
      /^ {2}2 {2}bad input/m,
      /^ {2}3 {2}unknown: a bound was reached/m,
    ]) {
      expect(r.stdout).toMatch(line);
    }
    expect(r.stdout).toContain('--format <format>');
    expect(r.stdout).toContain('--emit-test <dir>');
    expect(r.stdout).toContain('incus-hpa: seed|kubernetes|fixed');
  }, 30_000);
});

describe('bad input: one line naming the file or option, exit 2, nothing run', () => {
  const aFile = join(TMP, 'a-file');
  writeFileSync(aFile, 'not a directory\n');
  const cases: [string[], RegExp][] = [
    [
      [SMALL, '--policy', 'nope'],
      /^loopscope: --policy: expected one of seed, kubernetes, fixed \(the policies of incus-hpa\), got "nope"$/,
    ],
    [[SMALL, '--format', 'xml'], /^loopscope: --format: expected one of text, json, junit, got "xml"$/],
    [[SMALL, '--table', '--policy', 'seed'], /^loopscope: --table: checks every policy: leave out --policy$/],
    [
      [SMALL, '--out', join(aFile, 'x')],
      /^loopscope: --out: expected a directory that can be created and written, got ".*a-file\/x" \(ENOTDIR\)$/,
    ],
    [
      [SMALL, '--emit-test', aFile],
      /^loopscope: --emit-test: expected a directory that can be created and written, got ".*a-file" \(EEXIST\)$/,
    ],
    [['scenarios/no-such-file.yaml'], /^loopscope: scenarios\/no-such-file\.yaml: /],
  ];
  it('each case', async () => {
    const results = await Promise.all(cases.map(([args]) => cliAsync(...args)));
    results.forEach((r, i) => {
      const [args, message] = cases[i]!;
      const what = args.join(' ');
      expect(r.code, what).toBe(2);
      expect(r.stdout, what).toBe('');
      expect(r.stderr.trimEnd(), what).toMatch(message);
      expect(r.stderr, what).not.toMatch(/^\s+at /m); // no stack trace
    });
  }, 60_000);
});

describe('--format json', () => {
  it('one object per run: verdicts with status, detail, promised; counterexamples as trace files (--out) and emitted tests', () => {
    const r = seedJson();
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      exitCode: number;
      runs: {
        scenario: string;
        loop: string;
        policy: string;
        outcome: string;
        stats: { distinct: number; complete: boolean };
        verdicts: {
          property: string;
          status: string;
          promised: boolean;
          outcome: string;
          detail: string;
          settleMs?: number | null;
          path?: string[];
        }[];
        counterexamples: { property: string; promised: boolean; steps: string[]; traceFile?: string; testFile?: string; trace?: Trace }[];
      }[];
    };
    expect(doc.exitCode).toBe(0);
    expect(doc.runs).toHaveLength(1);
    const run = doc.runs[0]!;
    expect(run).toMatchObject({ scenario: 'incus-hpa-check-small', loop: 'incus-hpa', policy: 'seed', outcome: 'holds' });
    expect(run.stats.complete).toBe(true);
    expect(run.stats.distinct).toBeGreaterThan(1000);
    const verdict = (name: string) => run.verdicts.find((v) => v.property === name)!;
    expect(verdict('never-touches-unowned')).toMatchObject({
      status: 'violated',
      promised: false,
      outcome: 'finding',
      detail: 'violated after 2 steps',
      path: ['tick', 'tick'],
    });
    expect(verdict('one-operation-at-a-time')).toMatchObject({ status: 'holds', promised: true, outcome: 'holds' });
    expect(verdict('converges')).toMatchObject({ status: 'violated', settleMs: null }); // never settles
    expect(run.counterexamples.map((c) => c.property)).toEqual(['never-touches-unowned', 'at-most-max', 'converges', 'no-leftovers']);
    for (const ce of run.counterexamples) {
      expect(ce.trace).toBeUndefined();
      const trace = JSON.parse(readFileSync(ce.traceFile!, 'utf8')) as Trace;
      expect(trace.frames.some((f) => f.note?.includes(`✗ ${ce.property}`))).toBe(true);
      expect(existsSync(ce.testFile!)).toBe(true);
    }
    expect(run.counterexamples.find((c) => c.property === 'at-most-max')!.steps).toContain('controller restart');
  }, 60_000);

  it('without --out the traces are inline; a promised violation makes exitCode 1', () => {
    const r = fixedTight();
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      exitCode: number;
      runs: { outcome: string; counterexamples: { property: string; promised: boolean; trace?: Trace }[] }[];
    };
    expect(doc.exitCode).toBe(1);
    expect(doc.runs[0]!.outcome).toBe('violated');
    const ce = doc.runs[0]!.counterexamples.find((c) => c.property === 'converges')!;
    expect(ce.promised).toBe(true);
    expect(ce.trace!.frames.some((f) => f.note?.includes('✗ converges: still failing'))).toBe(true);
  }, 60_000);
});

withXmllint.describe('--format junit (validated with xmllint against test/fixtures/junit.xsd)', () => {
  it('the schema rejects what is not a JUnit report (the validation can fail)', () => {
    const bad = [
      '<testsuites><testsuite name="s" tests="1"><testcase classname="c"/></testsuite></testsuites>', // testcase without name
      '<testsuites><testsuite name="s" tests="one"/></testsuites>', // tests not a count
      '<testsuites><testsuite name="s" tests="1"><testcase name="t"><failure/><skipped/></testcase></testsuite></testsuites>', // order
    ];
    bad.forEach((xml, i) => expect(validate(xml, `bad-${i}.xml`).code, xml).not.toBe(0));
  });

  it('--table: one testsuite per policy; promised violations fail with the counterexample timeline, findings pass with system-out', () => {
    const r = tableJunit();
    expect(r.code).toBe(1);
    const v = validate(r.stdout, 'table.xml');
    expect(v.stderr).toContain('validates');
    expect(v.code).toBe(0);
    const suites = [...r.stdout.matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)].map((m) => [m[1], m[2], m[3]]);
    expect(suites).toEqual([
      ['incus-hpa-check-small · policy seed', '7', '0'],
      ['incus-hpa-check-small · policy kubernetes', '7', '1'], // converges (promised); no-leftovers is a finding
      ['incus-hpa-check-small · policy fixed', '7', '2'],
    ]);
    // The failure body carries the same timeline `formatTimeline` prints for the counterexample.
    const { entry, scenario } = loadScenario(SMALL);
    const fixed = checkScenario(entry, scenario, { policy: 'fixed', withinPeriods: 1 });
    const timeline = formatTimeline(fixed.counterexamples.find((c) => c.property === 'converges')!.trace, entry.columns);
    const fixedSuite = r.stdout.slice(r.stdout.indexOf('policy fixed"'));
    const failure = /<testcase name="converges"[^>]*>\s*<failure message="([^"]*)" type="eventually">([^<]*)<\/failure>/.exec(fixedSuite)!;
    expect(unescape(failure[1]!)).toMatch(/^converges: settles only after/);
    expect(unescape(failure[2]!)).toContain(timeline);
    // The seed's violations are findings: the testcase passes and says so.
    const seedSuite = r.stdout.slice(0, r.stdout.indexOf('policy kubernetes"'));
    expect(seedSuite).not.toContain('<failure');
    expect(seedSuite).toMatch(
      /<testcase name="never-touches-unowned"[^>]*>\s*<system-out>finding \(not promised by policy seed\): violated after 2 steps/,
    );
    expect(seedSuite).toMatch(/<testcase name="one-operation-at-a-time"[^>]*\/>/);
  }, 60_000);

  it('a bound reached: unknown properties are skipped, exit 3', () => {
    const r = cli(SMALL, '--policy', 'fixed', '--max-states', '100', '--format', 'junit');
    expect(r.code).toBe(3);
    expect(validate(r.stdout, 'bounded.xml').code).toBe(0);
    expect(r.stdout).toMatch(
      /<testcase name="never-touches-unowned"[^>]*>\s*<skipped message="holds in the 100 states explored \(bound reached\)"\/>/,
    );
    expect(r.stdout).toMatch(/<testcase name="converges"[^>]*>\s*<skipped message="undecided for \d+ states at the bound; [^"]*"\/>/);
    expect(r.stdout).toMatch(/<testsuite [^>]*tests="7" failures="0" errors="0" skipped="6"/);
  }, 60_000);

  it('escapes text and attributes: what xmllint reads back is what was written', () => {
    const nasty = `a <b> & "c" 'd'\n\te\u0001]]>`;
    const file = join(TMP, 'escape.xml');
    writeFileSync(file, `<a b="${xmlAttr(nasty)}">${xmlText(nasty)}</a>`);
    const expected = nasty.replace('\u0001', '\uFFFD'); // not allowed in XML 1.0, even escaped
    // xmllint ends what it prints with a newline of its own.
    expect(xmllint('--xpath', 'string(/a/@b)', file).stdout).toBe(`${expected}\n`);
    expect(xmllint('--xpath', 'string(/a)', file).stdout).toBe(`${expected}\n`);
  });
});

describe('--emit-test', () => {
  it('the emitted tests fail while the seed allows the violations and pass against the fixed policy', () => {
    expect(seedJson().code).toBe(0);
    const dir = join(TMP, 'seed-tests');
    const files = readdirSync(dir).sort();
    expect(files).toEqual(
      ['at-most-max', 'converges', 'never-touches-unowned', 'no-leftovers'].map((p) => `incus-hpa-check-small.seed.${p}.test.ts`),
    );
    const vitest = () => spawnSync(join(ROOT, 'node_modules/.bin/vitest'), ['run', '--root', dir], { cwd: dir, encoding: 'utf8', env });

    const failing = vitest();
    const out = failing.stdout + failing.stderr;
    expect(failing.status, out).toBe(1);
    expect(out).toMatch(/Tests\s+4 failed \(4\)/);
    expect(out).toContain('step 2 (t = 0.1s): never-touches-unowned fails');
    expect(out).toMatch(
      /converges still fails at t = [\d.]+s, [\d.]+s after the environment stopped; it must hold within 4 periods \(60s\)/,
    );

    // "Fix the configuration": the same counterexamples replayed against the fixed policy.
    for (const f of files) {
      const path = join(dir, f);
      const source = readFileSync(path, 'utf8');
      expect(source).toContain('const POLICY: string | undefined = "seed";');
      writeFileSync(path, source.replace('const POLICY: string | undefined = "seed";', 'const POLICY: string | undefined = "fixed";'));
    }
    const passing = vitest();
    expect(passing.status, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).toMatch(/Tests\s+4 passed \(4\)/);
  }, 120_000);
});

describe('--table', () => {
  it('checks every policy the loop declares and prints the findings table', () => {
    const r = cli(SMALL, '--table');
    expect(r.code).toBe(0); // kubernetes' no-leftovers and the seed's violations are findings
    expect(r.stdout.match(/^# check /gm)).toHaveLength(3);
    expect(r.stdout).toContain('| property | kind | seed | kubernetes | fixed |');
    expect(r.stdout).toContain('| no-leftovers | eventually | ✗ (not promised) | ✗ (not promised) | ✓ |');
    // The seed's violations are findings, printed with their counterexamples all the same.
    const seed = r.stdout.slice(0, r.stdout.indexOf('# check incus-hpa-check-small · policy kubernetes'));
    expect(seed).toMatch(/^✗ always {5}never-touches-unowned {4}violated after 2 steps \(not promised\)$/m);
    expect(seed).toMatch(/^✓ always {5}one-operation-at-a-time .*\(promised\)$/m);
    expect(seed).toContain('## shortest counterexample: never-touches-unowned');
    expect(r.stdout).toMatch(
      /^result: every promised property holds \(0 violated, 0 unknown, 5 findings on unpromised properties\) · exit 0$/m,
    );
  }, 60_000);

  it("a loop without policies: one column (the scenario's own config), and --policy is a clear error", async () => {
    // Terraform has no policies: its check scenario is checked as written.
    const terraform = join(ROOT, 'scenarios/terraform-check-orphan-name.yaml');
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const run = async (...args: string[]) => {
      const program = new Command('loopscope').exitOverride();
      registerCheck(program);
      await program.parseAsync(['node', 'loopscope', 'check', ...args]);
    };
    try {
      await run(terraform, '--table');
      await expect(run(terraform, '--policy', 'seed')).rejects.toThrow('--policy: expected no --policy: loop terraform has no policies');
    } finally {
      write.mockRestore();
      process.exitCode = undefined;
    }
    const out = written.join('');
    expect(out.match(/^# check /gm)).toHaveLength(1);
    expect(out).toMatch(/^\| property \| kind \| terraform-check-orphan-name \|$/m); // one column: the scenario's own config
  }, 60_000);
});
