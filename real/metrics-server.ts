// `loopscope real --metrics ADDRESS`: GET /metrics over plain HTTP for a Prometheus scraper. Loopback
// unless the address names another interface: a bare port (or ":PORT") binds 127.0.0.1.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';

export interface MetricsAddress {
  host: string;
  port: number;
}

/**
 * HOST:PORT, [IPv6]:PORT, :PORT or PORT; HOST an IP address or `localhost` (no name to resolve: the
 * address says exactly which interface is exposed). PORT 0 picks a free port. Null when invalid.
 */
export function parseMetricsAddress(text: string): MetricsAddress | null {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]*):)?(\d{1,5})$/.exec(text);
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65_535) return null;
  const raw = m[1] ?? '';
  if (raw === '') return { host: '127.0.0.1', port };
  const host = raw.startsWith('[') ? raw.slice(1, -1) : raw;
  if (host === 'localhost') return { host: '127.0.0.1', port };
  if (raw.startsWith('[') ? isIP(host) !== 6 : isIP(host) !== 4) return null;
  return { host, port };
}

export class MetricsServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(address: MetricsAddress, metrics: { contentType: string; text: () => Promise<string> }): Promise<MetricsServer> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at /metrics\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
        return;
      }
      metrics.text().then(
        (body) => {
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (err: unknown) => {
          res
            .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
            .end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
        },
      );
    });
    // A scraper keeps its connection; slow or idle clients must not hold the process open.
    server.headersTimeout = 10_000;
    server.requestTimeout = 10_000;
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address.port, address.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = server.address() as AddressInfo; // a TCP listen: never a pipe name
    const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
    return new MetricsServer(server, `http://${host}:${bound.port}/metrics`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
