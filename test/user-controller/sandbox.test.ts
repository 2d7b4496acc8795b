// A user's controller module runs sandboxed: what it may do (read the cache, write through the
// client, await the client, throw a TerminalError) and what it may not (import, files, network,
// timers, hang) — each refusal is a clear message, never a crash of loopscope.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../sim/scenario/errors';
import { loadControllerSandbox } from '../../sim/user-controller/sandbox';

const DIR = mkdtempSync(join(tmpdir(), 'loopscope-module-'));
let n = 0;

function sandboxOf(source: string, timeoutMs = 200) {
  const file = join(DIR, `m${n++}.ts`);
  writeFileSync(file, source);
  return loadControllerSandbox(file, 'scenario.yaml', 'controller.module', timeoutMs);
}

const HEAD = `export const controller = { for: 'PodService', owns: ['Pod'] };\n`;
const PS = {
  kind: 'PodService',
  metadata: { namespace: 'default', name: 'web', uid: 'uid-0001', resourceVersion: 3 },
  spec: { image: 'nginx' },
  status: {},
};
const run = (source: string, timeoutMs?: number) =>
  sandboxOf(HEAD + source, timeoutMs).reconcile({ namespace: 'default', name: 'web' }, [PS]);

function loadError(source: string): string {
  try {
    sandboxOf(source);
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error('expected the module to be refused');
}

describe('a controller module in its sandbox', () => {
  it('reads the cache, records writes in order and returns its Result', () => {
    const out = run(`import { ownerReference } from 'loopscope/controller';
      export function reconcile(req, client) {
        const ps = client.get('PodService', req);
        client.create({ kind: 'Pod', metadata: { name: ps.metadata.name + '-pod', ownerReferences: [ownerReference(ps)] }, spec: {} });
        ps.spec.image = 'nginx:2'; client.update(ps);
        client.status().update({ ...ps, status: { ready: 1 } });
        return { requeueAfter: 5000 };
      }`);
    expect(out.kind).toBe('ok');
    expect(out.kind === 'ok' && out.result).toEqual({ requeueAfter: 5000 });
    expect(out.writes.map((w) => (w as { verb: string }).verb)).toEqual(['create', 'update', 'updateStatus']);
    expect(out.writes[0]).toMatchObject({
      object: {
        metadata: { namespace: 'default', name: 'web-pod', ownerReferences: [{ kind: 'PodService', uid: 'uid-0001', controller: true }] },
      },
    });
  });

  it('an async reconcile that awaits the client works', () => {
    const out = run(
      `export async function reconcile(req, client) { const ps = await client.get('PodService', req); await client.delete(ps); return { requeue: true }; }`,
    );
    expect(out).toMatchObject({ kind: 'ok', result: { requeue: true }, writes: [{ verb: 'delete', kind: 'PodService', name: 'web' }] });
  });

  it('NotFound is an error the module can test with isNotFound; uncaught it is a returned error', () => {
    expect(
      run(`import { isNotFound } from 'loopscope/controller';
      export function reconcile(req, client) { try { client.get('Pod', { name: 'x' }); } catch (e) { if (isNotFound(e)) return {}; throw e; } }`)
        .kind,
    ).toBe('ok');
    expect(run(`export function reconcile(req, client) { client.get('Pod', { name: 'x' }); }`)).toMatchObject({
      kind: 'error',
      message: 'Pod "default/x" not found',
    });
  });

  it('TerminalError is terminal, an Error is a returned error, a TypeError is a crash (panic)', () => {
    expect(
      run(`import { TerminalError } from 'loopscope/controller'; export function reconcile() { throw new TerminalError('bad spec'); }`),
    ).toMatchObject({ kind: 'terminal', message: 'bad spec' });
    expect(run(`export function reconcile() { throw new Error('try later'); }`)).toMatchObject({ kind: 'error', message: 'try later' });
    expect(run(`export function reconcile(req, client) { return client.get('PodService', req).spec.missing.field; }`)).toMatchObject({
      kind: 'panic',
    });
  });

  it('a hang is stopped at the time limit and reported', () => {
    const out = run(`export function reconcile() { for (;;) {} }`, 100);
    expect(out).toMatchObject({ kind: 'panic', message: 'reconcile did not return within 100 ms (a hang or a loop that does not end)' });
  });

  it('awaiting anything but the client is reported, not waited for', () => {
    expect(run(`export async function reconcile() { await new Promise(() => {}); }`)).toMatchObject({
      kind: 'panic',
      message: expect.stringContaining('never settled'),
    });
  });

  it('no timers, process, fetch, require or eval reach the module', () => {
    for (const body of [
      'setTimeout(() => {}, 1)',
      'process.exit(1)',
      "fetch('http://127.0.0.1/')",
      "require('fs')",
      "eval('1')",
      "new Function('return process')()",
    ]) {
      const out = run(`export function reconcile() { ${body}; return {}; }`);
      expect(out.kind, body).toBe('panic');
    }
  });

  it('importing a file or network module is refused when the module loads', () => {
    expect(
      loadError(
        `import { readFileSync } from 'node:fs'; export const controller = { for: 'Pod' }; export function reconcile() { readFileSync('/etc/passwd'); }`,
      ),
    ).toContain('import of "node:fs" is not allowed');
    expect(
      loadError(
        `import http from 'node:http'; export const controller = { for: 'Pod' }; export function reconcile() { http.get('http://127.0.0.1/'); }`,
      ),
    ).toContain('import of "node:http" is not allowed');
  });

  it('a module without reconcile, one that does not compile, or a missing file: the scenario field is named', () => {
    expect(loadError(`export const controller = { for: 'Pod' };`)).toContain('controller.module: expected the module');
    expect(loadError(`export function reconcile( {`)).toContain('expected a module that compiles');
    expect(() => loadControllerSandbox(join(DIR, 'nope.ts'), 'scenario.yaml', 'controller.module', 100)).toThrow(
      /scenario.yaml.*controller.module.*cannot read/,
    );
    expect(() => loadControllerSandbox(DIR, 'scenario.yaml', 'controller.module', 100)).toThrow(/expected a regular file/);
  });
});
