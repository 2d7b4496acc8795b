// A user's HPA policy module (`policy: { module }`, examples/hpa-policy): it runs in sim and check
// like a built-in policy, deterministically, sandboxed as controller modules are; the explorer
// finds the planted bug with its shortest trace and proves the fixed policy on the same bounds;
// a module that throws, hangs or answers garbage is a clear message, never a crash of loopscope.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScenarioAsync } from '../../sim/check/check';
import { loadScenario, runnerFor } from '../../sim/loops';
import { parseTrace } from '../../sim/trace-schema';
import { controllerOf } from '../../sim/trace';
import { InputError } from '../../sim/scenario/errors';
import { EMPTY_POLICY_MEMORY, DEFAULT_CONFIG } from '../../machines/incus-hpa';
import { loadPolicySandbox } from '../../sim/user-controller/policy-sandbox';
import { keySafety } from '../contract/key-safety';
import { Stepper } from '../../sim/step';
import type { JsonValue } from '../../machines/incus-hpa';
import { checkFile, movesOf } from '../check/check-file';
import { keyText } from '../../sim/check/key-writer';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'cli/loopscope');
const DIR = mkdtempSync(join(tmpdir(), 'loopscope-policy-module-'));
let n = 0;

/** A module file and a scenario using it (1 pod, demand high at 1m). */
function scenarioWith(source: string, extra = ''): string {
  const id = n++;
  writeFileSync(join(DIR, `p${id}.ts`), source);
  const file = join(DIR, `s${id}.yaml`);
  writeFileSync(
    file,
    `loop: incus-hpa\nname: pm${id}\nseed: 1\nduration: 3m\nconfig:\n  HPA: { minPods: 1, maxPods: 3, memoryThreshold: 50 }\n  policy: { module: ./p${id}.ts }\n` +
      `  backoff: { initial: 1s, max: 30s }\nworld:\n  instances: [ { name: pod-a } ]\ntimeline:\n  - { at: 1m, demand: 2500MB }\n${extra}`,
  );
  return file;
}

/** Keeps pods as they are; `hot` is what it does once a pod uses over 500 MB (after the demand at 1m). */
const keep = (hot: string) => `export const policy = ({ observation, memory }) => {
  if (observation.instances.some((i) => i.memoryUsage > 500e6)) { ${hot} }
  return { running: 1, averagePercent: null, desired: 1, actions: [], comparison: 'cool', verdict: 'keep', memory };
};`;

function sandboxError(source: string): string {
  writeFileSync(join(DIR, `b${n}.ts`), source);
  try {
    const box = loadPolicySandbox(join(DIR, `b${n++}.ts`), 'module:b.ts', 'scenario.yaml', 'config.policy.module', 200);
    box.decide({ observation: { at: 0, instances: [] }, config: DEFAULT_CONFIG, memory: EMPTY_POLICY_MEMORY });
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('expected the module to be refused');
}

const notesOf = (file: string) => {
  const { runner, scenario } = runnerFor(file);
  runner.run(scenario.durationMs);
  return runner.trace().frames.flatMap((f) => (f.note ? [f.note] : []));
};

describe('an HPA policy module in the simulator (examples/hpa-policy)', () => {
  it('same seed, byte-identical trace; the trace names the module and loads through the schema', () => {
    const { runner: a, scenario } = runnerFor('examples/hpa-policy/check.yaml');
    const { runner: b } = runnerFor('examples/hpa-policy/check.yaml');
    a.run(scenario.durationMs);
    b.run(scenario.durationMs);
    const text = JSON.stringify(a.trace());
    expect(JSON.stringify(b.trace())).toBe(text);
    const trace = a.trace();
    expect(trace.policy).toBe('module:examples/hpa-policy/step-policy.ts');
    expect(parseTrace(JSON.parse(text)).ok).toBe(true);
    // The step: avg 100% ≥ 50% → 1 + floor(50 / 20) = 3, clamped to max 3 − 1 pod = 2 creates.
    expect(trace.frames.some((f) => f.note?.includes('step 3, 1 pods < max 3 → create 2'))).toBe(true);
    expect(controllerOf(trace.frames.at(-1)!, 'incus-hpa')?.policy).toBe('module:examples/hpa-policy/step-policy.ts');
  });

  it('a module that throws, hangs or answers garbage mid-run: the period fails with a one-line note, the loop backs off and goes on', () => {
    const idOf = (file: string) => `module:${relative(ROOT, file.replace(/s(\d+)\.yaml$/, 'p$1.ts'))}`;
    const cases: [string, string][] = [
      [keep(`throw new Error('too hot');`), 'threw Error: too hot'],
      [keep('for (;;) {}'), 'did not return within 1000 ms (a hang or a loop that does not end)'],
      [
        keep(`return { running: 1, averagePercent: null, desired: 1, actions: [{ kind: 'scale' }], comparison: '', verdict: '', memory };`),
        'returned what is not a Decision: actions.0.kind: expected { kind: "create" } or { kind: "delete", name, waitForStop }',
      ],
    ];
    for (const [source, message] of cases) {
      const file = scenarioWith(source);
      const notes = notesOf(file);
      const errors = notes.filter((x) => x.startsWith('error:'));
      expect(errors[0], source).toContain(`error: policy ${idOf(file)} ${message}`);
      expect(errors[0]).toMatch(/\(retry #1\)$/);
      expect(errors.length).toBeGreaterThan(2); // it retried, with backoff, to the end of the run
      expect(notes.join('\n')).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});

describe('an HPA policy module under the explorer (examples/hpa-policy)', () => {
  it('the planted bug (a step up not clamped to max) is found with its shortest trace', () => {
    const { run, verdicts } = checkFile('examples/hpa-policy/check-buggy.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(verdicts['at-most-max']).toBe('violated');
    expect(verdicts['policy-decides']).toBe('holds');
    expect([...run.promises].sort()).toEqual([
      'at-most-max',
      'converges',
      'never-touches-unowned',
      'one-operation-at-a-time',
      'policy-decides',
    ]);
    const c = run.counterexamples.find((x) => x.property === 'at-most-max')!;
    expect({ steps: c.path.length, moves: movesOf(run, c.path) }).toEqual({ steps: 5, moves: ['demand 2.33GiB'] });
    expect(c.trace.frames.at(-1)?.note).toContain('✗ at-most-max');
  }, 120_000);

  it('the fixed policy holds on the same bounds', () => {
    const { run, verdicts } = checkFile('examples/hpa-policy/check.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(
      Object.entries(verdicts)
        .filter(([p]) => run.promises.includes(p))
        .every(([, v]) => v === 'holds'),
    ).toBe(true);
    // Every place a created name can sort is searched (sim/properties/incus-hpa-name-choice.ts).
    expect(run.result.stats.distinct).toBe(7872);
  }, 120_000);

  it('the parallel search: workers, which parsed no scenario, load the module by its id and find the same states', async () => {
    const { entry, scenario } = loadScenario('examples/hpa-policy/check-buggy.yaml');
    const run = await checkScenarioAsync(entry, scenario, { workers: 2, parallelNow: true });
    expect(run.result.stats.complete).toBe(true);
    expect(run.result.verdicts.find((v) => v.property.name === 'at-most-max')?.status).toBe('violated');
    expect(run.result.verdicts.find((v) => v.property.name === 'policy-decides')?.status).toBe('holds');
    expect(run.counterexamples.find((x) => x.property === 'at-most-max')?.path.length).toBe(5);
  }, 120_000);

  it("the canonical key is safe with a module's memory: merged states agree on every move", () => {
    const { entry, scenario } = loadScenario('examples/hpa-policy/check.yaml');
    const alphabet = scenario.timeline.map((e, index) => ({ index, label: entry.check.label(e), entry: e }));
    const report = keySafety(entry.binding, entry.check, { config: scenario.config, world: scenario.world }, alphabet);
    expect(report.mismatches).toEqual([]);
    expect(report.states).toBeGreaterThan(10);
    expect(report.merges).toBeGreaterThan(0);
    // Directed: the module's state and a failed decision are part of the key.
    const key = keyText(entry.check.canonicalizer({ config: scenario.config, world: scenario.world }, alphabet));
    const start = new Stepper(entry.binding).initial(scenario.config, scenario.world);
    const withContext = (over: object) => ({
      ...start,
      snapshot: { ...start.snapshot, context: { ...start.snapshot.context, ...over } } as typeof start.snapshot,
    });
    const memory = (state: JsonValue) => ({ policyMemory: { recommendations: [], state } });
    expect(key(withContext(memory({ low: 0 })))).not.toBe(key(withContext(memory({ low: 1 }))));
    expect(key(withContext({ policyFailed: true }))).not.toBe(key(withContext({ policyFailed: false })));
  }, 60_000);

  it('a module that throws on some input: check reports policy-decides violated with the shortest trace to it', () => {
    const { run, verdicts } = checkFile(scenarioWith(keep(`throw new Error('too hot');`)));
    expect(verdicts['policy-decides']).toBe('violated');
    const c = run.counterexamples.find((x) => x.property === 'policy-decides')!;
    expect(movesOf(run, c.path)).toEqual(['demand 2.33GiB']);
    expect(c.trace.frames.some((f) => f.note?.includes('threw Error: too hot'))).toBe(true);
  }, 60_000);
});

describe('a policy module in its sandbox', () => {
  it('no files, network, process, timers, eval, clock or Math.random', () => {
    expect(sandboxError(`import { readFileSync } from 'node:fs'; export const policy = () => readFileSync('/etc/passwd');`)).toContain(
      'import of "node:fs" is not allowed: a policy module runs isolated (no files, no network, no other modules; only "loopscope/policy")',
    );
    expect(sandboxError(`import http from 'node:http'; export const policy = () => http.get('http://127.0.0.1/');`)).toContain(
      'import of "node:http" is not allowed',
    );
    const refused: [string, string][] = [
      ["fetch('http://127.0.0.1/')", 'threw ReferenceError: fetch is not defined'],
      ['process.exit(1)', 'threw ReferenceError: process is not defined'],
      ["require('fs')", 'threw IsolationError: import of "fs" is not allowed'],
      ['setTimeout(() => {}, 1)', 'threw ReferenceError: setTimeout is not defined'],
      ["eval('1')", 'threw EvalError: Code generation from strings disallowed for this context'],
      ["new Function('return 1')()", 'threw EvalError: Code generation from strings disallowed for this context'],
      ['Math.random()', 'threw IsolationError: Math.random is not available in a policy module'],
      ['Date.now()', 'threw IsolationError: the clock (Date.now) is not available in a policy module'],
      ['new Date()', 'threw IsolationError: the clock (new Date()) is not available in a policy module'],
    ];
    for (const [body, message] of refused)
      expect(sandboxError(`export const policy = () => { ${body}; };`), body).toContain(`policy module:b.ts ${message}`);
    // What is allowed: the API's helpers, a date from a number (no clock read).
    const ok = `import { averagePercent } from 'loopscope/policy';
      export const policy = ({ observation, memory }) => ({ running: 0, averagePercent: averagePercent(observation.instances), desired: new Date(0).getTime(),
        actions: [], comparison: '', verdict: '', memory });`;
    writeFileSync(join(DIR, 'ok.ts'), ok);
    const box = loadPolicySandbox(join(DIR, 'ok.ts'), 'module:ok.ts', 'scenario.yaml', 'config.policy.module', 200);
    expect(box.decide({ observation: { at: 0, instances: [] }, config: DEFAULT_CONFIG, memory: EMPTY_POLICY_MEMORY })).toEqual({
      policy: 'module:ok.ts',
      running: 0,
      averagePercent: null,
      desired: 0,
      actions: [],
      comparison: '',
      verdict: '',
      memory: { recommendations: [] },
    });
  });

  it('an async policy, or one returning nothing: a clear message', () => {
    expect(sandboxError(`export const policy = async () => ({});`)).toContain(
      'returned a promise: a policy is a synchronous pure function',
    );
    expect(sandboxError(`export const policy = () => {};`)).toContain('returned undefined: expected a Decision');
  });
});

describe('a bad policy module is bad input: exit 2, one line naming the file and field', () => {
  const cases: [string, string | undefined, RegExp][] = [
    ['a missing file', undefined, /config\.policy\.module: expected a readable policy module, cannot read .*nope\.ts: ENOENT/],
    [
      'no policy export',
      'export const x = 1;',
      /config\.policy\.module: expected the module .* to export a function policy\(input\) returning a Decision/,
    ],
    [
      'a wrong-shaped Decision',
      'export const policy = () => ({ running: 1 });',
      /config\.policy\.module: expected a policy that decides on an empty observation \(no instances\), but it returned what is not a Decision: averagePercent: /,
    ],
    [
      'an import of node:fs',
      `import fs from 'node:fs'; export const policy = () => fs;`,
      /config\.policy\.module: expected a module that loads: IsolationError: import of "node:fs" is not allowed/,
    ],
    ['a module that does not compile', 'export const policy = ( => 1;', /config\.policy\.module: expected a module that compiles/],
  ];
  const fileWith = (source: string | undefined) => {
    const file = scenarioWith(source ?? '');
    if (source === undefined) writeFileSync(file, readFileSync(file, 'utf8').replace(/p\d+\.ts/, 'nope.ts'));
    return file;
  };
  for (const [what, source, message] of cases) {
    it(what, () => {
      const file = fileWith(source);
      let error: unknown;
      try {
        loadScenario(file);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      const text = (error as InputError).message;
      expect(text.startsWith(`${file}: config.policy.module: `), text).toBe(true);
      expect(text).toMatch(message);
      expect(text).not.toContain('\n');
    });
  }

  it('through the CLI: exit 2, one line on stderr, nothing on stdout, no stack trace', () => {
    const file = fileWith(cases[2]![1]);
    const r = spawnSync(CLI, ['sim', file], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      new RegExp(`^loopscope: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: config\\.policy\\.module: expected a policy that decides`),
    );
    expect(r.stdout).toBe('');
  }, 60_000);
});
