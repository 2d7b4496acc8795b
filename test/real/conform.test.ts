// `loopscope conform` on traces written by `loopscope real --out` against the REAL daemon: the
// command conforms on real runs (exit 0), reports the first divergence of an altered real trace
// (one observed status, one error: exit 1), and a run under a policy module needs that module.
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { ConformReport } from '../../sim/conform/conform';
import type { HpaFrameIo } from '../../sim/trace-io';
import { ROOT, connectForSuite, ownedInstances, runCli, uniqueHpa, withIncus } from './real-helpers';

const hpa = uniqueHpa('cf');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-real-conform-'));

function writeConfig(file: string, policy = 'policy: fixed'): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      'HPA: { minPods: 2, maxPods: 3, memoryThreshold: 50 }',
      `name: ${hpa.name}`,
      `namePrefix: ${hpa.prefix}`,
      policy,
      'period: 1s',
      'limitsMemory: 64MiB',
      'backoff: { initial: 300ms, max: 2s }',
      '',
    ].join('\n'),
  );
  return path;
}

type Doc = { frames: { event: string; io?: HpaFrameIo }[] };
const readDoc = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Doc;
function altered(file: string, name: string, change: (doc: Doc) => void): string {
  const doc = readDoc(file);
  change(doc);
  const out = join(dir, name);
  writeFileSync(out, JSON.stringify(doc));
  return out;
}

withIncus.describe('loopscope conform on real runs', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const scaleUp = join(dir, 'up.json');
  const hold = join(dir, 'hold.json');

  it('real runs conform (exit 0): a scale-up, then a period that observes the pods it made', async () => {
    const cfg = writeConfig('hpa.yaml');
    expect((await runCli(['real', '--config', cfg, '--once', '--out', scaleUp])).code).toBe(0);
    expect((await runCli(['real', '--config', cfg, '--once', '--out', hold])).code).toBe(0);
    expect((await ownedInstances(client, hpa.name)).map((i) => i.status)).toEqual(['Running', 'Running']);
    const up = await runCli(['conform', scaleUp]);
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/conforms to the model \(incus-hpa, policy fixed, \d+ frames\)/);
    expect(up.stdout).toContain('world: 1 observations and 2 acts allowed by the simulated world');
    const held = await runCli(['conform', hold, '--json']);
    expect(held.code).toBe(0);
    const report = JSON.parse(held.stdout) as ConformReport;
    expect({ conforms: report.conforms, observations: report.replayed.observations, acts: report.replayed.acts }).toEqual({
      conforms: true,
      observations: 1,
      acts: 0,
    });
    expect(report.properties.filter((p) => p.result === 'held').map((p) => p.name)).toEqual([
      'never-touches-unowned',
      'at-most-max',
      'one-operation-at-a-time',
    ]);
  }, 180_000);

  it('an altered real trace diverges (exit 1): an observed status, then an error, each reported with what the model allowed', async () => {
    const frozen = altered(hold, 'frozen.json', (doc) => {
      const io = doc.frames.find((f) => f.io?.kind === 'observe')!.io;
      if (io?.kind !== 'observe' || !io.output?.instances[1]) throw new Error('the hold run observed fewer than 2 pods');
      io.output.instances[1].status = 'Frozen';
    });
    const r = await runCli(['conform', frozen]);
    expect(r.code).toBe(1);
    const pod = (readDoc(frozen).frames.find((f) => f.io?.kind === 'observe')!.io as { output: { instances: { name: string }[] } }).output
      .instances[1]!.name;
    expect(r.stdout).toMatch(/DIVERGES from the model at frame \d+ \(t [\d:.]+, xstate\.done\.actor\.observe\)/);
    // The run's first observation starts the model's world: a pod in it is Running or Stopped there.
    expect(r.stdout).toContain(`  world: ${pod} observed Frozen: no move of the model freezes an instance\n`);
    expect(r.stdout).toContain(
      '  the model allows instead:\n    - absent\n    - Running — someone created it (addInstance)\n    - Stopped — someone created and stopped it (addInstance, kill)\n',
    );

    const running = altered(scaleUp, 'running.json', (doc) => {
      const f = doc.frames.find((g) => g.event === 'xstate.done.actor.createPod')!;
      f.event = 'xstate.error.actor.createPod';
      f.io = { kind: 'create', error: { message: 'Instance is running', kind: 'api', server: 'Instance is running' } };
    });
    const e = await runCli(['conform', running]);
    expect(e.code).toBe(1);
    expect(e.stdout).toContain(
      '  world: create\n  recorded: error "Instance is running" ("Instance is running")\n  the model allows instead:\n    - done — created and started\n',
    );
  }, 120_000);

  it('a run under a policy module conforms with that module, and says it needs the file when it is gone (exit 2)', async () => {
    const module = join(dir, 'my-policy.ts');
    copyFileSync(resolve(ROOT, 'examples/hpa-policy/step-policy.ts'), module);
    const out = join(dir, 'module.json');
    expect(
      (await runCli(['real', '--config', writeConfig('module.yaml', 'policy: { module: ./my-policy.ts }'), '--once', '--out', out])).code,
    ).toBe(0);
    expect((await runCli(['conform', out])).code).toBe(0);
    const moved = join(dir, 'moved-policy.ts');
    renameSync(module, moved);
    const missing = await runCli(['conform', out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^loopscope: .*module\.json: frames\[0\]\.io\.config\.policy: expected the policy module .*my-policy\.ts to be readable: .*--policy-module <file>\)\n$/,
    );
    expect((await runCli(['conform', out, '--policy-module', moved])).code).toBe(0);
  }, 180_000);
});
