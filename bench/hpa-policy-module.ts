// Explorer speed with a user's HPA policy module (policy: { module }): the same configuration
// (examples/hpa-policy/check.yaml) checked with the built-in fixed policy (the reference), with
// fixed.ts itself loaded as a sandboxed module (same decisions, so the same states: the ratio is
// the sandbox's cost alone), and with the example's step policy. One process, one warm-up
// each, best of five, memo on and off.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkScenario } from '../sim/check/check';
import { loadScenario } from '../sim/loops';

const ROOT = resolve(import.meta.dirname, '..');
const DIR = mkdtempSync(join(tmpdir(), 'loopscope-bench-policy-'));
const base = readFileSync(join(ROOT, 'examples/hpa-policy/check.yaml'), 'utf8');

function scenario(name: string, policy: string): string {
  const file = join(DIR, `${name}.yaml`);
  writeFileSync(file, base.replace(/^ {2}policy: .*$/m, `  policy: ${policy}`));
  return file;
}

// machines/incus-hpa/policies/fixed.ts as a module: its imports are types only (erased).
writeFileSync(
  join(DIR, 'fixed-module.ts'),
  readFileSync(join(ROOT, 'machines/incus-hpa/policies/fixed.ts'), 'utf8')
    .replace("from '../types'", "from 'loopscope/policy'")
    .replace('export const fixedPolicy: Policy', 'export const policy'),
);

const cases: [string, string][] = [
  ['built-in fixed (reference)', scenario('builtin', 'fixed')],
  ['fixed.ts as a module (sandboxed)', scenario('fixed-module', '{ module: ./fixed-module.ts }')],
  [
    'step-policy.ts module (sandboxed)',
    scenario('step', `{ module: ${JSON.stringify(join(ROOT, 'examples/hpa-policy/step-policy.ts'))} }`),
  ],
];
console.log('\n## The explorer with an HPA policy module (examples/hpa-policy/check.yaml, one thread)\n');
console.log('| policy | distinct states | states/s (memo on, default) | vs built-in | states/s (memo off) | vs built-in |');
console.log('|---|---:|---:|---:|---:|---:|');

/** Distinct states and the best of five rates (after a warm-up): a shared machine's other load only slows a run down. */
function measure(file: string, memo: boolean): { distinct: number; rate: number } {
  const { entry, scenario: s } = loadScenario(file);
  let run = checkScenario(entry, s, { memo });
  let seconds = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    run = checkScenario(entry, s, { memo });
    seconds = Math.min(seconds, (performance.now() - start) / 1000);
  }
  return { distinct: run.result.stats.distinct, rate: run.result.stats.distinct / seconds };
}

const reference = { on: 0, off: 0, states: 0 };
for (const [name, file] of cases) {
  const on = measure(file, true);
  const off = measure(file, false);
  if (!reference.on) Object.assign(reference, { on: on.rate, off: off.rate, states: on.distinct });
  const same = name.startsWith('fixed.ts') ? (on.distinct === reference.states ? ' (same states)' : ' (STATES DIFFER)') : '';
  const f = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `| ${name} | ${on.distinct.toLocaleString('en-US')}${same} | ${f(on.rate)} | ${(on.rate / reference.on).toFixed(2)}× | ${f(off.rate)} | ${(off.rate / reference.off).toFixed(2)}× |`,
  );
}
console.log(
  "\nEach decision of a module is a JSON round trip into its node:vm context and a zod check of the answer. With memo on (the default) the explorer reuses a transition it has computed, so a module is called once per distinct (state, event); memo off shows the sandbox's cost per step.",
);
