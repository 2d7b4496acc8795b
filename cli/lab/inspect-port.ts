// `loopscope lab --inspect PORT`: a port of its own for the relay, on 127.0.0.1, where an app's
// `createWebSocketInspector({ url: 'ws://127.0.0.1:PORT' })` (no path: the library's default is
// ws://localhost:8080) is taken as a sender. Plain HTTP requests there get one line saying so.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { InspectRelay } from './inspect-relay';
import { inspectUpgrade } from './inspect-relay';

export interface InspectPort {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:port (0: any free port); rejects with the listen error (EADDRINUSE, …). */
/** `labUrl` is asked on each request: the lab's port is known only once it listens, after this one. */
export async function listenInspectPort(relay: InspectRelay, port: number, labUrl: () => string): Promise<InspectPort> {
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    const text = `this port takes XState inspection events over WebSocket; the lab shows them at ${labUrl()}\n`;
    res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), Upgrade: 'websocket' });
    res.end(text);
  });
  const upgrade = inspectUpgrade(relay, true);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(req, socket, head));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const address = server.address() as AddressInfo; // a TCP server's address is an AddressInfo (a pipe's would be a string)
  return {
    port: address.port,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
