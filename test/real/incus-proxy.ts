// A unix-socket HTTP proxy in front of the real Incus daemon, for tests that must stop a process at
// an exact request: every request is forwarded unchanged, except those `hold` picks, which are never
// forwarded (the process waits on them until the test kills it). Plain request/response only: no
// websocket upgrades (a `loopscope real rename` sends none). Those `fail` picks are answered with an
// Incus error (HTTP 500) instead: an API failure the daemon did not make.
import { request } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HeldRequest {
  method: string;
  path: string;
  body: string;
}

export interface IncusProxy {
  /** The socket to give the process (INCUS_SOCKET). */
  socketPath: string;
  /** Resolves with the first request `hold` picked. */
  held: Promise<HeldRequest>;
  close(): Promise<void>;
}

/** An answer Incus gives a failed request (its error envelope), for `fail`: the client's own error handling reads it. */
const INJECTED_FAILURE = JSON.stringify({
  type: 'error',
  status: '',
  status_code: 0,
  operation: '',
  error_code: 500,
  error: 'injected by the test proxy: API failure',
  metadata: null,
});

export async function startIncusProxy(
  incusSocket: string,
  hold: (r: HeldRequest) => boolean,
  fail: (r: HeldRequest) => boolean = () => false,
): Promise<IncusProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'loopscope-incus-proxy-'));
  const socketPath = join(dir, 'unix.socket');
  let onHeld: (r: HeldRequest) => void = () => undefined;
  const held = new Promise<HeldRequest>((resolve) => {
    onHeld = resolve;
  });
  const waiting: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen: HeldRequest = { method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString() };
      if (fail(seen)) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(INJECTED_FAILURE);
        return;
      }
      if (hold(seen)) {
        waiting.push(res);
        onHeld(seen);
        return;
      }
      const upstream = request({ socketPath: incusSocket, method: seen.method, path: seen.path, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (err) => {
        res.destroy(err);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    held,
    close: async () => {
      for (const res of waiting) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
