// Wake on events, like an informer's watch beside its relist: GET /1.0/events?type=lifecycle as a
// websocket (docs: rest-api "Events"; the actions are incus internal/server/lifecycle/instance.go,
// with `source` = /1.0/instances/<name>, plus `?project=<p>` outside the default project; a rename's
// source is the new name, `context.old_name` the old one). An event that changes what an observe
// sees, about an instance that may be ours, calls `onWake`; the loop stays level-triggered (the wake
// only makes the next observe come sooner). After a disconnect (incusd restarted) it reconnects with
// a capped backoff and wakes once, since events may have been missed meanwhile (an informer relists).
import { createHash, X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import WebSocket from 'ws';
import type { IncusClient, IncusConnectOptions } from './incus';

/**
 * Opens GET /1.0/events?type=… as a websocket: over the unix socket with ws's `ws+unix:` scheme,
 * over HTTPS with the same client certificate and pinned server certificate as the REST calls.
 */
function openEvents(connection: IncusConnectOptions, types: string[]): WebSocket {
  const params = new URLSearchParams({ type: types.join(',') });
  if (connection.project) params.set('project', connection.project);
  const path = `/1.0/events?${params.toString()}`;
  if ('socketPath' in connection) return new WebSocket(`ws+unix://${connection.socketPath}:${path}`);
  const url = new URL(connection.url);
  const tls: WebSocket.ClientOptions = {};
  if (connection.cert) tls.cert = connection.cert;
  if (connection.key) tls.key = connection.key;
  if (connection.ca) {
    const pinned = createHash('sha256').update(new X509Certificate(connection.ca).raw).digest('hex');
    tls.ca = connection.ca;
    const checkServerIdentity = (_host: string, cert: PeerCertificate): Error | undefined =>
      cert.fingerprint256.replaceAll(':', '').toLowerCase() === pinned
        ? undefined
        : new Error(`server certificate does not match the pinned one (sha256 ${pinned})`);
    // ws hands its options to tls.connect; @types/ws types this Node option as returning boolean.
    Object.assign(tls, { checkServerIdentity });
  }
  return new WebSocket(`wss://${url.host}${path}`, tls);
}

/** The connection the client was made with (unix socket, or HTTPS with its certificates and pin). */
export function connectionOf(client: IncusClient): IncusConnectOptions {
  return client.connection;
}

export interface LifecycleEvent {
  type: string;
  timestamp?: string;
  metadata?: { action?: string; source?: string; context?: Record<string, unknown> };
}

export interface WatcherOptions {
  /** Is this instance worth a wake-up? (ours, or possibly ours). */
  concerns: (instance: string, action: string) => boolean | Promise<boolean>;
  onWake: (why: string) => void;
  onState?: (state: 'connected' | 'disconnected', detail?: string) => void;
  /** First and largest reconnect delay (ms). */
  minRetryMs?: number;
  maxRetryMs?: number;
}

/** The instance a lifecycle event is about, from `source` (/1.0/instances/<name>[?project=…]). */
function eventInstance(ev: LifecycleEvent): string | null {
  const source = ev.metadata?.source ?? '';
  const m = /^\/1\.0\/instances\/([^/?]+)/.exec(source);
  return m ? decodeURIComponent(m[1]!) : null;
}

/**
 * Actions that change what an observe sees (existence, status, config such as the owner key).
 * Not exec, console, file or metadata access: the load generator's exec into a pod is no change.
 */
export const WAKING_ACTIONS: ReadonlySet<string> = new Set([
  'instance-created',
  'instance-started',
  'instance-stopped',
  'instance-shutdown',
  'instance-restarted',
  'instance-paused',
  'instance-resumed',
  'instance-restored',
  'instance-deleted',
  'instance-renamed',
  'instance-updated',
]);

/** The instance names an event is about: the source, and a rename's old name. */
export function eventInstances(ev: LifecycleEvent): string[] {
  const name = eventInstance(ev);
  if (!name) return [];
  const old = ev.metadata?.context?.['old_name'];
  return typeof old === 'string' && old !== name ? [name, old] : [name];
}

export class LifecycleWatcher {
  private socket: WebSocket | undefined;
  private stopped = false;
  private retryMs: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private everConnected = false;
  private opened: (() => void) | undefined;
  private readonly firstOpen = new Promise<void>((resolve) => {
    this.opened = resolve;
  });
  /** Events received so far (tests, metrics). */
  received = 0;
  /** Times the stream was opened again after a disconnect. */
  reconnects = 0;
  connected = false;

  constructor(
    private readonly connection: IncusConnectOptions,
    private readonly options: WatcherOptions,
  ) {
    this.retryMs = options.minRetryMs ?? 500;
  }

  start(): void {
    this.connect();
  }

  /** Resolves once the stream is open (true), or after `timeoutMs` (false): subscribe before the first list. */
  async whenOpen(timeoutMs: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([this.firstOpen.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private connect(): void {
    if (this.stopped) return;
    const ws = openEvents(this.connection, ['lifecycle']);
    this.socket = ws;
    ws.on('open', () => {
      this.retryMs = this.options.minRetryMs ?? 500;
      this.connected = true;
      this.options.onState?.('connected');
      // Reconnected: whatever happened while we were away is unknown, so look once.
      if (this.everConnected) {
        this.reconnects++;
        this.options.onWake('events stream reconnected');
      }
      this.everConnected = true;
      this.opened?.();
    });
    ws.on('message', (data: WebSocket.RawData) => {
      void this.handle(data);
    });
    ws.on('error', () => undefined); // 'close' follows and schedules the reconnect
    ws.on('close', (code: number) => {
      if (this.socket !== ws) return;
      this.socket = undefined;
      this.connected = false;
      if (this.stopped) return;
      this.options.onState?.('disconnected', `code ${code}`);
      this.timer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 5_000);
    });
  }

  private async handle(data: WebSocket.RawData): Promise<void> {
    let ev: LifecycleEvent;
    try {
      ev = JSON.parse(data.toString()) as LifecycleEvent; // cast: unchecked: trusts Incus's documented event JSON; type is compared next
    } catch {
      return;
    }
    if (ev.type !== 'lifecycle') return;
    this.received++;
    const action = ev.metadata?.action ?? '';
    if (!WAKING_ACTIONS.has(action)) return;
    for (const name of eventInstances(ev)) {
      try {
        if (await this.options.concerns(name, action)) {
          this.options.onWake(`${action} ${name}`);
          return;
        }
      } catch {
        // Could not tell (the daemon went away): the next reconnect wakes anyway.
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.connected = false;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = undefined;
  }
}
