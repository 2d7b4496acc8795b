// The lease lives in the Incus daemon itself: when incusd is down no renewal can land, so a leader
// stops acting (client-go's renew deadline). Against the REAL daemon, killed and restarted: a lone
// `loopscope real` keeps running through the outage (it used to exit 1, leaving scaling stopped),
// renews once incusd answers with the lease still its own, and acts again — and with a standby
// beside it, exactly one of the two leads afterwards and the pods never exceed max.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import type { IncusClient } from '../../real/incus';
import { readLease } from '../../real/lease';
import { ROOT, connectForSuite, deleteLease, forceDelete, ownedInstances, startCli, uniqueHpa, waitUntil, withIncus } from './real-helpers';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'loopscope-lease-outage-'));
const LEASE_MS = 3_000;
const timings = ['--lease-duration', `${LEASE_MS / 1000}s`, '--renew-deadline', '2s', '--retry-period', '300ms'];
type Copy = ReturnType<typeof startCli>;

withIncus.describe('real HPA: a leader rides out an outage of the daemon that holds its lease', () => {
  let client!: IncusClient;
  const hpa = uniqueHpa('lo');
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  const copies: Copy[] = [];
  afterAll(async () => {
    for (const c of copies) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await deleteLease(client, hpa.name);
    rmSync(dir, { recursive: true, force: true });
  });

  const running = async () => (await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running');
  /**
   * incusd killed (SIGKILL, as the campaign did) once `atKill` has seen its moment, and started again once `whileDown` has seen what it
   * waits for and the outage has lasted twice the lease: long enough for any standby to count the
   * lease as expired (the outage's length is the fault itself, not a wait for something to happen).
   */
  async function outage(atKill: () => Promise<unknown>, whileDown: () => Promise<unknown>): Promise<void> {
    const pid = (await client.server()).environment?.server_pid;
    expect(pid, 'GET /1.0 names the daemon pid').toBeTypeOf('number');
    await atKill();
    const killedAt = Date.now();
    process.kill(pid!, 'SIGKILL');
    try {
      await whileDown();
      await waitUntil('the outage outlasts the lease twice', async () => Date.now() - killedAt > 2 * LEASE_MS, 30_000, 100);
    } finally {
      await run('bash', [resolve(ROOT, '.ci/setup-incus.sh')], { timeout: 120_000 });
    }
  }

  // Under each policy, with incusd killed the moment the loop decides a create (a pod deleted from
  // outside): the campaign's worst case left that pod Stopped and 0 Running against min 1.
  it.each(['seed', 'fixed', 'kubernetes'] as const)(
    '%s policy: a lone leader, incusd killed during a create, stops acting, keeps running, renews after and converges',
    async (policy) => {
      // The seed creates only from 0 running pods (as its Go original does: machines/incus-hpa/policies/seed.ts), so it runs at min 1.
      const min = policy === 'seed' ? 1 : 2;
      const cfg = join(dir, `lone-${policy}.yaml`);
      writeFileSync(
        cfg,
        `HPA: { minPods: ${min}, maxPods: 3 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: ${policy}\nperiod: 1s\nlimitsMemory: 64MiB\nbackoff: { initial: 300ms, max: 2s }\n`,
      );
      const lone = startCli(['real', '--config', cfg, ...timings]);
      copies.push(lone);
      // A case that fails must not leave its copy holding the lease for the next case.
      onTestFinished(() => {
        if (lone.child.exitCode === null) lone.child.kill('SIGKILL');
      });
      await waitUntil(`${min} owned pods running`, async () => (await running()).length === min, 90_000);
      const victim = (await running())[0]!.name;
      const before = lone.out.stdout.length;
      await forceDelete(client, victim);
      await outage(
        async () => {
          // The create is decided (its timeline line) — the daemon goes down with it in flight or about to be sent.
          await waitUntil('a create decided', async () => /→ (create|scale)/.test(lone.out.stdout.slice(before)), 60_000, 20);
        },
        () =>
          waitUntil(
            'the leader says it stopped acting',
            async () => lone.out.stderr.includes('stopped acting until Incus answers'),
            30_000,
            50,
          ),
      );
      await waitUntil(
        'the leader renews and acts again',
        async () => /lease: renewed again after [\d.]+ s; acting again/.test(lone.out.stderr),
        60_000,
        50,
      );
      expect(lone.child.exitCode, `still running (stderr: ${lone.out.stderr})`).toBeNull();
      expect(lone.out.stderr).not.toMatch(/lost the lease/);
      // Converged: owned pods all Running (no Stopped leftover of the interrupted create), within [min, max].
      await waitUntil(
        `converged: ${min}..3 owned, all Running`,
        async () => {
          const owned = await ownedInstances(client, hpa.name);
          return owned.length >= min && owned.length <= 3 && owned.every((i) => i.status === 'Running');
        },
        90_000,
        200,
      );
      lone.child.kill('SIGTERM');
      expect((await lone.done).code).toBe(0);
      for (const i of await ownedInstances(client, hpa.name)) await forceDelete(client, i.name);
    },
    300_000,
  );

  it('a leader and a standby through the same outage: one leads after it, never above max', async () => {
    const cfg = join(dir, 'pair.yaml');
    writeFileSync(
      cfg,
      `HPA: { minPods: 2, maxPods: 2 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\nbackoff: { initial: 300ms, max: 2s }\n`,
    );
    const first = startCli(['real', '--config', cfg, ...timings]);
    copies.push(first);
    // The first copy leads (the pods the previous test left running prove nothing about who leads).
    const holds = async (c: Copy) => ((await readLease(client, hpa.name))?.holder ?? '').includes(`_${c.child.pid}_`);
    await waitUntil(
      'the first copy leads with 2 owned pods running',
      async () => (await holds(first)) && (await running()).length === 2,
      90_000,
    );
    const second = startCli(['real', '--config', cfg, ...timings]);
    copies.push(second);
    await waitUntil('the second copy stands by', async () => second.out.stderr.includes('standby: HPA'), 90_000, 50);
    let peak = 0;
    const sample = async () => {
      peak = Math.max(peak, (await ownedInstances(client, hpa.name).catch(() => [])).length);
    };
    await outage(
      async () => undefined,
      () =>
        waitUntil(
          'the leader says it stopped acting',
          async () => first.out.stderr.includes('stopped acting until Incus answers'),
          30_000,
          50,
        ),
    );
    // One copy leads again (the first resumes, or the standby took over and the first ended).
    const pids = new Set([first.child.pid, second.child.pid]);
    await waitUntil(
      'one copy leads again',
      async () => {
        await sample();
        const holder = (await readLease(client, hpa.name))?.holder ?? '';
        return [...pids].some((pid) => holder.includes(`_${pid}_`)) && (await running()).length === 2;
      },
      90_000,
      100,
    );
    for (let i = 0; i < 20; i++) await sample();
    expect(peak, 'owned pods never above max 2').toBeLessThanOrEqual(2);
    const alive = [first, second].filter((c) => c.child.exitCode === null);
    expect(alive.length, 'at least the leader runs').toBeGreaterThanOrEqual(1);
    for (const c of [first, second]) {
      if (c.child.exitCode !== null)
        expect(c.out.stderr, 'a copy that ended lost the lease to the other').toMatch(/lost the lease: the lease is now held by/);
    }
    for (const c of alive) c.child.kill('SIGTERM');
    for (const c of alive) expect((await c.done).code).toBe(0);
  }, 300_000);
});
