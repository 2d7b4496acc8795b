// client.Patch with client.MergeFrom (controller-runtime pkg/client/patch.go): the module sends a
// JSON merge patch (RFC 7386) computed from the object as read; the simulated API server applies
// it to what it holds now (no Conflict), or checks the resourceVersion with the optimistic lock.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../machines/kubernetes';
import { applyMergePatch } from '../../machines/kubernetes';
import { loadScenario, runnerFor } from '../../sim/loops';
import { loadControllerSandbox } from '../../sim/user-controller/sandbox';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import { applyWrite } from '../../sim/worlds/kubernetes';

const DIR = mkdtempSync(join(tmpdir(), 'loopscope-patch-'));
const PS = {
  kind: 'PodService',
  metadata: { namespace: 'default', name: 'web', uid: 'uid-0001', resourceVersion: 3, labels: { a: '1', b: '2' } },
  spec: { image: 'nginx', port: 80 },
  status: {},
};

function module(name: string, body: string): string {
  const file = join(DIR, `${name}.ts`);
  writeFileSync(
    file,
    `import { mergeFrom } from 'loopscope/controller';\nexport const controller = { for: 'PodService', owns: ['Pod'] };\n${body}`,
  );
  return file;
}

describe('Patch with MergeFrom', () => {
  it('RFC 7386: objects merge, null removes, arrays replace', () => {
    expect(applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({ a: { c: 2, d: 3 }, l: [3] });
  });

  it('the module sends only what it changed; status().patch the status; the optimistic lock carries the resourceVersion', () => {
    const sandbox = loadControllerSandbox(
      module(
        'm',
        `export function reconcile(req, client) {
      const ps = client.get('PodService', req);
      const before = JSON.parse(JSON.stringify(ps));
      ps.metadata.labels = { a: '1', c: '3' };
      ps.spec.port = 8080;
      client.patch(ps, mergeFrom(before));
      client.status().patch({ ...ps, status: { phase: 'Ready' } }, mergeFrom(before));
      client.patch(ps, mergeFrom(before, { optimisticLock: true }));
    }`,
      ),
      's.yaml',
      'controller.module',
      500,
    );
    const out = sandbox.reconcile({ namespace: 'default', name: 'web' }, [PS]);
    expect(out.kind).toBe('ok');
    expect(out.writes).toEqual([
      {
        verb: 'patch',
        kind: 'PodService',
        namespace: 'default',
        name: 'web',
        patch: { metadata: { labels: { b: null, c: '3' } }, spec: { port: 8080 } },
      },
      { verb: 'patchStatus', kind: 'PodService', namespace: 'default', name: 'web', patch: { status: { phase: 'Ready' } } },
      {
        verb: 'patch',
        kind: 'PodService',
        namespace: 'default',
        name: 'web',
        patch: { metadata: { labels: { b: null, c: '3' }, resourceVersion: 3 }, spec: { port: 8080 } },
      },
    ]);
  });

  it('the API server applies a patch to what it holds now; with the lock a stale version is a Conflict', () => {
    const { scenario } = loadScenario(writeScenario('plain', 'export function reconcile() {}'));
    const world = scenario.world as KubeWorld;
    const ps = Object.values(world.store.objects).find((o) => o.kind === 'PodService')!;
    const stale = ps.metadata.resourceVersion - 1;
    const patch = { metadata: { labels: { tier: 'web' } }, spec: { port: 8080 } };
    const plain = applyWrite(world, { verb: 'patch', kind: 'PodService', namespace: 'default', name: 'web', patch }, 0);
    expect(plain.error).toBeUndefined();
    const after = plain.world.store.objects['PodService/default/web'] as KObject;
    expect({ labels: after.metadata.labels.tier, port: after.spec.port, generation: after.metadata.generation }).toEqual({
      labels: 'web',
      port: 8080,
      generation: 2,
    });
    const locked = applyWrite(
      world,
      {
        verb: 'patch',
        kind: 'PodService',
        namespace: 'default',
        name: 'web',
        patch: { ...patch, metadata: { ...patch.metadata, resourceVersion: stale } },
      },
      0,
    );
    expect(locked.error).toMatch(/^Conflict: /);
    const missing = applyWrite(world, { verb: 'patch', kind: 'PodService', namespace: 'default', name: 'nope', patch }, 0);
    expect(missing.error).toMatch(/^NotFound: /);
  });

  it('through a run: the patch reaches the store, and a patch of a field the plane does not let clients set is a crash finding', () => {
    const good = runnerFor(
      writeScenario(
        'good',
        `export function reconcile(req, client) {
      const ps = client.get('PodService', req);
      if (ps.metadata.labels.patched) return {};
      const before = JSON.parse(JSON.stringify(ps));
      ps.metadata.labels = { ...ps.metadata.labels, patched: 'yes' };
      client.patch(ps, mergeFrom(before));
    }`,
      ),
    );
    good.runner.run(5_000);
    expect((good.runner.world as KubeWorld).store.objects['PodService/default/web']!.metadata.labels.patched).toBe('yes');
    expect(good.runner.trace().frames.some((f) => f.note?.startsWith('PATCH podservice web'))).toBe(true);
    const bad = runnerFor(
      writeScenario(
        'bad',
        `export function reconcile(req, client) {
      const ps = client.get('PodService', req);
      const before = JSON.parse(JSON.stringify(ps));
      ps.metadata.name = 'other';
      client.patch(ps, mergeFrom(before));
    }`,
      ),
    );
    bad.runner.run(2_000);
    expect(
      bad.runner
        .trace()
        .frames.map((f) => f.note ?? '')
        .join('\n'),
    ).toContain(
      'write #1 (patch PodService web) patches metadata.name: only labels, annotations, finalizers, ownerReferences are modelled',
    );
  });
});

function writeScenario(name: string, body: string): string {
  const controller = module(`c-${name}`, body);
  const file = join(DIR, `${name}.yaml`);
  writeFileSync(
    file,
    `loop: kubernetes\nduration: 10s\ncontroller: { module: ./${controller.split('/').at(-1)} }\nobjects:\n  - { kind: PodService, metadata: { name: web }, spec: { image: nginx, port: 80 } }\n`,
  );
  return file;
}
