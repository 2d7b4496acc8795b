// Typed errors of the Incus client. Callers branch on the class (instanceof),
// never on message text; the server's own message is kept verbatim in `serverMessage`.

export interface IncusErrorDetails {
  /** HTTP status of the answer (0 when there was no answer). */
  status?: number;
  /** `error_code` from the error envelope (usually equals the HTTP status). */
  errorCode?: number;
  /** The server's `error` text, verbatim (e.g. "Instance is running"). */
  serverMessage?: string;
  method?: string;
  path?: string;
  cause?: unknown;
}

export class IncusError extends Error {
  override name = 'IncusError';
  readonly status: number;
  readonly errorCode: number;
  readonly serverMessage: string;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(message: string, details: IncusErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status ?? 0;
    this.errorCode = details.errorCode ?? details.status ?? 0;
    this.serverMessage = details.serverMessage ?? '';
    this.method = details.method;
    this.path = details.path;
  }
}

/** 404: instance, project, operation... not found. */
export class IncusNotFoundError extends IncusError {
  override name = 'IncusNotFoundError';
}

/**
 * An operation was not found when waiting on it. Incus forgets finished operations
 * about 5 s after they end, so this does not say whether it succeeded.
 */
export class IncusOperationGoneError extends IncusNotFoundError {
  override name = 'IncusOperationGoneError';
}

/** The daemon could not be reached at all (socket missing, refused, no permission, TLS...). */
export class IncusConnectionError extends IncusError {
  override name = 'IncusConnectionError';
  /** Socket path or URL we tried. */
  readonly endpoint: string;
  /** errno-style code from the OS (ENOENT, ECONNREFUSED, EACCES...) when known. */
  readonly code: string | undefined;

  constructor(endpoint: string, code: string | undefined, cause: unknown) {
    super(IncusConnectionError.describe(endpoint, code, cause), { cause });
    this.endpoint = endpoint;
    this.code = code;
  }

  private static describe(endpoint: string, code: string | undefined, cause: unknown): string {
    const isSocket = !/^https?:\/\//.test(endpoint);
    const base = `cannot reach the Incus daemon at ${endpoint}`;
    const detail = cause instanceof Error ? cause.message : String(cause);
    switch (code) {
      case 'ENOENT':
        return (
          `${base}: the socket does not exist. Is incusd installed and running? ` +
          'Run `bash .ci/setup-incus.sh` (as root) or point INCUS_SOCKET / INCUS_DIR at the daemon.'
        );
      case 'ECONNREFUSED':
        return isSocket
          ? `${base}: connection refused (stale socket, incusd not running). Start it with \`bash .ci/setup-incus.sh\`.`
          : `${base}: connection refused. Is core.https_address set on the server?`;
      case 'EACCES':
      case 'EPERM':
        return `${base}: permission denied. Run as root or as a member of the incus-admin group.`;
      case PIN_MISMATCH:
        return `${base}: ${detail}`;
      default:
        return `${base}: ${code ? `${code}: ` : ''}${detail}`;
    }
  }
}

/** Code of the error the pinning connector raises (client.ts): the pin check runs before any chain check. */
export const PIN_MISMATCH = 'ERR_LOOPSCOPE_PIN_MISMATCH';

/** The server presented a certificate other than the pinned one (servercerts/<remote>.crt). */
export class PinMismatchError extends Error {
  readonly code = PIN_MISMATCH;
  constructor(
    readonly pinned: string,
    readonly presented: string,
  ) {
    super(
      `the server's certificate does not match the pinned certificate (pinned SHA-256 ${pinned}, server presented SHA-256 ${presented}); ` +
        'if the server was reinstalled, check the new fingerprint out of band and replace the pinned certificate',
    );
    this.name = 'PinMismatchError';
  }
}

/**
 * 403 over HTTPS: the server does not trust this client certificate (or it is restricted to
 * other projects). The message says how to trust it: Incus docs, "Authentication" — TLS client
 * certificates are added with `incus config trust add-certificate <file>` (or a trust token).
 */
export class IncusForbiddenError extends IncusError {
  override name = 'IncusForbiddenError';
}

/** The trust hint for a 403 with this client certificate fingerprint (absent: no client certificate). */
export function trustHint(fingerprint: string | undefined): string {
  return fingerprint
    ? `the server does not trust this client certificate (SHA-256 ${fingerprint}) for this request: on the server, run ` +
        "`incus config trust add-certificate client.crt` with this client's client.crt (or `incus config trust add <name>` and " +
        "`incus remote add` with the token), or check the certificate's project restrictions"
    : 'no client certificate was sent: put client.crt/client.key in the incus CLI config directory (`incus remote generate-certificate`) and trust it on the server (`incus config trust add-certificate client.crt`)';
}

/** A background operation ended in Failure or Cancelled; `serverMessage` is its `err`. */
export class IncusOperationError extends IncusError {
  override name = 'IncusOperationError';
  readonly operationId: string;

  constructor(operationId: string, description: string, serverMessage: string, details: IncusErrorDetails = {}) {
    super(`Incus operation "${description || operationId}" failed: ${serverMessage}`, { ...details, serverMessage });
    this.operationId = operationId;
  }
}

/** A request or an operation wait took longer than allowed. */
export class IncusTimeoutError extends IncusError {
  override name = 'IncusTimeoutError';
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number, details: IncusErrorDetails = {}) {
    super(`${what} timed out after ${timeoutMs} ms`, details);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's AbortSignal fired. `name` is "AbortError" like fetch's, `cause` is the signal's reason. */
export class IncusAbortError extends IncusError {
  override name = 'AbortError';
}
