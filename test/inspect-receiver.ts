// A WebSocket receiver of XState inspection messages for the tests of `--inspect`: one sender (the
// command under test), every message kept in order, `closed` once the sender has drained and closed.
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { WebSocketServer } from 'ws';

export interface InspectReceiver {
  url: string;
  got: StatelyInspectionEvent[];
  /** Resolves when the sender closes its connection (the CLI closes after the last message left). */
  closed: Promise<void>;
  stop(): Promise<void>;
}

export async function startInspectReceiver(): Promise<InspectReceiver> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('expected a TCP address');
  const got: StatelyInspectionEvent[] = [];
  const closed = new Promise<void>((resolve) =>
    server.on('connection', (ws) => {
      ws.on('message', (m) => got.push(JSON.parse(m.toString()) as StatelyInspectionEvent));
      ws.on('close', () => resolve());
    }),
  );
  return { url: `ws://127.0.0.1:${address.port}`, got, closed, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
