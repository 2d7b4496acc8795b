// Real mode's input safety against the REAL daemon: a project that does not exist, values outside
// the bounds, a partial hpa.yaml mid-run, and the TLS/403 messages over a real HTTPS listener
// (core.https_address on 127.0.0.1, restored afterwards). What is refused before the loop starts
// runs in-process (cli/run.ts, against the real daemon all the same): a process costs 10–40 s of
// start-up on this loaded machine. The mid-run edit runs as a real process.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IncusClient } from '../../real/incus';
import { runInProcess } from '../cli/in-process';
import { fingerprintOf, openHttpsListener, type HttpsListener } from './https-listener';
import {
  cleanupOwned,
  deleteLease,
  expectConforms,
  ownedInstances,
  runCli,
  sleep,
  socketPath,
  startCli,
  uniqueHpa,
  waitUntil,
  withIncus,
  withIncusHttps,
} from './real-helpers';

const hpa = uniqueHpa('rs');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-real-safety-'));

function config(name: string, extra = '', body?: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    body ??
      [
        'HPA: { minPods: 1, maxPods: 2, memoryThreshold: 50 }',
        `name: ${hpa.name}`,
        `namePrefix: ${hpa.prefix}`,
        'policy: fixed',
        'period: 1s',
        'limitsMemory: 64MiB',
        'backoff: { initial: 300ms, max: 2s }',
        extra,
        '',
      ].join('\n'),
  );
  return path;
}

const oneLine = (stderr: string) => stderr.trim().split('\n');

withIncus.describe('real mode: bad input is refused before anything is done', () => {
  let client: IncusClient;
  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
  }, 60_000);
  afterAll(async () => {
    if (client) {
      await cleanupOwned(client, hpa.name);
      await deleteLease(client, hpa.name);
      await client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('--project that does not exist: exit 2 naming it and the known ones, also with --dry-run', async () => {
    for (const extra of [['--dry-run'], []]) {
      const r = await runInProcess(['real', '--config', config('p.yaml'), '--once', '--project', 'nosuch-project', ...extra]);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toEqual([
        expect.stringMatching(/^loopscope: --project: expected a project of .* \(known: .*default.*\), got "nosuch-project"$/),
      ]);
      expect(r.stdout).toBe('');
    }
    // The file's own project is checked the same way.
    const r = await runInProcess(['real', '--config', config('pf.yaml', 'project: nosuch-project'), '--once', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the remote's project|--project|project/);
    expect(await ownedInstances(client, hpa.name)).toEqual([]);
  }, 90_000);

  it('values past the bounds (timer overflow, 1 ms period, 1e30 bytes, a billion pods): exit 2, one line each, nothing created', async () => {
    const cases: [string, RegExp][] = [
      ['period: 1', /period: expected a period of at least 100 ms, got 1 ms/],
      ['period: 25d', /period: expected a period of at most 2147483647 ms \(24\.86 days: Node timers overflow beyond\), got 25\.00 days/],
      ['backoff: { initial: 300ms, max: 100000d }', /backoff\.max: expected a backoff of at most 2147483647 ms/],
      ['limitsMemory: 1e30', /limitsMemory: expected at most 8PiB/],
      ['HPA: { minPods: 1, maxPods: 1000000000 }', /HPA\.maxPods: expected at most 1000 pods, got 1000000000/],
    ];
    for (const [line, message] of cases) {
      const key = line.split(':')[0]!;
      const base = readFileSync(config('b.yaml'), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith(`${key}:`))
        .join('\n');
      const file = config(`bound-${key}.yaml`, '', `${base}\n${line}\n`);
      const r = await runInProcess(['real', '--config', file, '--once', '--dry-run']);
      expect(r.code, line).toBe(2);
      expect(oneLine(r.stderr), line).toEqual([expect.stringMatching(message)]);
    }
    expect(await ownedInstances(client, hpa.name)).toEqual([]);
  }, 180_000);

  it('a partial hpa.yaml mid-run (a key missing) is refused; the loop keeps its config', async () => {
    const cfg = config('live.yaml');
    const out = join(dir, 'live.json');
    const run = startCli(['real', '--config', cfg, '--out', out]);
    try {
      await waitUntil('first period', async () => run.out.stdout.includes('no scale action') || run.out.stdout.includes('create'), 120_000);
      // The same file cut after its fourth line: period, limitsMemory and backoff would fall back to defaults (15 s, 1 GiB …).
      const full = readFileSync(cfg, 'utf8');
      writeFileSync(cfg, full.split('\n').slice(0, 4).join('\n') + '\n');
      await waitUntil('the partial file refused', async () => run.out.stderr.includes(`${cfg}: period: expected this key`), 30_000);
      expect(run.out.stderr).toContain(`${cfg}: limitsMemory: expected this key`);
      writeFileSync(cfg, full.replace(`namePrefix: ${hpa.prefix}`, 'namePrefix: other-'));
      await waitUntil(
        'the prefix change refused',
        async () => run.out.stderr.includes('To hand over: stop loopscope, edit the file, start it again'),
        30_000,
      );
      await sleep(1_500); // not a wait: time passes after the refusal, then the loop must still be running
      expect(run.child.exitCode).toBeNull();
      const owned = await ownedInstances(client, hpa.name);
      expect(owned.length).toBeLessThanOrEqual(2);
      expect(owned.every((i) => i.name.startsWith(hpa.prefix))).toBe(true);
    } finally {
      run.child.kill('SIGTERM');
    }
    expect((await run.done).code).toBe(0);
    // The trace written on SIGTERM: the refused edits never reached the machine (no CONFIG.UPDATE to replay).
    expect(expectConforms(out).replayed.configEdits).toBe(0);
  }, 240_000);
});

withIncusHttps.describe('real mode over HTTPS: pin, trust and URL messages', () => {
  let client: IncusClient;
  let https: HttpsListener | undefined;
  let conf: string;
  let untrusted: string;
  let url: string;
  /** The trusted client certificate's fingerprint (the wrong-pin test pins it as the server's). */
  let fingerprint: string;

  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    https = await openHttpsListener(client, `${hpa.name}-cert`, 2);
    [conf, untrusted] = https.confs as [string, string];
    url = https.url;
    fingerprint = fingerprintOf(readFileSync(join(conf, 'client.crt'), 'utf8'));
  }, 120_000);

  afterAll(async () => {
    if (!client) return;
    await https?.close();
    await client.close();
  }, 120_000);

  let cfgFile: string;
  const cfg = () =>
    (cfgFile ??= (() => {
      const f = join(conf, 'hpa.yaml');
      writeFileSync(f, `name: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\n`);
      return f;
    })());
  /** The CLI in-process with the incus CLI config directory `INCUS_CONF`. */
  async function withConf(confDir: string, args: string[]) {
    const before = process.env.INCUS_CONF;
    process.env.INCUS_CONF = confDir;
    try {
      return await runInProcess(args);
    } finally {
      if (before === undefined) delete process.env.INCUS_CONF;
      else process.env.INCUS_CONF = before;
    }
  }

  it('a URL that differs from config.yml only by a trailing slash or case keeps its pin (the run works)', async () => {
    // A real process: a run that works ends with process.exit.
    const out = join(conf, 'slash.json'); // this file's dir is gone with the suite above
    const r = await runCli(
      ['real', '--config', cfg(), '--once', '--dry-run', '--remote', `${url}/`, '--out', out],
      { INCUS_CONF: conf },
      180_000,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expectConforms(out);
    expect(r.stdout).toContain(`real ${url}`);
    // Upper case scheme and host, default port spelled out: the same pin (checked at connect, in-process).
    const { connectChecked } = await import('../../cli/incus-connect');
    const before = process.env.INCUS_CONF;
    process.env.INCUS_CONF = conf;
    try {
      const c = await connectChecked({ remote: url.replace('https', 'HTTPS').replace('127.0.0.1', '127.0.0.1') + '/' });
      expect(c.endpoint).toBe(url);
      await c.close();
    } finally {
      if (before === undefined) delete process.env.INCUS_CONF;
      else process.env.INCUS_CONF = before;
    }
  }, 240_000);

  it('a wrong pinned certificate: "does not match the pinned certificate" with both SHA-256 fingerprints, exit 1', async () => {
    const wrong = mkdtempSync(join(tmpdir(), 'loopscope-rs-wrong-'));
    try {
      for (const f of ['client.crt', 'client.key', 'config.yml']) writeFileSync(join(wrong, f), readFileSync(join(conf, f)));
      mkdirSync(join(wrong, 'servercerts'));
      writeFileSync(join(wrong, 'servercerts', 'lstest.crt'), readFileSync(join(conf, 'client.crt'))); // any other certificate
      const server = fingerprintOf(readFileSync(join(conf, 'servercerts', 'lstest.crt'), 'utf8'));
      const r = await withConf(wrong, ['real', '--config', cfg(), '--once', '--dry-run', '--remote', 'lstest']);
      expect(r.code).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain('does not match the pinned certificate');
      expect(r.stderr).toContain(`pinned SHA-256 ${fingerprint}`);
      expect(r.stderr).toContain(`server presented SHA-256 ${server}`);
      expect(r.stderr).not.toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT/);
      // Garbage instead of a certificate: one line naming the file, exit 2.
      writeFileSync(join(wrong, 'servercerts', 'lstest.crt'), 'not a certificate\n');
      const g = await withConf(wrong, ['real', '--config', cfg(), '--once', '--dry-run', '--remote', 'lstest']);
      expect(g.code).toBe(2);
      expect(oneLine(g.stderr)).toEqual([expect.stringMatching(/servercerts\/lstest\.crt: expected a PEM certificate/)]);
      // A malformed config.yml: one line naming it, exit 2.
      writeFileSync(join(wrong, 'config.yml'), 'remotes: [1, 2\n');
      const m = await withConf(wrong, ['real', '--config', cfg(), '--once', '--dry-run', '--remote', 'lstest']);
      expect(m.code).toBe(2);
      expect(oneLine(m.stderr)).toEqual([expect.stringMatching(/config\.yml: line \d+, column \d+: malformed YAML/)]);
    } finally {
      rmSync(wrong, { recursive: true, force: true });
    }
  }, 90_000);

  it('an untrusted client certificate: says so, names its fingerprint and how to trust it, exit 1', async () => {
    const theirs = fingerprintOf(readFileSync(join(untrusted, 'client.crt'), 'utf8'));
    const r = await withConf(untrusted, ['real', '--config', cfg(), '--once', '--dry-run', '--remote', 'lstest']);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`does not trust this client certificate (SHA-256 ${theirs})`);
    expect(r.stderr).toContain('incus config trust add-certificate');
  }, 60_000);
});
