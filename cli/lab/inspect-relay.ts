// `loopscope lab --inspect`'s relay: XState apps (createWebSocketInspector from @statelyai/inspect)
// send inspection events, the lab's pages receive them. Like the library's createInspectorServer,
// every sender's message goes to every page and a page that joins late gets the history first; unlike
// it, senders and pages are told apart by path (an app is sent nothing), the history is bounded by
// count and bytes, and a late page is told how much of the start it missed.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData } from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { RelayHistoryNotice } from '../../sim/inspect-protocol';
import { HISTORY_BATCH, INSPECT_PATH, INSPECT_VIEW_PATH } from '../../sim/inspect-protocol';
import { isLoopbackHost, loopbackOrigin } from './loopback';

export interface InspectRelayOptions {
  /** The history keeps at most this many messages… */
  maxEvents: number;
  /** …and at most this many bytes of them (the oldest go first). */
  maxBytes: number;
}

/** One message larger than this closes its sender (1009): XState's snapshots are far smaller. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** A page this far behind is closed rather than buffered without end (it can reconnect and get the history). */
const MAX_PAGE_BACKLOG = 64 * 1024 * 1024;

export type InspectRole = 'sender' | 'viewer';

export class InspectRelay {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly viewers = new Set<WebSocket>();
  private readonly senders = new Set<WebSocket>();
  /** The history as a queue: messages[start…] are held (shifting one at a time would be O(n) per message). */
  private messages: string[] = [];
  private start = 0;
  private bytes = 0;
  private received = 0;
  /** Messages that were not a JSON object: not relayed (a page could not read them, and a history batch must stay JSON). */
  private rejected = 0;

  constructor(readonly options: InspectRelayOptions) {}

  /** How many messages came, how many the history still holds, and who is connected. */
  get stats(): { received: number; dropped: number; held: number; bytes: number; rejected: number; viewers: number; senders: number } {
    const held = this.messages.length - this.start;
    return {
      received: this.received,
      dropped: this.received - held,
      held,
      bytes: this.bytes,
      rejected: this.rejected,
      viewers: this.viewers.size,
      senders: this.senders.size,
    };
  }

  /** Takes over an HTTP upgrade as a sender or a page; a request from a page of another site is refused (403). */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, role: InspectRole): void {
    if (!isLoopbackHost(req.headers.host) || !loopbackOrigin(req.headers.origin)) {
      refuse(socket, 403, 'inspection is for this machine only');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => (role === 'viewer' ? this.addViewer(ws) : this.addSender(ws)));
  }

  /** Closes every connection; the history goes with the relay. */
  close(): Promise<void> {
    for (const ws of [...this.viewers, ...this.senders]) ws.terminate();
    return new Promise((done) => this.wss.close(() => done()));
  }

  private addSender(ws: WebSocket): void {
    this.senders.add(ws);
    ws.on('message', (data: RawData) => this.relay(text(data)));
    ws.on('close', () => this.senders.delete(ws));
    ws.on('error', () => ws.terminate());
  }

  private addViewer(ws: WebSocket): void {
    const { received, dropped } = this.stats;
    const notice: RelayHistoryNotice = {
      type: '@loopscope.history',
      received,
      dropped,
      maxEvents: this.options.maxEvents,
      maxBytes: this.options.maxBytes,
    };
    ws.send(JSON.stringify(notice));
    // Every held message is a JSON object's text (relay() checked it): joined, they make one JSON array.
    for (let i = this.start; i < this.messages.length; i += HISTORY_BATCH) {
      ws.send(
        `{"type":"@loopscope.batch","messages":[${this.messages.slice(i, Math.min(i + HISTORY_BATCH, this.messages.length)).join(',')}]}`,
      );
    }
    this.viewers.add(ws);
    // A page sends nothing the relay needs; whatever it sends is not relayed.
    ws.on('close', () => this.viewers.delete(ws));
    ws.on('error', () => ws.terminate());
  }

  private relay(message: string): void {
    if (!isJsonObject(message)) {
      this.rejected++;
      return;
    }
    this.received++;
    this.remember(message);
    for (const ws of this.viewers) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > MAX_PAGE_BACKLOG) {
        ws.close(1013, 'the page fell too far behind: reload it to get the history');
        continue;
      }
      ws.send(message);
    }
  }

  private remember(message: string): void {
    this.messages.push(message);
    this.bytes += Buffer.byteLength(message);
    const { maxEvents, maxBytes } = this.options;
    while (this.messages.length - this.start > maxEvents || (this.bytes > maxBytes && this.messages.length - this.start > 0)) {
      this.bytes -= Buffer.byteLength(this.messages[this.start]!);
      this.start++;
    }
    // Compact once the dropped head is as long as what is held: amortised O(1) per message.
    if (this.start > 1024 && this.start * 2 > this.messages.length) {
      this.messages = this.messages.slice(this.start);
      this.start = 0;
    }
  }
}

/** A message as text, however ws delivered it (one buffer, fragments, or an ArrayBuffer). */
function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data))).toString('utf8');
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function refuse(socket: Duplex, status: number, why: string): void {
  socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * The lab server's upgrade handler: the page at INSPECT_VIEW_PATH, apps at INSPECT_PATH or — on a port
 * of its own (`--inspect PORT`), so that an app's `ws://127.0.0.1:PORT` with no path works — at any path.
 */
export function inspectUpgrade(relay: InspectRelay, anyPath: boolean) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://lab').pathname;
    } catch {
      refuse(socket, 400, 'Bad Request');
      return;
    }
    if (path === INSPECT_VIEW_PATH) relay.accept(req, socket, head, 'viewer');
    else if (path === INSPECT_PATH || anyPath) relay.accept(req, socket, head, 'sender');
    else refuse(socket, 404, 'Not Found');
  };
}
