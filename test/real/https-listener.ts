// The local daemon's HTTPS listener on a free loopback port, with an incus CLI config directory per
// client (its own certificate, made by `incus remote generate-certificate` as a user's would be, and
// a remote `lstest` pinned to the server's certificate). Only the first directory's certificate is
// trusted; the others play untrusted clients. close() restores core.https_address and the trust store.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncusClient } from '../../real/incus';

export const REMOTE = 'lstest';

export interface HttpsListener {
  url: string;
  /** One INCUS_CONF directory per client asked for; [0] is trusted. */
  confs: string[];
  serverCert: string;
  close(): Promise<void>;
}

export const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase();

function freeLoopbackPort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export async function openHttpsListener(client: IncusClient, certName: string, clients = 1): Promise<HttpsListener> {
  const confs = Array.from({ length: clients }, () => mkdtempSync(join(tmpdir(), 'loopscope-https-conf-')));
  for (const d of confs)
    execFileSync('incus', ['remote', 'generate-certificate'], { env: { ...process.env, INCUS_CONF: d }, stdio: 'ignore' });
  const pem = readFileSync(join(confs[0]!, 'client.crt'), 'utf8');
  const fingerprint = fingerprintOf(pem);
  await client.request('POST', '/1.0/certificates', {
    body: { type: 'client', name: certName, certificate: new X509Certificate(pem).raw.toString('base64') },
  });
  const info = await client.server();
  const previousAddress = info.config?.['core.https_address'];
  const serverCert = info.environment?.certificate ?? '';
  const url = `https://127.0.0.1:${await freeLoopbackPort()}`;
  await client.request('PATCH', '/1.0', { body: { config: { 'core.https_address': url.slice('https://'.length) } } });
  for (const d of confs) {
    mkdirSync(join(d, 'servercerts'), { recursive: true });
    writeFileSync(join(d, 'servercerts', `${REMOTE}.crt`), serverCert);
    writeFileSync(
      join(d, 'config.yml'),
      `default-remote: local\nremotes:\n  ${REMOTE}:\n    addr: ${url}\n    protocol: incus\n    public: false\n`,
    );
  }
  return {
    url,
    confs,
    serverCert,
    async close() {
      await client.request('PATCH', '/1.0', { body: { config: { 'core.https_address': previousAddress ?? '' } } }).catch(() => undefined);
      await client.request('DELETE', `/1.0/certificates/${fingerprint}`).catch(() => undefined);
      for (const d of confs) rmSync(d, { recursive: true, force: true });
    },
  };
}
