// Explorer speed with a user's controller: the same PodService configuration checked with the
// built-in Metacontroller CompositeController (the seed 003 hook as a function, the reference),
// with the same hook as a real Python webhook on loopback, and with a sandboxed module
// (examples/podservice/controller.ts: Pod + Service, no Ingress). One process, one run each.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { checkScenario } from '../sim/check/check';
import { loadScenario } from '../sim/loops';

const ROOT = resolve(import.meta.dirname, '..');
const DIR = mkdtempSync(join(tmpdir(), 'loopscope-bench-user-'));
const base = readFileSync(join(ROOT, 'examples/metacontroller/check.yaml'), 'utf8');
const controllerBlock = /^controller:\n(?: {2}.*\n)+/m;

function scenario(name: string, controller: string): string {
  const file = join(DIR, `${name}.yaml`);
  writeFileSync(file, base.replace(controllerBlock, `${controller}\n`));
  return file;
}

const hook = spawn('python3', [join(ROOT, 'examples/metacontroller/sync.py'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = (await new Promise<string>((ok) => createInterface({ input: hook.stdout! }).once('line', ok))).trim();
try {
  const cases: [string, string][] = [
    ['built-in composite (reference)', scenario('builtin', 'controller: composite').replace(/^properties:[\s\S]*?(?=^cluster:)/m, '')],
    [
      'webhook (python3, loopback)',
      scenario(
        'webhook',
        `controller: { metacontroller: composite, parent: PodService, children: [Pod, Service, Ingress], sync: "http://127.0.0.1:${port}/sync" }`,
      ),
    ],
    [
      'module (sandboxed)',
      scenario('module', `controller: { module: ${JSON.stringify(join(ROOT, 'examples/podservice/controller.ts'))} }`),
    ],
  ];
  // The built-in controller takes no declared properties: drop them from its copy.
  writeFileSync(cases[0]![1], readFileSync(cases[0]![1], 'utf8').replace(/^properties:\n(?: {2}- .*\n)+/m, ''));
  console.log("\n## The explorer with a user's controller (same PodService configuration, one run each)\n");
  console.log('| controller | distinct states | time | distinct states/s | vs built-in |');
  console.log('|---|---:|---:|---:|---:|');
  let reference = 0;
  for (const [name, file] of cases) {
    const { entry, scenario: s } = loadScenario(file);
    const start = performance.now();
    const run = checkScenario(entry, s);
    const seconds = (performance.now() - start) / 1000;
    const rate = run.result.stats.distinct / seconds;
    if (!reference) reference = rate;
    console.log(
      `| ${name} | ${run.result.stats.distinct.toLocaleString('en-US')} | ${seconds.toFixed(2)} s | ${Math.round(rate).toLocaleString('en-US')} | ${(rate / reference).toFixed(2)}× |`,
    );
  }
  console.log(
    "\nThe webhook's answers are memoised by request hash, so each distinct request costs one HTTP round trip; the module runs in a node:vm context per reconcile.",
  );
} finally {
  hook.kill();
}
