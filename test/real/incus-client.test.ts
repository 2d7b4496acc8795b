// IncusClient against the REAL Incus daemon on this machine (never a mock).
// .ci/run runs .ci/setup-incus.sh first (daemon + `loopscope-busybox` image). With CI set,
// a missing daemon fails the suite; elsewhere it is skipped with the reason printed.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IncusAbortError,
  IncusClient,
  IncusConnectionError,
  IncusError,
  IncusNotFoundError,
  IncusOperationError,
  IncusOperationGoneError,
  IncusTimeoutError,
  connectIncus,
  defaultSocketPath,
  resolveConnection,
} from '../../real/incus';
import { MiB, socketPath, withIncus, withIncusHttps } from './real-helpers';
import { openHttpsListener, type HttpsListener } from './https-listener';

const IMAGE = process.env.LOOPSCOPE_INCUS_IMAGE ?? 'loopscope-busybox';
const RUN = `lstest-${randomBytes(3).toString('hex')}`;

/** Delete, retrying while the server is still busy with another operation on the instance. */
async function deleteWhenIdle(client: IncusClient, name: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await client.deleteInstance(name);
      return;
    } catch (err) {
      // After a failed start Incus still runs the stop hook for a moment and answers
      // 'Instance is busy running a "stop" operation' or even "Instance is running".
      if (i >= 50 || !(err instanceof IncusError) || !/busy|is running/i.test(err.serverMessage)) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Await a promise expected to reject and return the error for assertions. */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

withIncus.describe('IncusClient against the real daemon', () => {
  let client: IncusClient;

  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
  }, 120_000);

  afterAll(async () => {
    if (!client) return;
    // Remove whatever this run created, even after a failed test.
    const names = await client.listInstances({ recursion: 0 }).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.startsWith(RUN))) {
      await client.updateInstanceState(name, { action: 'stop', force: true, timeout: 10 }).catch(() => undefined);
      await deleteWhenIdle(client, name).catch(() => undefined);
    }
    await client.close();
  }, 120_000);

  it('reads server info (which daemon, API extensions) in one request', async () => {
    const before = client.requestCount;
    const info = await client.server();
    expect(client.requestCount - before).toBe(1);
    expect(info.api_version).toBe('1.0');
    expect(info.auth).toBe('trusted');
    expect(['incus', 'lxd']).toContain(info.environment?.server);
    expect(info.api_extensions).toContain('instances_state_total');
  });

  it('gets a missing instance as IncusNotFoundError', async () => {
    const err = await rejection(client.getInstance(`${RUN}-missing`));
    expect(err).toBeInstanceOf(IncusNotFoundError);
    expect((err as IncusNotFoundError).errorCode).toBe(404);
    expect((err as IncusNotFoundError).serverMessage).toMatch(/not found/i);
  });

  it('reports a missing socket as IncusConnectionError naming the path and the fix', async () => {
    const missing = join(tmpdir(), `${RUN}-no-such-dir`, 'unix.socket');
    const err = await rejection(IncusClient.connect({ socketPath: missing }));
    expect(err).toBeInstanceOf(IncusConnectionError);
    const e = err as IncusConnectionError;
    expect(e.code).toBe('ENOENT');
    expect(e.endpoint).toBe(missing);
    expect(e.message).toContain(missing);
    expect(e.message).toMatch(/setup-incus\.sh|INCUS_SOCKET/);
  });

  it('rejects a request whose AbortSignal is already aborted, without sending it', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('caller gave up'));
    const before = client.requestCount;
    const err = await rejection(client.server({ signal: ctl.signal }));
    expect(err).toBeInstanceOf(IncusAbortError);
    expect((err as Error).name).toBe('AbortError');
    expect(client.requestCount).toBe(before);
  });

  it('reports a vanished or unknown operation as IncusOperationGoneError', async () => {
    const err = await rejection(client.waitOperation('/1.0/operations/00000000-0000-0000-0000-000000000000', 5));
    expect(err).toBeInstanceOf(IncusOperationGoneError);
    expect(err).toBeInstanceOf(IncusNotFoundError);
  });

  describe('instance lifecycle', () => {
    const name = `${RUN}-a`;

    it('creates an instance from the image alias with config', async () => {
      const op = await client.createInstance({
        name,
        source: { type: 'image', alias: IMAGE },
        config: { 'user.loopscope.test': '1', 'limits.memory': '64MiB' },
      });
      expect(op?.status).toBe('Success');
      const inst = await client.getInstance(name);
      expect(inst.status).toBe('Stopped');
      expect(inst.config['user.loopscope.test']).toBe('1');
      expect(inst.config['limits.memory']).toBe('64MiB');
    }, 60_000);

    it('starts it; one recursion=2 list shows it Running with memory.total = the 64MiB limit', async () => {
      await client.updateInstanceState(name, { action: 'start', timeout: 30 });
      const before = client.requestCount;
      const all = await client.listInstances({ recursion: 2 });
      expect(client.requestCount - before).toBe(1);
      const mine = all.find((i) => i.name === name);
      expect(mine?.status).toBe('Running');
      expect(mine?.state?.status).toBe('Running');
      expect(mine?.state?.memory.total).toBe(64 * MiB);
      expect(mine?.state?.memory.usage).toBeGreaterThan(0);
      // Server-side filter on our config key finds it too.
      const filtered = await client.listInstances({ recursion: 1, filter: 'config.user.loopscope.test eq 1' });
      expect(filtered.map((i) => i.name)).toContain(name);
    }, 60_000);

    it('exec returns the exit code and, on request, the output', async () => {
      const r = await client.exec(name, ['sh', '-c', 'echo out; echo err >&2; exit 3'], { captureOutput: true });
      expect(r.returnCode).toBe(3);
      expect(r.stdout).toBe('out\n');
      expect(r.stderr).toBe('err\n');
    }, 30_000);

    it('exec writing 20 MB to /dev/shm raises memory.usage (charged to the container)', async () => {
      const before = (await client.getInstanceState(name)).memory.usage;
      const r = await client.exec(name, ['dd', 'if=/dev/zero', 'of=/dev/shm/fill', 'bs=1M', 'count=20']);
      expect(r.returnCode).toBe(0);
      const after = (await client.getInstanceState(name)).memory.usage;
      expect(after - before).toBeGreaterThan(15 * MiB);
      await client.exec(name, ['rm', '-f', '/dev/shm/fill']);
    }, 30_000);

    it('DELETE of a running instance fails with the server message "Instance is running"', async () => {
      const err = await rejection(client.deleteInstance(name));
      expect(err).toBeInstanceOf(IncusError);
      expect(err).not.toBeInstanceOf(IncusNotFoundError);
      const e = err as IncusError;
      expect(e.status).toBe(400);
      expect(e.serverMessage).toBe('Instance is running');
    });

    it('patches config and removes a key (PUT with ETag)', async () => {
      await client.patchInstance(name, { config: { 'user.loopscope.extra': 'x' } });
      expect((await client.getInstance(name)).config['user.loopscope.extra']).toBe('x');
      await client.updateInstanceConfig(name, { 'user.loopscope.extra': null, 'limits.memory': '96MiB' });
      const inst = await client.getInstance(name);
      expect(inst.config['user.loopscope.extra']).toBeUndefined();
      expect(inst.config['user.loopscope.test']).toBe('1');
      // The new limit applies live to the running container.
      expect((await client.getInstanceState(name)).memory.total).toBe(96 * MiB);
    }, 30_000);

    it('an AbortSignal aborts a request in flight (a long exec wait)', async () => {
      const ctl = new AbortController();
      const t0 = Date.now();
      setTimeout(() => ctl.abort(), 300);
      const err = await rejection(client.exec(name, ['sleep', '5'], { signal: ctl.signal }));
      expect(err).toBeInstanceOf(IncusAbortError);
      expect(Date.now() - t0).toBeLessThan(3_000);
    }, 30_000);

    it('times out: a per-request timeout and an exec wait timeout', async () => {
      // The daemon holds a wait request open until the operation ends (5 s here).
      const started = await client.request<{ id: string }>('POST', `/1.0/instances/${name}/exec`, {
        body: { command: ['sleep', '5'], 'wait-for-websocket': false, 'record-output': true, interactive: false },
      });
      const opId = started.envelope.metadata.id;
      const err1 = await rejection(client.get(`/1.0/operations/${opId}/wait`, { query: { timeout: 5 }, timeoutMs: 300 }));
      expect(err1).toBeInstanceOf(IncusTimeoutError);
      expect((err1 as IncusTimeoutError).timeoutMs).toBe(300);

      const t0 = Date.now();
      const err2 = await rejection(client.exec(name, ['sleep', '5'], { timeoutMs: 1_000 }));
      expect(err2).toBeInstanceOf(IncusTimeoutError);
      expect(Date.now() - t0).toBeLessThan(4_000);
    }, 30_000);

    it('stops and deletes it', async () => {
      const op = await client.updateInstanceState(name, { action: 'stop', timeout: 30 });
      expect(op?.status).toBe('Success');
      expect((await client.getInstanceState(name)).status).toBe('Stopped');
      await client.deleteInstance(name);
      expect(await rejection(client.getInstance(name))).toBeInstanceOf(IncusNotFoundError);
    }, 60_000);
  });

  it('a failing operation (start that cannot succeed) rejects with IncusOperationError and the server err', async () => {
    const name = `${RUN}-fail`;
    // A disk device whose source folder is gone by the start: Incus accepts the device (the folder exists
    // then) and fails the start's own validation inside the operation, so the wait answers HTTP 200 with an
    // error envelope. (A 1 MiB memory limit did this only where the daemon's cgroups enforce memory.)
    const source = mkdtempSync(join(tmpdir(), 'loopscope-gone-'));
    await client.createInstance({
      name,
      source: { type: 'image', alias: IMAGE },
      devices: { gone: { type: 'disk', source, path: '/mnt' } },
    });
    rmSync(source, { recursive: true });
    const err = await rejection(client.updateInstanceState(name, { action: 'start', timeout: 30 }));
    expect(err).toBeInstanceOf(IncusOperationError);
    expect((err as IncusOperationError).serverMessage).toMatch(/\S/);
    expect((err as IncusOperationError).operationId).toMatch(/^[0-9a-f-]{36}$/);
    const t0 = Date.now();
    await deleteWhenIdle(client, name);
    console.info(`[incus-client.test] delete after a failed start settled in ${Date.now() - t0} ms`);
  }, 60_000);

  it('does not wait when asked (wait: false) and waits later with waitOperation', async () => {
    const name = `${RUN}-nowait`;
    const op = await client.createInstance({ name, source: { type: 'image', alias: IMAGE }, start: true }, { wait: false });
    expect(op?.status).toBe('Running');
    const done = await client.waitOperation(op!, 60);
    expect(done.status).toBe('Success');
    expect((await client.getInstance(name)).status).toBe('Running');
    await client.updateInstanceState(name, { action: 'stop', force: true });
    await client.deleteInstance(name);
  }, 60_000);

  withIncusHttps.describe('https remote (core.https_address on loopback, client certificate)', () => {
    let https: HttpsListener | undefined;
    let conf: string;
    let url: string;

    beforeAll(async () => {
      https = await openHttpsListener(client, `${RUN}-cert`);
      [conf] = https.confs as [string];
      ({ url } = https);
    }, 120_000);

    afterAll(async () => {
      if (client) await https?.close();
    }, 120_000);

    it('connects by remote name from the CLI config, pinning servercerts/<name>.crt', async () => {
      const opts = resolveConnection({ remote: 'lstest', configDir: conf });
      expect('url' in opts && opts.url).toBe(url);
      const remote = await connectIncus({ remote: 'lstest', configDir: conf });
      try {
        const info = await remote.server();
        expect(info.auth).toBe('trusted');
        expect((await remote.listInstances({ recursion: 0 })).length).toBeGreaterThanOrEqual(0);
      } finally {
        await remote.close();
      }
    });

    it('refuses a server whose certificate does not match the pinned one', async () => {
      const wrong = readFileSync(join(conf, 'client.crt'));
      const err = await rejection(
        IncusClient.connect({
          url,
          cert: readFileSync(join(conf, 'client.crt')),
          key: readFileSync(join(conf, 'client.key')),
          ca: wrong,
        }),
      );
      expect(err).toBeInstanceOf(IncusConnectionError);
    });
  });
});

describe('connection resolution (no daemon needed)', () => {
  it('honours INCUS_SOCKET, then INCUS_DIR, then the default', () => {
    expect(defaultSocketPath({ INCUS_SOCKET: '/x/s.sock', INCUS_DIR: '/y' })).toBe('/x/s.sock');
    expect(defaultSocketPath({ INCUS_DIR: '/y' })).toBe('/y/unix.socket');
    expect(defaultSocketPath({})).toBe('/var/lib/incus/unix.socket');
    expect(resolveConnection({ env: { INCUS_DIR: '/y' }, configDir: '/nonexistent' })).toEqual({ socketPath: '/y/unix.socket' });
  });

  it('names the known remotes when asked for an unknown one', () => {
    expect(() => resolveConnection({ remote: 'nope', configDir: '/nonexistent' })).toThrow(/unknown Incus remote "nope"/);
  });
});
