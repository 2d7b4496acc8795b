// The built lab (dist/lab) over HTTP on loopback: static files only, each one under the lab's folder,
// index.html with the user's files written into it. Nothing is fetched from anywhere; nothing but
// the lab's own files is ever read for a request.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { hostOf, isLoopback } from './loopback';

/** What each file the lab's build writes is (vite: html, js, css, its assets, source maps). */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

const contentTypeOf = (file: string): string => CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Where the page's own scripts are mounted: the user's files go just before it, so the lab reads them as it starts. */
const ROOT_ELEMENT = '<div id="root"></div>';

/** index.html with `embedded` (script elements) written in; throws when the page is not the lab's. */
export function injectIntoIndex(html: string, embedded: string): string {
  if (!html.includes(ROOT_ELEMENT)) throw new Error(`expected the lab's index.html (with ${ROOT_ELEMENT})`);
  return embedded ? html.replace(ROOT_ELEMENT, () => `${embedded}\n${ROOT_ELEMENT}`) : html;
}

/**
 * The file a request's path names inside the lab folder (real path), or null: outside it (`..`, an
 * encoded `..`, an absolute path, a symbolic link leading out), not a file, or not a well-formed path.
 */
function resolveLabPath(labDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const root = realpathSync(labDir);
  const wanted = resolve(root, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  if (wanted !== root && !wanted.startsWith(root + sep)) return null;
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    return null;
  }
  if (!real.startsWith(root + sep)) return null;
  return statSync(real).isFile() ? real : null;
}

export interface LabServerOptions {
  labDir: string;
  host: string;
  port: number;
  /** Script elements written into index.html (the user's files), or ''. */
  embedded: string;
  /** WebSocket upgrades (`--inspect`: inspect-relay.ts); without it every upgrade is refused. */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

function handler(options: LabServerOptions, index: string) {
  const guardHost = isLoopback(options.host);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'only GET and HEAD\n');
      return;
    }
    const host = hostOf(req.headers.host);
    if (guardHost && (host === undefined || !isLoopback(host))) {
      send(res, 403, 'this lab answers only to 127.0.0.1 and localhost\n');
      return;
    }
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://lab').pathname;
    } catch {
      send(res, 400, 'not a path\n');
      return;
    }
    // The raw path too: URL() folds `/../` away, and a request that tried to climb out gets nothing.
    const raw = (req.url ?? '/').split(/[?#]/)[0] ?? '/';
    if (!raw.startsWith('/') || /(^|\/|%2f|%5c)(\.|%2e){2}($|\/|%2f|%5c)/i.test(raw)) {
      send(res, 404, 'not found\n');
      return;
    }
    const file = resolveLabPath(options.labDir, pathname);
    if (file === null) {
      send(res, 404, 'not found\n');
      return;
    }
    const isIndex = file === index;
    const body = isIndex ? Buffer.from(injectIntoIndex(readFileSync(file, 'utf8'), options.embedded)) : readFileSync(file);
    res.writeHead(200, {
      'Content-Type': contentTypeOf(file),
      'Content-Length': body.length,
      'X-Content-Type-Options': 'nosniff',
      // The page carries the user's files as they were at start: never a stale copy from a cache.
      'Cache-Control': isIndex ? 'no-store' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

export interface LabServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Listens on host:port (0: any free port); rejects with the listen error (EADDRINUSE, …). */
export async function startLabServer(options: LabServerOptions): Promise<LabServer> {
  const index = join(realpathSync(options.labDir), 'index.html');
  if (!existsSync(index)) throw new Error(`${index}: no such file`);
  const server = createServer(handler(options, index));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (options.upgrade) options.upgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const { port } = server.address() as AddressInfo; // a TCP server's address is an AddressInfo (a pipe's would be a string)
  return {
    server,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
