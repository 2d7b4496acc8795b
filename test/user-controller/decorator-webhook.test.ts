// A user's Metacontroller DecoratorController, for real: Debian's python3 serves the shipped hook
// (examples/metacontroller/decorator_sync.py) on loopback; loopscope sends it the request
// Metacontroller sends (object, attachments, related, finalizing) and applies the answer (labels,
// annotations, attachments, finalized). The hook is seed 003's sidecar decorator, which the
// built-in `controller: decorator` runs in TypeScript: both must do the same.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { loadScenario, runnerFor } from '../../sim/loops';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import { requires } from '../prerequisites';

const withPython = await requires('python3');
const ROOT = resolve(import.meta.dirname, '../..');
const DIR = mkdtempSync(join(tmpdir(), 'loopscope-decorator-'));
let hook: ChildProcess | undefined;
let url = '';

/** The shipped scenario pointed at the running hook; `controller` replaced for the built-in twin; `keep`: timeline entries kept. */
function scenario(name: string, options: { builtin?: boolean; keep?: number[] } = {}): string {
  let yaml = readFileSync(join(ROOT, 'examples/metacontroller/check-decorator.yaml'), 'utf8').replace('http://127.0.0.1:8732/sync', url);
  if (options.builtin) yaml = yaml.replace(/^controller:\n(  .*\n)+/m, 'controller: decorator\n').replace(/^properties:\n(  .*\n)+/m, '');
  const [head, timeline] = yaml.split(/^timeline:\n/m) as [string, string];
  const entries = timeline.split(/^(?=  - )/m).filter((e) => e.trim());
  const keep = options.keep ?? entries.map((_, i) => i);
  const file = join(DIR, `${name}.yaml`);
  writeFileSync(file, `${head}timeline:\n${keep.map((i) => entries[i]).join('')}`);
  return file;
}

const lastWorld = (file: string) => {
  const { runner, scenario: s } = runnerFor(file);
  runner.run(s.durationMs);
  return { trace: runner.trace(), world: runner.world as KubeWorld };
};

// The hook starts inside the gated suite: without python3 nothing is spawned.
withPython.describe('a DecoratorController webhook (python3 on loopback)', () => {
  beforeAll(async () => {
    hook = spawn('python3', [join(ROOT, 'examples/metacontroller/decorator_sync.py'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((ok, fail) => {
      createInterface({ input: hook!.stdout! }).once('line', ok);
      hook!.once('exit', (code) => fail(new Error(`decorator_sync.py exited with ${code}`)));
    });
    url = `http://127.0.0.1:${port.trim()}/sync`;
  }, 30_000);
  afterAll(() => {
    hook?.kill();
  });

  it('decorates as the built-in decorator does: same store at the end of the same run', () => {
    const hooked = lastWorld(scenario('hooked'));
    const builtin = lastWorld(scenario('builtin', { builtin: true }));
    const objects = (w: KubeWorld) =>
      JSON.stringify(
        Object.values(w.store.objects).map((o) => [
          o.kind,
          o.metadata.name,
          o.metadata.labels,
          o.metadata.annotations,
          o.metadata.ownerReferences,
          o.spec,
        ]),
      );
    expect(objects(hooked.world)).toBe(objects(builtin.world));
    const cm = hooked.world.store.objects['ConfigMap/default/worker-log-shipper'];
    expect(cm?.spec).toEqual({ data: { input: '/var/log/pods/worker', output: 'loki:3100' } });
    expect(hooked.world.store.objects['Pod/default/api']?.metadata.labels['sidecar.example.com/decorated']).toBe('true');
    expect(
      hooked.trace.frames.some(
        (f) => f.note === 'reconcile default/api: decorate api: add labels/annotations, attach configmap/api-log-shipper',
      ),
    ).toBe(true);
  }, 60_000);

  it('under the explorer: the same verdicts and the same state space as the built-in on the same bounds', () => {
    const check = (file: string) => {
      const { entry, scenario: s } = loadScenario(file);
      return checkScenario(entry, s);
    };
    const hooked = check(scenario('check-hooked', { keep: [0] }));
    const builtin = check(scenario('check-builtin', { builtin: true, keep: [0] }));
    expect(hooked.result.stats.complete).toBe(true);
    expect(Object.fromEntries(hooked.result.verdicts.map((v) => [v.property.name, v.status]))).toEqual({
      'no-crash': 'holds',
      'no-orphans': 'holds',
      idempotent: 'holds',
      differential: 'holds',
      'cleanup-before-finalizer': 'holds',
      'one-attachment': 'holds',
      converges: 'holds',
    });
    expect(hooked.result.stats.distinct).toBe(builtin.result.stats.distinct);
  }, 60_000);

  it('same seed, byte-identical trace', () => {
    const file = scenario('determinism');
    expect(JSON.stringify(lastWorld(file).trace)).toBe(JSON.stringify(lastWorld(file).trace));
  }, 60_000);

  it('finalize: the finalizer goes on, the hook tears the attachment down, then says finalized and the target goes', () => {
    const file = join(DIR, 'finalize.yaml');
    writeFileSync(
      file,
      `loop: kubernetes
name: decorator-finalize
duration: 20s
controller: { metacontroller: decorator, resource: Service, labelSelector: { sidecar: inject }, attachments: [ConfigMap], sync: ${url}, finalize: ${url} }
objects:
  - { apiVersion: v1, kind: Service, metadata: { name: api, labels: { sidecar: inject } }, spec: { selector: { app: api }, ports: [{ port: 80 }] } }
timeline:
  - { at: 5s, delete: { kind: Service, name: api } }
`,
    );
    const { trace, world } = lastWorld(file);
    const notes = trace.frames.map((f) => f.note ?? '');
    const at = (text: string) => notes.findIndex((n) => n.includes(text));
    const order = [
      at('add finalizer metacontroller.io/decoratorcontroller-service-decorator'),
      at('decorate api: add labels/annotations, attach configmap/api-log-shipper'),
      at('kubectl delete service/api'),
      at('finalize api: add labels/annotations, detach api-log-shipper'),
      at('finalize api: finalized: remove the finalizer'),
    ];
    expect(
      order.every((i) => i >= 0),
      JSON.stringify(order),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(Object.keys(world.store.objects).filter((k) => !k.startsWith('Node/'))).toEqual([]);
    expect(world.collected.Service ?? 0).toBe(0); // cleaned up by the hook, nothing left for the garbage collector
  }, 60_000);
});
