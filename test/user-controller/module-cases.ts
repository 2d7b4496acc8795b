// User modules through the command line, case by case: what a controller module or an HPA policy
// module may do and what it may not, each with the exit code and the message a user sees. The same
// cases run against the CLI from source (module-cli.test.ts) and the installed package's compiled CLI
// (test/package/package.test.ts): the sandbox must behave the same once bundled.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ModuleCase {
  name: string;
  /** Files written into the case's directory (the scenario is `scenario.yaml`). */
  files: Record<string, string>;
  args: (scenario: string) => string[];
  exit: number;
  /** Text the output (stdout and stderr) must hold. */
  says: string;
}

const ROOT = join(import.meta.dirname, '../..');
const example = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const HEAD = `export const controller = { for: 'PodService', owns: ['Pod'] };\n`;
/** A check scenario around `controller.ts`: the shipped PodService example's, with the module's file swapped. */
const controllerScenario = example('examples/podservice/check.yaml').replace(/^#.*\n/gm, '');
const policyScenario = example('examples/hpa-policy/check.yaml')
  .replace(/^#.*\n/gm, '')
  .replace('./step-policy.ts', './policy.ts');

/** Checked (the whole bounded space) when it should hold; a crash or a refusal shows in one short run. */
const controllerCase = (name: string, module: string, exit: number, says: string, run: 'check' | 'sim' = 'sim'): ModuleCase => ({
  name,
  files: {
    'scenario.yaml': controllerScenario.replace('{ module: ./controller.ts }', '{ module: ./controller.ts, timeout: 50ms }'),
    'controller.ts': module,
  },
  args: (s) => (run === 'check' ? ['check', '--workers', '1', s] : ['sim', '--until', '100ms', s]),
  exit,
  says,
});
const policyCase = (name: string, module: string, exit: number, says: string): ModuleCase => ({
  name,
  files: { 'scenario.yaml': policyScenario, 'policy.ts': module },
  args: (s) => ['sim', s],
  exit,
  says,
});

export const MODULE_CASES: readonly ModuleCase[] = [
  controllerCase(
    'a TypeScript controller with types holds',
    example('examples/podservice/controller.ts'),
    0,
    'every promised property holds',
    'check',
  ),
  controllerCase(
    'a module that does not compile is bad input',
    `${HEAD}export function reconcile( {`,
    2,
    'expected a module that compiles',
  ),
  controllerCase(
    'an import other than the API is refused at load',
    `import { readFileSync } from 'node:fs';\n${HEAD}export function reconcile() { readFileSync('/etc/passwd'); return {}; }`,
    2,
    'import of "node:fs" is not allowed',
  ),
  controllerCase('a module without reconcile is bad input', HEAD, 2, 'export a function reconcile(request, client)'),
  controllerCase(
    'a timer in reconcile is a crash the run shows',
    `${HEAD}export function reconcile() { setTimeout(() => {}, 1); return {}; }`,
    0,
    'panic: ReferenceError: setTimeout is not defined',
  ),
  controllerCase(
    'a hang is stopped at the time limit and shown',
    `${HEAD}export function reconcile() { for (;;) {} }`,
    0,
    'panic: reconcile did not return within 50 ms',
  ),
  policyCase('a TypeScript policy module runs', example('examples/hpa-policy/step-policy.ts'), 0, 'hpa-step-policy'),
  policyCase(
    'a policy may not read the clock',
    `import type { Policy } from 'loopscope/policy';\nexport const policy: Policy = () => ({ actions: [], reason: String(Date.now()) });`,
    2,
    'the clock (Date.now) is not available',
  ),
];

export interface CaseRun {
  code: number | null;
  output: string;
}

/** Writes the case into `dir` and runs it with `launcher` (the words that start loopscope). */
export function runModuleCase(launcher: readonly string[], c: ModuleCase, dir: string): CaseRun {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(c.files)) writeFileSync(join(dir, file), text);
  const [command, ...first] = launcher;
  if (command === undefined) throw new Error('an empty launcher');
  const r = spawnSync(command, [...first, ...c.args(join(dir, 'scenario.yaml'))], { encoding: 'utf8', timeout: 120_000, cwd: dir });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}
