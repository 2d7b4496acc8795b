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
        return `${base}: the socket does not exist. Is incusd installed and running? `
          + 'Run `bash .ci/setup-incus.sh` (as root) or point INCUS_SOCKET / INCUS_DIR at the daemon.';
      case 'ECONNREFUSED':
        return isSocket
          ? `${base}: connection refused (stale socket, incusd not running). Start it with \`bash .ci/setup-incus.sh\`.`
          : `${base}: connection refused. Is core.https_address set on the server?`;
      case 'EACCES':
      case 'EPERM':
        return `${base}: permission denied. Run as root or as a member of the incus-admin group.`;
      default:
        return `${base}: ${code ? `${code}: ` : ''}${detail}`;
    }
  }
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
