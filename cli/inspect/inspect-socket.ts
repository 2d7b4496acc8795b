// The WebSocket end of `--inspect <ws-url>`: the adapter handed to @statelyai/inspect's
// createInspector, sending each inspection event as one JSON text message — what the library's own
// createWebSocketInspector sends (src/webSocket.ts), so any receiver of it (its
// createWebSocketReceiver, its createInspectorServer relay, the lab) reads ours. Ours differs where a
// command-line run needs it to: it is open before the run starts (the library's adapter keeps only
// the last 200 events sent before its socket opens, and a simulation sends thousands in its first
// millisecond), and it is drained before the process exits (the library closes at once).
import WebSocket from 'ws';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { inspectionText } from '../../sim/inspect-json';
import { ExitError } from '../exit';

/** How long a connection or the final drain may take before the run gives up on the receiver. */
const CONNECT_MS = 10_000;
const DRAIN_MS = 10_000;

/** `--inspect`'s URL, or a one-line reason why not (ws:// or wss:// only: what createWebSocketInspector takes). */
export function parseInspectUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `expected a WebSocket URL like ws://127.0.0.1:8080, got "${text}"`;
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return `expected a ws:// or wss:// URL, got "${text}"`;
  return url;
}

export class InspectSocket {
  private lost: string | undefined;
  private sent = 0;

  private constructor(
    private readonly ws: WebSocket,
    readonly url: string,
    private readonly onLost: (why: string) => void,
  ) {
    ws.on('close', () => this.lose('the receiver closed the connection'));
    ws.on('error', (e) => this.lose(e.message));
  }

  /** Connects, or ends the command with a one-line error (exit 1: the environment, not the input). */
  static async open(url: URL, onLost: (why: string) => void): Promise<InspectSocket> {
    const ws = new WebSocket(url);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer in ${CONNECT_MS / 1000} s`)), CONNECT_MS);
        ws.once('open', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.once('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
      });
    } catch (e) {
      ws.terminate();
      const why = e instanceof Error ? e.message : String(e);
      throw new ExitError(1, `--inspect: cannot connect to ${url.href}: ${why || 'connection failed'}`);
    }
    return new InspectSocket(ws, url.href, onLost);
  }

  /** How many events went out. */
  get count(): number {
    return this.sent;
  }

  /** The adapter's send: one event, one text message. A receiver gone away is said once; the run goes on. */
  send(event: StatelyInspectionEvent): void {
    if (this.lost !== undefined) return;
    this.ws.send(inspectionText(event));
    this.sent++;
  }

  /** Waits until everything sent has left (bounded), then closes. */
  async close(): Promise<void> {
    if (this.lost === undefined) {
      const deadline = Date.now() + DRAIN_MS;
      // ws has no drain event: bufferedAmount falls as the socket writes.
      while (this.ws.bufferedAmount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    }
    const closed = new Promise<void>((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) resolve();
      else this.ws.once('close', () => resolve());
    });
    this.lost ??= 'closed';
    this.ws.close(1000);
    const timer = setTimeout(() => this.ws.terminate(), 2_000);
    await closed;
    clearTimeout(timer);
  }

  private lose(why: string): void {
    if (this.lost !== undefined) return;
    this.lost = why;
    this.onLost(why);
  }
}
