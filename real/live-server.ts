// `loopscope real --live`: a WebSocket on 127.0.0.1 that streams the real run — the machine's
// inspection events in XState's protocol, and beside them the thin `loopscope.*` layer (the run, each
// frame's world, pending --step approvals; sim/live-protocol.ts) — and takes approve/skip back. A
// random token in the URL guards it: a page from elsewhere cannot guess it (WebSockets are not bound
// by CORS).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import type { HpaConfig, HpaContext } from '../machines/incus-hpa';
import type { ActRequest, ActVerdict, ApproveAct } from './hpa-actors';
import type { LiveFrame, LiveLayerMessage, LivePending } from '../sim/live-protocol';
import { parseClientMessage } from '../sim/live-protocol';
import { LiveStream } from './live-stream';
import { describeAct } from './step-prompt';

export interface LiveSource {
  scenario: string;
  endpoint: string;
  step: boolean;
  dryRun: boolean;
  config: () => HpaConfig;
  context: () => HpaContext | undefined;
}

interface Waiting {
  pending: LivePending;
  resolve: (v: { verdict: ActVerdict; by: 'terminal' | 'browser' | 'shutdown' }) => void;
}

/** Loopback names a browser on this machine sends as Origin; other origins are refused. */
const LOCAL_ORIGIN_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export class LiveServer {
  readonly token = randomBytes(16).toString('hex');
  private readonly http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('loopscope live: connect with a WebSocket (ws://…/?token=…)\n');
  });
  private readonly wss = new WebSocketServer({ noServer: true });
  private waiting: Waiting | undefined;
  private nextId = 1;
  private readonly stream = new LiveStream((text) => {
    for (const ws of this.wss.clients) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  private constructor(private readonly source: LiveSource) {
    this.http.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    this.wss.on('connection', (ws) => this.welcome(ws));
  }

  /** Listens on 127.0.0.1 only; port 0 picks a free one. */
  static async start(source: LiveSource, port: number): Promise<LiveServer> {
    const server = new LiveServer(source);
    await new Promise<void>((resolve, reject) => {
      server.http.once('error', reject);
      server.http.listen(port, '127.0.0.1', () => {
        server.http.off('error', reject);
        resolve();
      });
    });
    return server;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port; // cast: a listening TCP server's address() is an AddressInfo (a string only for pipes)
  }
  get url(): string {
    return `ws://127.0.0.1:${this.port}/?token=${this.token}`;
  }
  get clients(): number {
    return this.wss.clients.size;
  }

  /** The runner recorded a frame; `taken`: of a root snapshot the machine's inspection reports. */
  frame(frame: LiveFrame, taken: boolean): void {
    this.stream.frame(frame, taken);
  }

  /** The adapter's send for XState's inspector (createInspector): one inspection event. */
  inspection(event: StatelyInspectionEvent): void {
    this.stream.inspection(event);
  }

  /**
   * An ApproveAct for the runner: publishes the pending act and resolves with the first answer,
   * from the browser or from `terminal` (the TTY prompt) when given.
   */
  approver(terminal?: ApproveAct, log: (line: string) => void = () => undefined): ApproveAct {
    return (request: ActRequest) =>
      new Promise<ActVerdict>((resolve) => {
        const context = this.source.context();
        const pending: LivePending = {
          id: this.nextId++,
          kind: request.kind,
          name: request.name,
          ...(request.waitForStop !== undefined ? { waitForStop: request.waitForStop } : {}),
          observation: context?.observation ?? null,
          decision: context?.decision ?? null,
          text: describeAct(request, context),
        };
        let settled = false;
        const settle = (verdict: ActVerdict, by: 'terminal' | 'browser' | 'shutdown') => {
          if (settled) return;
          settled = true;
          this.waiting = undefined;
          this.stream.layer({ type: 'loopscope.resolved', id: pending.id, verdict, by }, false);
          if (by !== 'terminal')
            log(
              `${verdict === 'approve' ? 'approved' : 'skipped'} ${by === 'browser' ? 'in the browser' : 'at shutdown'}: ${request.kind} ${request.name}`,
            );
          resolve(verdict);
        };
        this.waiting = { pending, resolve: ({ verdict, by }) => settle(verdict, by) };
        this.stream.layer({ type: 'loopscope.pending', pending }, false);
        // The terminal's question stays open after a browser answer; its late answer is ignored.
        terminal?.(request).then(
          (v) => settle(v, 'terminal'),
          () => undefined,
        );
      });
  }

  /** Shutting down: a pending act is skipped, so the runner's stop does not wait for it. */
  skipPending(): void {
    this.waiting?.resolve({ verdict: 'skip', by: 'shutdown' });
  }

  async close(): Promise<void> {
    this.skipPending();
    this.stream.drain();
    for (const ws of this.wss.clients) ws.close(1001, 'loopscope real is exiting');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const url = new URL(req.url ?? '/', 'ws://127.0.0.1');
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    const want = Buffer.from(this.token);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return refuse('401 Unauthorized');
    const origin = req.headers.origin;
    if (origin !== undefined && !isLocalOrigin(origin)) return refuse('403 Forbidden');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  private welcome(ws: WebSocket): void {
    const s = this.source;
    this.send(ws, {
      type: 'loopscope.run',
      loop: 'incus-hpa',
      scenario: s.scenario,
      endpoint: s.endpoint,
      config: s.config(),
      step: s.step,
      dryRun: s.dryRun,
    });
    for (const text of this.stream.replay()) ws.send(text);
    if (this.waiting) this.send(ws, { type: 'loopscope.pending', pending: this.waiting.pending });
    ws.on('message', (data) => {
      const message = parseClientMessage(data.toString());
      if (!message) return this.send(ws, { type: 'loopscope.error', message: 'expected {"type":"approve"|"skip","id":N}' });
      if (!s.step)
        return this.send(ws, { type: 'loopscope.error', message: 'this run is not in --step mode: there is nothing to approve' });
      if (!this.waiting || this.waiting.pending.id !== message.id) {
        return this.send(ws, { type: 'loopscope.error', message: `act ${message.id} is not pending (already answered, or never asked)` });
      }
      this.waiting.resolve({ verdict: message.type, by: 'browser' });
    });
  }

  private send(ws: WebSocket, message: LiveLayerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }
}

function isLocalOrigin(origin: string): boolean {
  try {
    return LOCAL_ORIGIN_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** `--live [PORT]`: true (no value) → 0, a free port. */
export function parseLivePort(value: string | true): number | null {
  if (value === true) return 0;
  return /^\d{1,5}$/.test(value) && Number(value) <= 65535 ? Number(value) : null;
}
