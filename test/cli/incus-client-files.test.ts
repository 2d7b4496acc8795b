// An HTTPS Incus remote with half of the client certificate pair in the incus CLI config directory:
// without its key the certificate is not sent and the server answers "not trusted", hiding the
// cause. The missing file is named instead, exit 2, before any connection (the remote here is an
// unreachable port: a command that got as far as connecting would exit 1).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from './in-process';

/** A self-signed certificate (EC P-256, CN loopscope-test, valid to 2126) whose key was thrown away. */
const CERT = `-----BEGIN CERTIFICATE-----
MIIBiDCCAS+gAwIBAgIUWaHTTf+zunwG+j+aE4Tu9eBKn5swCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwObG9vcHNjb3BlLXRlc3QwIBcNMjYxMTI3MTE1NTA1WhgPMjEy
NjExMDMxMTU1MDZaMBkxFzAVBgNVBAMMDmxvb3BzY29wZS10ZXN0MFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAETbBfMHDU9SyKkbS68aSLt3rV7OLGwFEfdqjw5D7K
OrzPN4RwB6qRxRveRoF4CQkm9+IjhmmcQPtm89WyhdG1a6NTMFEwHQYDVR0OBBYE
FKb+ANRaSv5uqJCy3jwSEet3xh6RMB8GA1UdIwQYMBaAFKb+ANRaSv5uqJCy3jwS
Eet3xh6RMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgIUCaiHof
JoWIzajMuvhRP2PZp3FZiFC8X80kQ5KLSBACIDaZS6HPr9ezFZdFZTMYzacNVpdS
LQkFqijT7CCc0yeX
-----END CERTIFICATE-----
`;
const KEY = generateKeyPairSync('ec', {
  namedCurve: 'prime256v1',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;
const UNREACHABLE = 'https://127.0.0.1:1';

const base = mkdtempSync(join(tmpdir(), 'loopscope-client-files-'));
const config = join(base, 'hpa.yaml');
writeFileSync(config, 'name: lst-never\nnamePrefix: never-\n');

/** An incus CLI config directory holding `files`, with a remote `far` at the unreachable address. */
function confWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(base, 'conf-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'config.yml'), `remotes:\n  far:\n    addr: ${UNREACHABLE}\n    protocol: incus\n`);
  return dir;
}

async function realWith(conf: string, remote: string) {
  const before = process.env.INCUS_CONF;
  process.env.INCUS_CONF = conf;
  try {
    return await runInProcess(['real', '--config', config, '--once', '--dry-run', '--remote', remote]);
  } finally {
    if (before === undefined) delete process.env.INCUS_CONF;
    else process.env.INCUS_CONF = before;
  }
}

describe('the client certificate pair of an HTTPS remote', () => {
  it.each([UNREACHABLE, 'far'])('client.crt without client.key (--remote %s): names the missing key, exit 2', async (remote) => {
    const conf = confWith({ 'client.crt': CERT });
    const r = await realWith(conf, remote);
    expect(r.stderr.trim().split('\n')).toEqual([
      `loopscope: ${join(conf, 'client.key')}: file not found (expected the private key of ${join(conf, 'client.crt')}: a client certificate is not sent without its key)`,
    ]);
    expect(r.stderr).not.toMatch(/trust/);
    expect(r.code).toBe(2);
  });

  it('client.key without client.crt: names the missing certificate, exit 2', async () => {
    const conf = confWith({ 'client.key': KEY });
    const r = await realWith(conf, UNREACHABLE);
    expect(r.stderr.trim().split('\n')).toEqual([
      `loopscope: ${join(conf, 'client.crt')}: file not found (expected the client certificate of ${join(conf, 'client.key')}: a key is not sent without its certificate)`,
    ]);
    expect(r.code).toBe(2);
  });

  it('the control: neither file gets as far as connecting (the unreachable port: exit 1)', async () => {
    const r = await realWith(confWith({}), UNREACHABLE);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('127.0.0.1:1');
  });
});
