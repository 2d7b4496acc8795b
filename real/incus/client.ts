// IncusClient: a small typed client for the Incus REST API, built on undici.
// Docs: https://linuxcontainers.org/incus/docs/main/rest-api/ (envelope, operations)
// and https://linuxcontainers.org/incus/docs/main/rest-api-spec/ (endpoints).
import { createHash, X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { Pool, buildConnector, type Dispatcher } from 'undici';
import {
  IncusAbortError,
  IncusConnectionError,
  IncusError,
  IncusForbiddenError,
  IncusNotFoundError,
  IncusOperationError,
  IncusOperationGoneError,
  IncusTimeoutError,
  PIN_MISMATCH,
  PinMismatchError,
  trustHint,
} from './errors';
import type {
  ExecOperationMetadata,
  ExecResult,
  IncusEnvelope,
  Instance,
  InstanceAction,
  InstanceExecPost,
  InstanceFull,
  InstancePatch,
  InstanceState,
  InstanceStatePut,
  InstancesPost,
  Operation,
  ServerInfo,
} from './types';

interface CommonOptions {
  /** Incus project for every request (`?project=`); the server's default when absent. */
  project?: string;
  /** Cluster member for placement/filtering (`?target=`), used by create and list. */
  target?: string;
  /** Default per-request timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** Keep-alive connections kept open to the daemon (default 4). */
  connections?: number;
}

export interface IncusUnixOptions extends CommonOptions {
  socketPath: string;
}

export interface IncusHttpsOptions extends CommonOptions {
  /** e.g. https://10.0.0.5:8443 */
  url: string;
  /** Client certificate and key (PEM) the server trusts (`incus config trust add`). */
  cert?: string | Buffer;
  key?: string | Buffer;
  /**
   * The server's own certificate (PEM), trusted explicitly and pinned: Incus servers
   * use self-signed certificates whose names rarely match the address used.
   */
  ca?: string | Buffer;
}

export type IncusConnectOptions = IncusUnixOptions | IncusHttpsOptions;

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Overrides the client's default timeout for this request. */
  timeoutMs?: number;
  /** `null` leaves the project parameter out even when the client has one. */
  project?: string | null;
  target?: string | null;
}

export interface IncusResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  envelope: IncusEnvelope<T>;
}

export interface MutateOptions {
  /** Wait for the background operation to finish (default true). */
  wait?: boolean;
  /** How long to wait for the operation, in seconds (default 120). */
  timeoutSec?: number;
  signal?: AbortSignal;
}

export interface ExecOptions {
  /** Give up waiting after this long (the command keeps running in the instance). Default 60 000. */
  timeoutMs?: number;
  environment?: Record<string, string>;
  cwd?: string;
  user?: number;
  group?: number;
  /** Fetch stdout/stderr from the recorded logs (2–4 extra requests). */
  captureOutput?: boolean;
  signal?: AbortSignal;
}

export interface ListOptions {
  recursion?: 0 | 1 | 2;
  /** Server-side filter (docs: rest-api "Filtering"), e.g. `status eq Running` or `config.user.x eq 1`. */
  filter?: string;
  allProjects?: boolean;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_OP_TIMEOUT_SEC = 120;
/** Slack on top of a server-side wait so the HTTP request outlives the long poll. */
const WAIT_SLACK_MS = 10_000;
/** OS errors that mean "no daemon there" rather than "the daemon said no". */
const CONNECTION_CODES = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'EPERM',
  'ENOTSOCK',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'EPROTO',
  PIN_MISMATCH,
]);

function errorCode(err: unknown): string | undefined {
  // Walk the cause chain: undici wraps OS errors (e.g. SocketError → ECONNRESET).
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = 'code' in e ? e.code : undefined;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
    e = 'cause' in e ? e.cause : undefined;
  }
  const top = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof top === 'string' ? top : undefined;
}

function isSuccess(op: Operation): boolean {
  return op.status === 'Success' || op.status_code === 200;
}

function isFinalFailure(op: Operation): boolean {
  return op.status === 'Failure' || op.status === 'Cancelled' || op.status_code === 400 || op.status_code === 401;
}

function operationId(op: Operation | string): string {
  if (typeof op !== 'string') return op.id;
  // Accept a bare id or a path like /1.0/operations/<id>[/wait].
  const m = /\/operations\/([^/?]+)/.exec(op);
  return m?.[1] ?? op;
}

function sha256Fingerprint(pem: string | Buffer): string {
  return createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
}

export class IncusClient {
  /** HTTP requests sent so far (benchmarks report requests per period from this). */
  requestCount = 0;
  readonly endpoint: string;
  readonly project: string | undefined;
  readonly target: string | undefined;
  readonly timeoutMs: number;
  /** SHA-256 of the client certificate sent over HTTPS (for the trust hint of a 403). */
  readonly clientFingerprint: string | undefined;
  /** What the client was made with: the events stream opens its websocket the same way. */
  readonly connection: IncusConnectOptions;
  private pool: Pool;
  /** A fresh pool of connections to the daemon, as the constructor made the first. */
  private readonly newPool: () => Pool;

  constructor(options: IncusConnectOptions) {
    this.connection = options;
    this.project = options.project;
    this.target = options.target;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const connections = options.connections ?? 4;
    if ('socketPath' in options) {
      this.endpoint = options.socketPath;
      this.clientFingerprint = undefined;
      // The origin is only used for the Host header on a unix socket.
      this.newPool = () => new Pool('http://incus', { socketPath: options.socketPath, connections, keepAliveTimeout: 30_000 });
    } else {
      const url = new URL(options.url);
      if (url.protocol !== 'https:') throw new IncusError(`Incus remote URL must be https://, got ${options.url}`);
      this.endpoint = url.origin;
      const pinned = options.ca ? sha256Fingerprint(options.ca) : undefined;
      this.clientFingerprint = options.cert ? sha256Fingerprint(options.cert) : undefined;
      // A pinned server certificate is checked by its SHA-256 fingerprint alone, before any chain
      // or host-name check (which a self-signed Incus certificate would fail first, hiding the
      // real answer "not the pinned certificate"); the incus CLI trusts servercerts/<remote>.crt
      // the same way. Without a pin, Node's usual verification applies.
      // No TLS session resumption: a resumed session carries no peer certificate to check the pin against.
      const tls = buildConnector({
        cert: options.cert,
        key: options.key,
        ...(pinned ? { rejectUnauthorized: false, maxCachedSessions: 0 } : {}),
      });
      const connect: buildConnector.connector = pinned
        ? (opts, callback) =>
            tls(opts, (...args) => {
              const [err, socket] = args;
              if (err) {
                callback(err, null);
                return;
              }
              const presented = (socket as TLSSocket).getPeerCertificate().fingerprint256?.replaceAll(':', '').toLowerCase() ?? ''; // cast: the dispatcher connects over TLS (https), so its socket is a TLSSocket
              if (presented === pinned) {
                callback(null, socket);
                return;
              }
              socket.destroy();
              callback(new PinMismatchError(pinned, presented || '(none)'), null);
            })
        : tls;
      this.newPool = () => new Pool(url.origin, { connections, keepAliveTimeout: 30_000, connect });
    }
    this.pool = this.newPool();
  }

  /** Create a client and check the daemon answers (fails fast with IncusConnectionError). */
  static async connect(options: IncusConnectOptions): Promise<IncusClient> {
    const client = new IncusClient(options);
    try {
      await client.server();
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  /** Close keep-alive connections. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  private replacePool(): void {
    const old = this.pool;
    this.pool = this.newPool();
    old.close().catch(() => undefined);
  }

  // ---- transport ---------------------------------------------------------------

  private buildPath(path: string, opts: RequestOptions): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined) params.set(k, String(v));
    }
    const project = opts.project === undefined ? this.project : opts.project;
    if (project && !params.has('project') && !params.has('all-projects')) params.set('project', project);
    if (opts.target) params.set('target', opts.target);
    const qs = params.toString();
    return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
  }

  /** One HTTP exchange: returns status, headers and body text; maps transport failures to typed errors. */
  private async send(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
    const fullPath = this.buildPath(path, opts);
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const what = `${method} ${path}`;
    if (opts.signal?.aborted) {
      throw new IncusAbortError(`${what} aborted`, { method, path, cause: opts.signal.reason });
    }
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new IncusTimeoutError(what, timeoutMs, { method, path }));
    }, timeoutMs);
    const onAbort = (): void => ctl.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    this.requestCount++;
    try {
      const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const res = await this.pool.request({
        method: method as Dispatcher.HttpMethod, // cast: callers pass HTTP verbs (GET, POST, PUT, PATCH, DELETE)
        path: fullPath,
        headers: {
          accept: 'application/json',
          'user-agent': 'loopscope-incus-client',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...opts.headers,
        },
        body,
        signal: ctl.signal,
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      // An aborted request (a timeout, a stop) can leave undici 7's pool unable to finish a later
      // request on it: seen as a PUT, then a GET, that never completed after a stop aborted others.
      // Later requests go to fresh connections; the old pool closes once what it still carries ends.
      if (timedOut || opts.signal?.aborted) this.replacePool();
      if (timedOut) throw new IncusTimeoutError(what, timeoutMs, { method, path, cause: err });
      if (opts.signal?.aborted) {
        throw new IncusAbortError(`${what} aborted`, { method, path, cause: opts.signal.reason });
      }
      const code = errorCode(err);
      if (code && CONNECTION_CODES.has(code)) throw new IncusConnectionError(this.endpoint, code, err);
      throw new IncusError(`${what} failed: ${err instanceof Error ? err.message : String(err)}`, {
        method,
        path,
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Send a request and unwrap the `{type: sync|async|error}` envelope. Error envelopes and
   * HTTP errors become typed errors (404 → IncusNotFoundError).
   */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<IncusResponse<T>> {
    const { status, headers, text } = await this.send(method, path, opts);
    let envelope: IncusEnvelope<T>;
    try {
      envelope = JSON.parse(text) as IncusEnvelope<T>; // cast: unchecked: trusts Incus to answer its documented envelope
    } catch (err) {
      throw new IncusError(`${method} ${path}: answer is not JSON (HTTP ${status}): ${text.slice(0, 200)}`, {
        status,
        method,
        path,
        cause: err,
      });
    }
    if (envelope.type === 'error' || status >= 400) {
      const errorCode = envelope.error_code || status;
      const serverMessage = envelope.error ?? '';
      const details = { status, errorCode, serverMessage, method, path };
      const message = `${method} ${path}: ${serverMessage || `HTTP ${status}`} (error ${errorCode})`;
      if (errorCode === 404) throw new IncusNotFoundError(message, details);
      if (errorCode === 403 && this.endpoint.startsWith('https:'))
        throw new IncusForbiddenError(`${message}: ${trustHint(this.clientFingerprint)}`, details);
      throw new IncusError(message, details);
    }
    return { status, headers, envelope };
  }

  /** GET a sync resource and return its metadata. */
  async get<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('GET', path, opts)).envelope.metadata;
  }

  /**
   * Send a mutating request. An async answer is waited for unless `wait: false`.
   * Returns the (finished) operation, or null when the server answered synchronously.
   * `verify` is asked whether the change happened when the operation vanished before we
   * could read its outcome (Incus drops finished operations after ~5 s).
   */
  private async mutate(
    method: string,
    path: string,
    body: unknown,
    opts: MutateOptions & { query?: RequestOptions['query']; target?: string | null; headers?: Record<string, string> },
    verify?: () => Promise<boolean>,
  ): Promise<Operation | null> {
    const { envelope } = await this.request<Operation | null>(method, path, {
      body,
      signal: opts.signal,
      query: opts.query,
      target: opts.target,
      headers: opts.headers,
    });
    if (envelope.type !== 'async' || !envelope.metadata) return null;
    const op = envelope.metadata;
    if (opts.wait === false) return op;
    try {
      return await this.waitOperation(op, opts.timeoutSec ?? DEFAULT_OP_TIMEOUT_SEC, { signal: opts.signal });
    } catch (err) {
      if (err instanceof IncusOperationGoneError && verify && (await verify())) {
        return { ...op, status: 'Success', status_code: 200 };
      }
      throw err;
    }
  }

  /**
   * Wait for a background operation. Resolves with the finished operation on success;
   * throws IncusOperationError on Failure/Cancelled, IncusTimeoutError when it is still
   * running after `timeoutSec`, IncusOperationGoneError when the server no longer knows it.
   * `GET /1.0/operations/{id}/wait` answers HTTP 200 with an error envelope both when the
   * operation failed and when the wait itself timed out ("context deadline exceeded"), so
   * an error envelope is resolved by reading the operation once more.
   */
  async waitOperation(
    op: Operation | string,
    timeoutSec: number = DEFAULT_OP_TIMEOUT_SEC,
    opts: { signal?: AbortSignal } = {},
  ): Promise<Operation> {
    const id = operationId(op);
    const path = `/1.0/operations/${encodeURIComponent(id)}`;
    const timeoutMs = timeoutSec * 1000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const remainingMs = Math.max(0, deadline - Date.now());
      const waitSec = Math.max(1, Math.ceil(remainingMs / 1000));
      let waitError: IncusError | undefined;
      let current: Operation | undefined;
      try {
        current = await this.get<Operation>(`${path}/wait`, {
          query: { timeout: waitSec },
          signal: opts.signal,
          timeoutMs: remainingMs + WAIT_SLACK_MS,
        });
      } catch (err) {
        if (err instanceof IncusNotFoundError) {
          throw new IncusOperationGoneError(`operation ${id} not found: it finished more than a few seconds ago or never existed`, {
            status: err.status,
            errorCode: err.errorCode,
            serverMessage: err.serverMessage,
            method: 'GET',
            path,
            cause: err,
          });
        }
        // Transport, abort and timeout errors are final; an error envelope is resolved below.
        // (a plain IncusError with an HTTP status is exactly that: the daemon answered `type: error`).
        if (!(err instanceof IncusError) || err.constructor !== IncusError || err.status === 0) throw err;
        waitError = err;
      }
      if (waitError) {
        try {
          current = await this.get<Operation>(path, { signal: opts.signal });
        } catch (err) {
          if (!(err instanceof IncusNotFoundError)) throw err;
          if (/deadline exceeded/i.test(waitError.serverMessage)) {
            throw new IncusOperationGoneError(`operation ${id} finished and vanished while waiting`, {
              method: 'GET',
              path,
              cause: err,
            });
          }
          // Gone already, but the wait answer carried its error.
          throw new IncusOperationError(id, typeof op === 'string' ? '' : op.description, waitError.serverMessage, {
            status: waitError.status,
            errorCode: waitError.errorCode,
            method: 'GET',
            path,
          });
        }
      }
      if (!current) throw new IncusError(`operation ${id}: empty answer`, { method: 'GET', path });
      if (isSuccess(current)) return current;
      // LXD 5.0 reports failures as a sync answer with status Failure and `err`.
      if (isFinalFailure(current)) {
        throw new IncusOperationError(id, current.description, current.err || current.status, {
          status: current.status_code,
          errorCode: current.status_code,
          method: 'GET',
          path,
        });
      }
      if (Date.now() >= deadline) {
        throw new IncusTimeoutError(`operation "${current.description}" (${id})`, timeoutMs, { method: 'GET', path });
      }
    }
  }

  // ---- server ------------------------------------------------------------------

  /** GET /1.0: API version, extensions and `environment.server` (incus or lxd). */
  server(opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ServerInfo> {
    return this.get<ServerInfo>('/1.0', opts);
  }

  // ---- instances ---------------------------------------------------------------

  /** Names of instances (recursion=0). */
  listInstances(opts: ListOptions & { recursion: 0 }): Promise<string[]>;
  /** Instances without state (recursion=1). */
  listInstances(opts: ListOptions & { recursion: 1 }): Promise<Instance[]>;
  /** Instances with their state, in one request (recursion=2, the default). */
  listInstances(opts?: ListOptions & { recursion?: 2 }): Promise<InstanceFull[]>;
  async listInstances(opts: ListOptions = {}): Promise<string[] | Instance[] | InstanceFull[]> {
    const recursion = opts.recursion ?? 2;
    const result = await this.get<string[] | Instance[] | InstanceFull[]>('/1.0/instances', {
      query: { recursion, filter: opts.filter, 'all-projects': opts.allProjects ? true : undefined },
      target: this.target,
      signal: opts.signal,
    });
    if (recursion === 0) {
      // recursion=0 answers URLs such as /1.0/instances/web1
      return (result as string[]).map((url) => decodeURIComponent(url.split('?')[0]!.split('/').pop() ?? url)); // cast: recursion=0 answers a list of URLs (Incus REST API)
    }
    return result;
  }

  getInstance(name: string, opts: { signal?: AbortSignal } = {}): Promise<Instance> {
    return this.get<Instance>(`/1.0/instances/${encodeURIComponent(name)}`, opts);
  }

  getInstanceState(name: string, opts: { signal?: AbortSignal } = {}): Promise<InstanceState> {
    return this.get<InstanceState>(`/1.0/instances/${encodeURIComponent(name)}/state`, opts);
  }

  /**
   * POST /1.0/instances. With `start: true` in `post` the instance is also started. `target`: the
   * cluster member (or `@group`) to create it on, for this call (else the client's own target).
   */
  createInstance(post: InstancesPost, opts: MutateOptions & { target?: string } = {}): Promise<Operation | null> {
    const { target, ...rest } = opts;
    return this.mutate('POST', '/1.0/instances', post, { ...rest, target: target ?? this.target }, async () => {
      const inst = await this.getInstance(post.name).catch(() => undefined);
      return inst !== undefined && (!post.start || inst.status === 'Running');
    });
  }

  /** PUT /1.0/instances/{name}/state: start, stop, restart, freeze, unfreeze. */
  updateInstanceState(name: string, state: InstanceStatePut, opts: MutateOptions = {}): Promise<Operation | null> {
    const expected: Record<InstanceAction, string> = {
      start: 'Running',
      stop: 'Stopped',
      restart: 'Running',
      freeze: 'Frozen',
      unfreeze: 'Running',
    };
    return this.mutate('PUT', `/1.0/instances/${encodeURIComponent(name)}/state`, state, opts, async () => {
      const st = await this.getInstanceState(name).catch(() => undefined);
      return st?.status === expected[state.action];
    });
  }

  /** DELETE /1.0/instances/{name}. The server refuses a running instance (400 "Instance is running"). */
  deleteInstance(name: string, opts: MutateOptions = {}): Promise<Operation | null> {
    return this.mutate('DELETE', `/1.0/instances/${encodeURIComponent(name)}`, undefined, opts, async () => {
      try {
        await this.getInstance(name);
        return false;
      } catch (err) {
        return err instanceof IncusNotFoundError;
      }
    });
  }

  /** PATCH /1.0/instances/{name}: merge the given fields (Incus answers sync; LXD may answer async). */
  patchInstance(name: string, patch: InstancePatch, opts: MutateOptions = {}): Promise<Operation | null> {
    return this.mutate('PATCH', `/1.0/instances/${encodeURIComponent(name)}`, patch, opts);
  }

  /**
   * Set config keys; a `null` value removes the key. Removal needs a full PUT (PATCH only
   * merges), done with the instance's ETag so a concurrent change fails instead of being lost.
   */
  async updateInstanceConfig(name: string, changes: Record<string, string | null>, opts: MutateOptions = {}): Promise<Operation | null> {
    const entries = Object.entries(changes);
    if (entries.every(([, v]) => v !== null)) {
      return this.patchInstance(name, { config: changes as Record<string, string> }, opts); // cast: the line above checked no value is null
    }
    const path = `/1.0/instances/${encodeURIComponent(name)}`;
    const { envelope, headers } = await this.request<Instance>('GET', path, { signal: opts.signal });
    const config: Record<string, string> = { ...envelope.metadata.config };
    for (const [k, v] of entries) {
      if (v === null) delete config[k];
      else config[k] = v;
    }
    const { architecture, devices, ephemeral, profiles, stateful, description } = envelope.metadata;
    const etag = headers.etag;
    return this.mutate(
      'PUT',
      path,
      { architecture, config, devices, ephemeral, profiles, stateful, description },
      { ...opts, headers: typeof etag === 'string' ? { 'if-match': etag } : undefined },
    );
  }

  /**
   * Run a command in the instance, non-interactively, and wait for its exit code
   * (POST /1.0/instances/{name}/exec with record-output; the operation's metadata
   * carries `return` and the paths of the recorded stdout/stderr logs).
   */
  async exec(name: string, command: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const post: InstanceExecPost = {
      command,
      environment: opts.environment ?? {},
      'wait-for-websocket': false,
      'record-output': true,
      interactive: false,
      ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
      ...(opts.user === undefined ? {} : { user: opts.user }),
      ...(opts.group === undefined ? {} : { group: opts.group }),
    };
    const instPath = `/1.0/instances/${encodeURIComponent(name)}`;
    const { envelope } = await this.request<Operation>('POST', `${instPath}/exec`, { body: post, signal: opts.signal });
    if (envelope.type !== 'async') {
      throw new IncusError(`exec in ${name}: expected an async answer, got ${envelope.type}`, { method: 'POST', path: `${instPath}/exec` });
    }
    let done: Operation;
    try {
      done = await this.waitOperation(envelope.metadata, timeoutMs / 1000, { signal: opts.signal });
    } catch (err) {
      if (err instanceof IncusTimeoutError) {
        throw new IncusTimeoutError(`exec ${JSON.stringify(command)} in ${name}`, timeoutMs, { cause: err });
      }
      throw err;
    }
    const meta = (done.metadata ?? {}) as Partial<ExecOperationMetadata>; // cast: Partial, and return is checked with typeof next
    if (typeof meta.return !== 'number') {
      throw new IncusError(`exec in ${name}: operation has no return code`, { method: 'POST', path: `${instPath}/exec` });
    }
    const result: ExecResult = { returnCode: meta.return, operation: done };
    if (opts.captureOutput && meta.output) {
      for (const [fd, logPath] of Object.entries(meta.output)) {
        // Log paths are API paths already (/1.0/instances/<name>/logs/exec-output/...).
        const { status, text } = await this.send('GET', logPath, { signal: opts.signal });
        if (status === 200) {
          if (fd === '1') result.stdout = text;
          if (fd === '2') result.stderr = text;
        }
        // Recorded output stays on the server until deleted.
        await this.send('DELETE', logPath, { signal: opts.signal }).catch(() => undefined);
      }
    }
    return result;
  }
}
