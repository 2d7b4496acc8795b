// Fuzz of every file the command line reads: shipped scenarios and hpa.yaml, mutated (truncated,
// lines dropped or doubled, values replaced by hostile ones: huge, negative, 100 KB, aliases,
// alias bombs, binary), fed to `sim`, `check` and `real systemd-unit --config` (which validates
// an hpa.yaml completely without a daemon). Every outcome must be an answer: exit 0/2 (sim may
// also stop at its frame bound: 3; check may find a violation: 1, or reach a bound: 3), each
// stderr line one problem ("loopscope: " + the file or option), no stack trace, no internal
// error, and bounded time. In-process (cli/run.ts) so 300 cases take seconds; a sample is also
// run as real processes. Fixed seed; LOOPSCOPE_FUZZ_RUNS=N for more, LOOPSCOPE_FUZZ_SEED=S for another.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runInProcess } from './in-process';
import type { CliResult } from './in-process';

const RUNS = Number(process.env.LOOPSCOPE_FUZZ_RUNS ?? 300);
const SEED = Number(process.env.LOOPSCOPE_FUZZ_SEED ?? 20261125);
const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-fuzz-'));

const SCENARIOS = [
  'talk-lab',
  'incus-hpa-check-small',
  'systemd-crash-loop',
  'systemd-restart-check-restart-sec',
  'cron-normal',
  'puppet-webserver',
  'terraform-drift',
  'kubernetes-check-replicaset',
  'unowned-neighbour',
];
const seeds = [
  ...SCENARIOS.map((name) => ({ kind: 'scenario' as const, name, text: readFileSync(join(ROOT, 'scenarios', `${name}.yaml`), 'utf8') })),
  { kind: 'config' as const, name: 'hpa', text: readFileSync(join(ROOT, 'scenarios/hpa.yaml'), 'utf8') },
];

/** Values a careless or hostile file may hold. */
const HOSTILE = [
  '0',
  '-1',
  '1',
  '1e30',
  '1000000000',
  '100000d',
  '24.9d',
  '0.5',
  '""',
  '[]',
  '{}',
  'null',
  '~',
  'true',
  '*nope',
  `"${'x'.repeat(100_000)}"`,
  'x'.repeat(5_000),
  '"\\u0000"',
  '1ms',
  '30d',
  '99999999999999999999',
  'NaN',
  '.inf',
  '-.inf',
  '!!binary AAAA',
  '&a [*a]',
  '"%n$HOME"',
  '💥',
];
const BOMB =
  'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';

type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'dropLine' | 'doubleLine'; line: number }
  | { op: 'value'; line: number; value: string }
  | { op: 'insert'; at: number; text: string }
  | { op: 'bomb' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constantFrom('dropLine' as const, 'doubleLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('value' as const), line: fc.nat(), value: fc.constantFrom(...HOSTILE) }),
  fc.record({ op: fc.constant('value' as const), line: fc.nat(), value: fc.string({ maxLength: 12 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ maxLength: 8, unit: 'binary' }) }),
  fc.record({ op: fc.constant('bomb' as const) }),
);

/** Applies a mutation to YAML text (lines are picked among the non-comment ones). */
function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const content = lines
    .map((l, i) => [l, i] as const)
    .filter(([l]) => l.trim() && !l.trim().startsWith('#'))
    .map(([, i]) => i);
  const pick = (n: number) => content[n % Math.max(1, content.length)] ?? 0;
  switch (m.op) {
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'dropLine': {
      const i = pick(m.line);
      return [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
    }
    case 'doubleLine': {
      const i = pick(m.line);
      return [...lines.slice(0, i + 1), lines[i]!, ...lines.slice(i + 1)].join('\n');
    }
    case 'value': {
      // The value after the last "key:" on the line (or a list item's), else the whole line.
      const i = pick(m.line);
      const line = lines[i]!;
      const next = /:\s*\S/.test(line) ? line.replace(/(:\s*)[^:]*$/, `$1${m.value}`) : `${line.match(/^\s*-?\s*/)![0]}${m.value}`;
      return [...lines.slice(0, i), next, ...lines.slice(i + 1)].join('\n');
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'bomb':
      return `${BOMB}${text}`;
  }
}

const MAX_CASE_MS = 20_000;

/** What every answer must look like, whatever the input. */
function expectAnswer(r: CliResult, allowed: number[], file: string): void {
  const context = `exit ${r.code}, stderr: ${r.stderr.slice(0, 400)}`;
  expect(allowed, context).toContain(r.code);
  expect(r.stderr, context).not.toMatch(/^\s+at /m); // no stack trace
  expect(r.stderr, context).not.toMatch(/internal error/);
  const lines = r.stderr.split('\n').filter((l) => l.length > 0);
  for (const line of lines) {
    expect(line.length, context).toBeLessThan(700); // values are shortened
    if (r.code === 2) expect(line, context).toMatch(/^(loopscope: |error: )/); // ours, or commander's one-line usage error
  }
  if (r.code === 2) {
    expect(lines.length, context).toBeGreaterThan(0);
    expect(lines[0], context).toContain(file); // names the file
  }
  expect(r.ms, context).toBeLessThan(MAX_CASE_MS);
}

let n = 0;
describe('fuzz: every CLI input answers (exit 0/2, one line per problem, no stack trace, bounded time)', () => {
  it(`${RUNS} mutated scenarios and configs (seed ${SEED})`, async () => {
    const counts = { ok: 0, bad: 0, other: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        async (seed, mutations, pick) => {
          const text = mutations.reduce(mutate, seed.text);
          const file = join(dir, `${seed.name}-${n++}.yaml`);
          writeFileSync(file, text);
          let r: CliResult;
          if (seed.kind === 'config') {
            r = await runInProcess(['real', 'systemd-unit', '--config', file]);
            expectAnswer(r, [0, 2], file);
          } else if (pick % 4 === 0 && seed.name.includes('check')) {
            r = await runInProcess(['check', file, '--max-states', '300', '--no-progress']);
            expectAnswer(r, [0, 1, 2, 3], file);
          } else {
            r = await runInProcess(['sim', file, '--max-frames', '400']);
            expectAnswer(r, [0, 2, 3], file);
          }
          if (r.code === 2) counts.bad++;
          else if (r.code === 0) counts.ok++;
          else counts.other++;
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The mutations must reach both sides: rejected and still-valid inputs.
    expect(counts.bad).toBeGreaterThan(RUNS / 10);
    expect(counts.ok).toBeGreaterThan(RUNS / 20);
  }, 600_000);

  it('a sample as real processes (cli/loopscope): the same answers, exit codes from the process', () => {
    const cases: [string, string[]][] = [
      ['alias', ['sim', write('alias.yaml', 'loop: incus-hpa\nconfig: *nope\n')]],
      ['huge', ['sim', write('huge.yaml', `loop: incus-hpa\nname: "${'n'.repeat(100_000)}"\nconfig: { period: ${'9'.repeat(50)} }\n`)]],
      ['period 1', ['real', 'systemd-unit', '--config', write('p1.yaml', 'name: p1\nperiod: 1\n')]],
      ['self alias', ['sim', write('cyc.yaml', 'loop: incus-hpa\nname: &a [*a]\n')]],
    ];
    for (const [name, args] of cases) {
      const t0 = performance.now();
      const r = spawnSync(join(ROOT, 'cli/loopscope'), args, { encoding: 'utf8', timeout: 60_000 });
      const result: CliResult = { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
      expect(r.status, `${name}: ${r.stderr}`).toBe(2);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(result.stderr, name).not.toMatch(/^\s+at /m);
      expect(result.stdout, name).toBe('');
    }
  }, 300_000);
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
