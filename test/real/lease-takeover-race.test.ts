// Copies taking one free lease at the same moment, against the REAL daemon. Incus checks a profile
// PUT's If-Match outside the transaction that writes it, so two PUTs sent with the same ETag can
// both succeed: before the takeover claims (real/lease-claims.ts), two of three copies started
// together both led (seen in leader-sigterm.test.ts). Here each round releases the lease and lets
// four electors, each on its own connection, try to take it at once: exactly one may win, and the
// lease must name it. Then a claim left by a copy that died mid-takeover: the lease is not stuck.
import { expect, it } from 'vitest';
import { IncusClient } from '../../real/incus';
import { LeaderElector, leaseProfileName, readLease } from '../../real/lease';
import { claimName } from '../../real/lease-claims';
import { connectForSuite, socketPath, uniqueHpa, waitUntil, withIncus } from './real-helpers';

const ROUNDS = 60;
const COPIES = 4;
const hpa = uniqueHpa('tr');
const timings = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 100 };

withIncus.describe('real HPA: copies racing for a free lease (in process)', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });

  it(`${ROUNDS} rounds of ${COPIES} copies taking a released lease at once: exactly one wins, and the lease names it`, async () => {
    const clients = await Promise.all(Array.from({ length: COPIES }, () => IncusClient.connect({ socketPath })));
    const doubles: string[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const electors = clients.map((c) => new LeaderElector(c, hpa.name, timings));
        const won = await Promise.all(electors.map((e) => e.tryAcquireOrRenew().catch(() => false)));
        const winners = electors.filter((_, i) => won[i]);
        const holder = (await readLease(client, hpa.name))?.holder;
        if (winners.length !== 1 || winners[0]!.identity !== holder)
          doubles.push(`round ${round}: ${winners.length} won (${winners.map((w) => w.identity).join(', ')}), the lease names ${holder}`);
        for (const w of winners) await w.release();
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    expect(doubles).toEqual([]);
  }, 300_000);

  it('a claim left by a copy that died mid-takeover: the holder stops writing, and a standby takes over past it once it is stale', async () => {
    const holder = new LeaderElector(client, hpa.name, timings);
    expect(await holder.acquire()).toBe(true);
    const term = (await readLease(client, hpa.name))!.transitions;
    const dead = claimName(leaseProfileName(hpa.name), term + 1);
    await client.request('POST', '/1.0/profiles', {
      body: { name: dead, description: 'a takeover that never finished', config: {}, devices: {} },
    });
    // The holder's renewal sees a term above its own claimed: it does not count (nor write).
    expect(await holder.tryAcquireOrRenew()).toBe(false);
    const standby = new LeaderElector(client, hpa.name, timings);
    const started = performance.now();
    expect(await standby.acquire()).toBe(true);
    const ms = performance.now() - started;
    const lease = await readLease(client, hpa.name);
    expect(lease?.holder).toBe(standby.identity);
    expect(lease?.transitions).toBe(term + 2);
    // Within the lease it waits out plus the claim going stale (one more lease), and a retry's jitter.
    expect(ms).toBeLessThan(2 * timings.leaseDurationMs + 2_000);
    // The dead claim is gone (removed by the winner); the old holder now sees the new one.
    await waitUntil(
      'the dead claim removed',
      async () => !(await client.get<string[]>('/1.0/profiles')).some((u) => u.endsWith(`/${dead}`)),
      10_000,
      50,
    );
    expect(await holder.tryAcquireOrRenew()).toBe(false);
    expect(holder.holder).toBe(standby.identity);
    await standby.release();
  }, 60_000);
});
