// `loopscope real` with a user's policy module (hpa.yaml `policy: { module: ./step-policy.ts }`,
// relative to the hpa.yaml) against the REAL daemon: the module decides, the loop acts; a bad
// module is exit 2 before anything is touched; a module that throws fails its period like an API
// error, and the loop backs off and goes on, with no stack trace.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { Trace } from '../../sim/trace';
import { controllerOf } from '../../sim/trace';
import {
  ROOT,
  conformReport,
  connectForSuite,
  expectConforms,
  ownedInstances,
  runCli,
  startCli,
  uniqueHpa,
  waitUntil,
  withIncus,
} from './real-helpers';

const hpa = uniqueHpa('pm');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-real-policy-'));
copyFileSync(join(ROOT, 'examples/hpa-policy/step-policy.ts'), join(dir, 'step-policy.ts'));
// Decides like nothing happened while no pod exists (the load-time probe), throws once one does.
writeFileSync(
  join(dir, 'throws.ts'),
  `export const policy = ({ observation, memory }) => {
  if (observation.instances.length > 0) throw new Error('cannot count pods');
  return { running: 0, averagePercent: null, desired: 0, actions: [], comparison: 'none', verdict: 'keep', memory };
};`,
);

function writeConfig(file: string, module: string, min: number): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      `HPA: { minPods: ${min}, maxPods: 3, memoryThreshold: 50 }`,
      `name: ${hpa.name}`,
      `namePrefix: ${hpa.prefix}`,
      `policy: { module: ${module} }`,
      'period: 1s',
      'limitsMemory: 64MiB',
      'backoff: { initial: 300ms, max: 2s }',
      '',
    ].join('\n'),
  );
  return path;
}

/** The run conforms (the module throws again in the replay: the same failed periods), and the one
 * promise broken is the module's own (policy-decides): it throws on purpose. */
function expectThrowsReplayed(file: string) {
  const report = conformReport(file);
  expect(report.divergence).toBeUndefined();
  expect(report.conforms).toBe(true);
  expect(report.properties.filter((p) => p.result === 'violated').map((p) => p.name)).toEqual(['policy-decides']);
  return report;
}

withIncus.describe('loopscope real with a policy module', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a bad module exits 2 with one line naming the file and field, and creates nothing', async () => {
    writeFileSync(join(dir, 'noexport.ts'), 'export const decide = () => null;\n');
    for (const [module, expected] of [
      ['./missing.ts', 'cannot read'],
      ['./noexport.ts', 'to export a function policy(input)'],
    ] as const) {
      const cfg = writeConfig(`bad-${module.slice(2, -3)}.yaml`, module, 2);
      const r = await runCli(['real', '--config', cfg, '--once']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`${cfg}: policy.module: expected`);
      expect(r.stderr).toContain(expected);
    }
    expect(await ownedInstances(client, hpa.name)).toEqual([]);
  }, 60_000);

  it('--once: the module decides (0 pods < min 2 → create 2) and the loop creates them; the trace names the module', async () => {
    const cfg = writeConfig('once.yaml', './step-policy.ts', 2);
    const out = join(dir, 'once.json');
    const r = await runCli(['real', '--config', cfg, '--once', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const id = `module:${relative(ROOT, join(dir, 'step-policy.ts'))}`;
    expect(r.stdout).toContain(`policy ${id}`);
    expect(r.stdout).toMatch(/COMPARE pods +0 +mem +-% +0 pods < min 2 → create 2/);
    expect((await ownedInstances(client, hpa.name)).map((i) => i.status)).toEqual(['Running', 'Running']);
    const trace = JSON.parse(readFileSync(out, 'utf8')) as Trace;
    expect(trace.policy).toBe(id);
    expect(controllerOf(trace.frames.at(-1)!, 'incus-hpa')?.policy).toBe(id);
    expect(expectConforms(out).policy).toBe(id); // replayed with the module itself
  }, 90_000);

  it('--dry-run: the module decides on the real pods, nothing is acted on', async () => {
    const cfg = writeConfig('dry.yaml', './step-policy.ts', 3);
    const out = join(dir, 'dry.json');
    const r = await runCli(['real', '--config', cfg, '--once', '--dry-run', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 pods < min 3 → create 1/);
    expectConforms(out);
    expect(await ownedInstances(client, hpa.name)).toHaveLength(2);
  }, 60_000);

  it('a module that throws: the period fails like an API error, the loop backs off and goes on, no stack trace', async () => {
    const cfg = writeConfig('throws.yaml', './throws.ts', 1);
    const onceOut = join(dir, 'throws-once.json');
    const once = await runCli(['real', '--config', cfg, '--once', '--out', onceOut]);
    expect(once.code).toBe(1);
    expectThrowsReplayed(onceOut);
    expect(once.stderr).toMatch(/the period ended in an error: policy module:\S+throws\.ts threw Error: cannot count pods/);
    const out = join(dir, 'throws.json');
    const run = startCli(['real', '--config', cfg, '--dry-run', '--out', out]);
    try {
      await waitUntil('a retry after backoff', async () => run.out.stdout.includes('threw Error: cannot count pods (retry #3)'), 20_000);
    } finally {
      run.child.kill('SIGTERM');
    }
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/COMPARE .* error: policy module:\S+throws\.ts threw Error: cannot count pods \(retry #1\)/);
    expect(`${r.stdout}\n${r.stderr}\n${once.stderr}`).not.toMatch(/\n\s+at /);
    expect(await ownedInstances(client, hpa.name)).toHaveLength(2); // nothing deleted or created
    expect(expectThrowsReplayed(out).replayed.observations).toBeGreaterThanOrEqual(3); // each retry observed again
  }, 90_000);
});
