// loopscope as a user installs it: `npm pack`, the tarball installed into an empty directory (with
// vitest and TypeScript beside it, as a user's project has), and from there only: the version, a
// check that finds the bug in the shipped example with its counterexample and emitted tests, the
// emitted tests failing under vitest, the sandbox cases through the compiled CLI, the lab serving the
// counterexample to chromium, `real --once --dry-run` against the Incus daemon, the public types under
// Node's own module resolution, and `init controller`'s project going green with `npm test`.
// No file of the clone is used by the installed package; the clone only drives (chromium, the cases).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser/harness';
import { startLabProcess } from '../browser/lab-process';
import { COMMANDS } from '../../cli/commands';
import { requires } from '../prerequisites';
import { MODULE_CASES, runModuleCase } from '../user-controller/module-cases';
import { install, installedVersion, installProject, tarball } from './packed';

const withChromium = await requires('chromium');
const withIncus = await requires('incus');

let packed = '';
let project = '';
let bin = '';
let manifest: { version: string; dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
const run = (args: string[], cwd = project) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });

beforeAll(() => {
  packed = tarball();
  project = installProject([
    packed,
    `vitest@${installedVersion('vitest')}`,
    `typescript@${installedVersion('typescript')}`,
    `@types/node@${installedVersion('@types/node')}`,
  ]);
  const installed = join(project, 'node_modules', 'loopscope');
  manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as typeof manifest;
  bin = join(installed, 'dist', 'node', 'loopscope.js');
}, 600_000);

describe('the tarball', () => {
  it('holds what a user needs and no test, bench, tool or .ci file', () => {
    const files = execFileSync('tar', ['-tzf', packed], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    const tops = new Set(files.map((f) => f.split('/')[0]));
    expect([...tops].sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'docs', 'examples', 'package.json', 'scenarios']);
    expect(files.filter((f) => /(^|\/)(test|bench|\.ci|tools)\/|\.test\.ts$/.test(f))).toEqual([]);
    expect(files).toContain('dist/node/loopscope.js');
    expect(files).toContain('dist/lab/index.html');
  });

  it('runs on its dependencies alone: the compiled code imports only node builtins and declared dependencies', () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.optionalDependencies ?? {})]);
    const dist = join(project, 'node_modules', 'loopscope', 'dist', 'node');
    const imported = new Set<string>();
    for (const f of readdirSync(dist)) {
      const code = readFileSync(join(dist, f), 'utf8');
      // esbuild writes every external import as `import … from "x";` at a line's start, or `import("x")`.
      for (const m of code.matchAll(/^import\b[^;]*?\bfrom\s*"([^"]+)";|^import\s*"([^"]+)";|\bimport\("([^"]+)"\)/gm)) {
        const spec = m[1] ?? m[2] ?? m[3]!;
        if (!spec.startsWith('.')) imported.add(spec);
      }
    }
    const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    const strangers = [...imported].filter((s) => !s.startsWith('node:') && !declared.has(packageOf(s)));
    expect(strangers).toEqual([]);
    for (const tool of ['tsx', 'vite', 'vitest', 'typescript']) expect(declared.has(tool), tool).toBe(false);
  });
});

describe('the installed CLI', () => {
  it('--version prints the package version; --help lists the commands', () => {
    const v = run(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(manifest.version);
    const viaNpx = spawnSync('npx', ['--no-install', 'loopscope', '--version'], { cwd: project, encoding: 'utf8' });
    expect(viaNpx.stdout.trim()).toBe(manifest.version);
    const help = run(['--help']);
    for (const c of COMMANDS.map((command) => command.name)) expect(help.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
  });

  it("check finds the shipped buggy controller's bug: exit 1, the counterexample, and emitted tests that fail under vitest", () => {
    const pod = join(project, 'pod');
    cpSync(join(project, 'node_modules', 'loopscope', 'examples', 'podservice'), pod, { recursive: true });
    const r = run(['check', 'check-buggy.yaml', '--out', 'cex', '--emit-test', 't'], pod);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ always\s+one-pod\s+violated/);
    expect(readdirSync(join(pod, 'cex'))).toContain('podservice-module-buggy.one-pod.trace.json');
    const emitted = readdirSync(join(pod, 't'));
    expect(emitted).toContain('podservice-module-buggy.one-pod.test.ts');
    expect(readFileSync(join(pod, 't', 'podservice-module-buggy.one-pod.test.ts'), 'utf8')).toContain('from "loopscope/testing"');
    const vitest = spawnSync(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 't'], {
      cwd: pod,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(vitest.status, vitest.stdout + vitest.stderr).toBe(1);
    expect(vitest.stdout).toContain(`${emitted.length} failed`);
    expect(vitest.stdout + vitest.stderr).toContain('the replay:');
  }, 240_000);

  it('export writes the one-file lab from the prebuilt page; without the optional playwright-core, PNG is one line', () => {
    const html = run(['export', 'scenarios/talk-lab.yaml', '--format', 'html', '--at', '1m', '--out', 'slides']);
    expect(html.status, html.stderr).toBe(0);
    const page = readFileSync(join(project, 'slides', 'talk-lab.html'), 'utf8');
    expect(page).toContain('id="loopscope-export-state"');
    expect(page).not.toMatch(/<script[^>]+src=/);
    // A user who installed without optional dependencies (npm install --omit=optional).
    rmSync(join(project, 'node_modules', 'playwright-core'), { recursive: true, force: true });
    const png = run(['export', 'node_modules/loopscope/scenarios/talk-lab.yaml', '--format', 'png', '--out', 'pngs']);
    expect(png.status).toBe(1);
    expect(png.stderr.trim().split('\n')).toHaveLength(1);
    expect(png.stderr).toContain('needs the optional package playwright-core');
    expect(existsSync(join(project, 'pngs'))).toBe(false);
  }, 120_000);

  describe('user modules run in the compiled sandbox as from source', () => {
    MODULE_CASES.forEach((c, i) => {
      it(
        c.name,
        () => {
          const r = runModuleCase([process.execPath, bin], c, join(project, 'modules', String(i)));
          expect(r.code, r.output).toBe(c.exit);
          expect(r.output).toContain(c.says);
          expect(r.output).not.toMatch(/\n\s+at .*:\d+:\d+/);
        },
        120_000,
      );
    });
  });
});

withChromium.describe('the installed lab (chromium)', () => {
  let chrome: Awaited<ReturnType<typeof launchChromium>> | undefined;
  afterAll(async () => {
    await chrome?.close();
  });

  it('serves the counterexample check wrote; chromium opens it at its first frame and steps it', async () => {
    const pod = join(project, 'lab-pod');
    cpSync(join(project, 'node_modules', 'loopscope', 'examples', 'podservice'), pod, { recursive: true });
    expect(run(['check', 'check-buggy.yaml', '--out', 'cex'], pod).status).toBe(1);
    const trace = JSON.parse(readFileSync(join(pod, 'cex', 'podservice-module-buggy.one-pod.trace.json'), 'utf8')) as {
      frames: { phase: string; state: string }[];
    };
    const lab = startLabProcess([process.execPath, bin], ['cex/podservice-module-buggy.one-pod.trace.json'], pod);
    try {
      chrome = await launchChromium();
      const page = await chrome.context.newPage();
      const offsite: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('http://127.0.0.1:') && !r.url().startsWith('data:')) offsite.push(r.url());
      });
      await page.goto(await lab.url);
      await page.waitForSelector('[data-testid="lab"][data-source="trace"][data-loop="kubernetes"]');
      const text = (id: string) => page.getByTestId(id).first().innerText();
      expect(await text('frame-index')).toBe(`1/${trace.frames.length}`);
      // The state line is in words; the machine's own id is its data-machine-id.
      const stateId = () => page.getByTestId('state').first().getAttribute('data-machine-id');
      expect(await stateId()).toBe(trace.frames[0]!.state);
      const next = trace.frames.findIndex((f) => f.phase !== trace.frames[0]!.phase);
      await page.getByTestId('btn-step').click();
      await page.waitForFunction(
        (want) => document.querySelector('[data-testid="frame-index"]')?.textContent === want,
        `${next + 1}/${trace.frames.length}`,
      );
      expect(await stateId()).toBe(trace.frames[next]!.state);
      expect(offsite).toEqual([]);
    } finally {
      lab.child.kill('SIGINT');
    }
    expect(await lab.exit).toBe(0);
  }, 180_000);
});

withIncus.describe('the installed real mode (the Incus daemon)', () => {
  it('real --once --dry-run observes the daemon and acts on nothing', () => {
    const dir = join(project, 'real');
    mkdirSync(dir, { recursive: true });
    const name = `lsp-${process.pid.toString(16)}`;
    writeFileSync(
      join(dir, 'hpa.yaml'),
      `HPA: { minPods: 1, maxPods: 2, memoryThreshold: 50 }
name: ${name}
namePrefix: ${name}-
policy: fixed
period: 1s
limitsMemory: 64MiB
image: ${process.env.LOOPSCOPE_INCUS_IMAGE ?? 'loopscope-busybox'}
`,
    );
    const r = run(['real', '--config', 'hpa.yaml', '--once', '--dry-run'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/OBSERVE/);
    expect(r.stdout + r.stderr).toMatch(/dry.run/i);
  }, 120_000);
});

describe('types and scaffolding from the installed package', () => {
  it("the public entries typecheck under Node's own module resolution (nodenext), and a misuse does not", () => {
    const dir = join(project, 'typed');
    mkdirSync(dir, { recursive: true });
    const examples = join(project, 'node_modules', 'loopscope', 'examples');
    cpSync(join(examples, 'podservice', 'controller.ts'), join(dir, 'controller.ts'));
    cpSync(join(examples, 'hpa-policy', 'step-policy.ts'), join(dir, 'step-policy.ts'));
    writeFileSync(
      join(dir, 'use.ts'),
      `import { check, loadScenario, simulate, type CheckResult } from 'loopscope';
export async function verdict(file: string): Promise<number> {
  const scenario = loadScenario(file);
  const run = await simulate(scenario, { until: '1m' });
  const result: CheckResult = await check(scenario, { maxStates: 1000 });
  return run.frames.length + result.exitCode;
}
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        include: ['*.ts'],
      }),
    );
    // One compilation (the declarations and their dependencies' are read once): the misuse is the only error.
    writeFileSync(join(dir, 'misuse.ts'), `import { check } from 'loopscope';\nexport const r = check(42);\n`);
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const out = spawnSync(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
    expect(out.status).not.toBe(0);
    const errors = out.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors.length, out.stdout).toBeGreaterThan(0);
    expect(
      errors.filter((l) => !/(^|\/)misuse\.ts\(2,/.test(l)),
      out.stdout,
    ).toEqual([]);
  }, 120_000);

  it('init controller writes a project on this version whose npm test runs the check and passes', () => {
    const r = run(['init', 'controller', 'my-controller']);
    expect(r.status, r.stderr).toBe(0);
    const dir = join(project, 'my-controller');
    const scaffold = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(scaffold.devDependencies.loopscope).toBe(`^${manifest.version}`);
    // This version is not on the registry: install the tarball in its place (npm records it as file:).
    install(dir, [packed, `vitest@${installedVersion('vitest')}`, `@types/node@${installedVersion('@types/node')}`]);
    const test = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/1 passed/);
  }, 300_000);
});
