// Real mode over HTTPS against the REAL daemon (cluster.test.ts is the remote-cluster half): the local
// incusd's HTTPS listener on loopback with a trusted client certificate, `loopscope real --remote
// lstest` as a user would run it (incus CLI config directory, pinned server certificate). The loop
// scales to its minimum, and an owned pod deleted from outside is replaced long before the 15 s
// period ends: the lifecycle events stream works over wss:// as well as over the unix socket.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IncusClient } from '../../real/incus';
import { openHttpsListener, REMOTE, type HttpsListener } from './https-listener';
import {
  cleanupOwned,
  deleteLease,
  expectConforms,
  forceDelete,
  ownedInstances,
  socketPath,
  startCli,
  uniqueHpa,
  waitUntil,
  withIncusHttps,
} from './real-helpers';

const hpa = uniqueHpa('hs');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-https-run-'));

withIncusHttps.describe('real mode over HTTPS (core.https_address on loopback, trusted client certificate)', () => {
  let client: IncusClient;
  let https: HttpsListener | undefined;
  const children: ReturnType<typeof startCli>[] = [];

  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    https = await openHttpsListener(client, `${hpa.name}-cert`);
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    if (client) {
      await cleanupOwned(client, hpa.name);
      await deleteLease(client, hpa.name);
      await https?.close();
      await client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('scales to min over HTTPS and wakes on an outside delete through the wss:// events stream', async () => {
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(
      cfg,
      `HPA: { minPods: 2, maxPods: 2 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\nperiod: 15s\nlimitsMemory: 64MiB\n`,
    );
    const out = join(dir, 'run.json');
    const run = startCli(['real', '--config', cfg, '--remote', REMOTE, '--out', out], { INCUS_CONF: https!.confs[0] });
    children.push(run);
    const running = async () => (await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running');
    // A process start costs 10–40 s on a loaded machine; then one period creates both pods.
    await waitUntil('2 owned pods running', async () => (await running()).length === 2, 90_000, 200);
    expect(run.out.stdout).toContain(`real ${https!.url}`);

    const victim = (await running())[0]!.name;
    const deletedAt = Date.now();
    await forceDelete(client, victim);
    await waitUntil(
      'replaced',
      async () => {
        const now = await running();
        return now.length === 2 && !now.some((i) => i.name === victim);
      },
      12_000,
      100,
    ).catch((e: unknown) => {
      console.log(run.out.stdout, run.out.stderr);
      throw e;
    }); // the run's output says why
    const tookMs = Date.now() - deletedAt;
    console.log(`[https-run.test] over HTTPS: replaced ${tookMs} ms after an outside delete (period 15 s)`);
    expect(tookMs).toBeLessThan(8_000);

    run.child.kill('SIGTERM');
    const done = await run.done;
    expect(done.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(done.code).toBe(0);
    // The trace written on SIGTERM: the outside delete is one the model explains, and the wake ended a wait early.
    const report = expectConforms(out);
    expect(report.envMoves.map((m) => m.move)).toContain(`someone deleted ${victim}`);
    expect(report.replayed.earlyPeriods).toBeGreaterThanOrEqual(1);
  }, 240_000);
});
