// Crashes against the REAL daemon: incusd killed mid-create under every policy leaves nothing behind
// (the owned-leftover collection), and a parallel scale-up killed with -9 mid-batch converges without
// orphans and never above max (slow-start batches count in-flight creates).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PolicyName } from '../../machines/incus-hpa';
import { RealHpaRunner } from '../../real/hpa-runner';
import type { IncusClient, Operation } from '../../real/incus';
import { IncusClient as Client } from '../../real/incus';
import {
  ROOT,
  cleanupOwned,
  deleteLease,
  expectConforms,
  ownedInstances,
  realConfig,
  socketPath,
  startCli,
  uniqueHpa,
  waitUntil,
  withIncus,
} from './real-helpers';

const run = promisify(execFile);
const POLICIES: PolicyName[] = ['seed', 'fixed', 'kubernetes'];
const hpas = Object.fromEntries(POLICIES.map((p) => [p, uniqueHpa(`cr${p[0]}`)])) as Record<PolicyName, { name: string; prefix: string }>;
const batch = uniqueHpa('pb');

async function createsInFlight(client: IncusClient, prefixes: string[]): Promise<boolean> {
  const ops = await client.get<{ running?: Operation[] }>('/1.0/operations', { query: { recursion: 1 } });
  return (ops.running ?? []).some(
    (op) =>
      /creat/i.test(op.description) &&
      (op.resources?.instances ?? []).some((p) => prefixes.some((x) => decodeURIComponent(p).includes(`/${x}`))),
  );
}

withIncus.describe('real HPA: crashes', () => {
  let client!: IncusClient;
  beforeAll(async () => {
    client = await Client.connect({ socketPath });
  }, 60_000);
  afterAll(async () => {
    for (const h of [...Object.values(hpas), batch]) {
      await cleanupOwned(client, h.name);
      await deleteLease(client, h.name);
    }
    await client.close();
  }, 180_000);

  it('incusd killed mid-create under every policy: after its restart each HPA converges and no owned leftover remains', async () => {
    const want: Record<PolicyName, number> = { seed: 1, fixed: 3, kubernetes: 3 };
    const runners = POLICIES.map(
      (p) =>
        new RealHpaRunner({
          client,
          config: realConfig(hpas[p], { policy: p, minPods: want[p], maxPods: 3 }),
          gcGraceMs: 1_000,
        }),
    );
    for (const r of runners) await r.start();
    try {
      await waitUntil(
        'creates in flight',
        () =>
          createsInFlight(
            client,
            POLICIES.map((p) => hpas[p].prefix),
          ),
        30_000,
        20,
      );
      const pid = (await client.server()).environment?.server_pid;
      expect(pid).toBeTypeOf('number');
      process.kill(pid!, 'SIGKILL');
      await run('bash', [resolve(ROOT, '.ci/setup-incus.sh')], { timeout: 120_000 });
      for (const p of POLICIES) {
        await waitUntil(
          `${p}: ${want[p]} running and nothing else owned`,
          async () => {
            const owned = await ownedInstances(client, hpas[p].name);
            return owned.length === want[p] && owned.every((i) => i.status === 'Running');
          },
          60_000,
          250,
        );
      }
    } finally {
      for (const r of runners) await r.stop();
    }
    for (const p of POLICIES) {
      const owned = await ownedInstances(client, hpas[p].name);
      expect(
        owned.map((i) => i.status),
        p,
      ).toEqual(Array(want[p]).fill('Running'));
    }
    POLICIES.forEach((p, i) => expectConforms(runners[i]!.trace(), `crash-${p}`));
  }, 240_000);

  it('parallel scale-up (slow start) killed with -9 mid-batch: the next copy converges, no orphan, never above max', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-batch-'));
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(
      cfg,
      `HPA: { minPods: 6, maxPods: 6 }\nname: ${batch.name}\nnamePrefix: ${batch.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\nmaxParallel: 4\n`,
    );
    const lease = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
    const bOut = join(dir, 'b.json');
    let maxSeen = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const owned = await ownedInstances(client, batch.name).catch(() => []);
        maxSeen = Math.max(maxSeen, owned.length);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      // A is killed with -9 and writes no trace (it is written at exit); the next copy's, written on SIGTERM, is checked.
      const a = startCli(['real', '--config', cfg, ...lease]);
      // Killed while a batch of 2 or more creates is in flight (the first batch is 1).
      await waitUntil('first create done', async () => /created /.test(a.out.stdout), 60_000, 20);
      await waitUntil('the next batch in flight', () => createsInFlight(client, [batch.prefix]), 20_000, 20);
      a.child.kill('SIGKILL');
      await a.done;
      const b = startCli(['real', '--config', cfg, ...lease, '--out', bOut]);
      try {
        await waitUntil(
          '6 running, nothing else',
          async () => {
            const owned = await ownedInstances(client, batch.name);
            return owned.length === 6 && owned.every((i) => i.status === 'Running');
          },
          90_000,
          250,
        );
        await new Promise((r) => setTimeout(r, 2_000)); // not a wait: time passes at 6 running, which must then hold
        expect((await ownedInstances(client, batch.name)).map((i) => i.status)).toEqual(Array(6).fill('Running'));
      } finally {
        b.child.kill('SIGTERM');
        await b.done;
      }
      // The copy's own run created in batches: more than one create done at nearly the same time.
      expect(b.out.stderr).toContain('leading');
    } finally {
      sampling = false;
      await sampler;
    }
    expect(maxSeen).toBeLessThanOrEqual(6);
    expectConforms(bOut);
  }, 200_000);
});
