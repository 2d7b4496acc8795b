// `loopscope real rename` killed (kill -9) at an exact request, against the REAL daemon, then run
// again: the re-run finishes or tidies up what the dead rename left, exits 0, leaves no lease held and
// loses no pod. The rename process talks to Incus through a proxy (incus-proxy.ts) that holds the one
// request the test stops it at, so the kill lands at that point and not a moment later.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OWNER_KEY } from '../../machines/incus-hpa';
import type { Instance } from '../../real/incus';
import { IncusClient } from '../../real/incus';
import { LeaderElector, readLease } from '../../real/lease';
import { RENAMED_FROM_KEY } from '../../real/rename';
import { runInProcess } from '../cli/in-process';
import type { HeldRequest } from './incus-proxy';
import { startIncusProxy } from './incus-proxy';
import { cleanupOwned, deleteLease, ownedInstances, realConfig, socketPath, startCli, uniqueHpa, withIncus } from './real-helpers';

const a = uniqueHpa('rk');
const b = `${a.name}-b`;
const c = `${a.name}-c`;
const dir = mkdtempSync(join(tmpdir(), 'loopscope-rename-killed-'));
const pods = [`${a.prefix}0`, `${a.prefix}1`];

function config(name: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `HPA: { minPods: 2, maxPods: 2 }\nname: ${name}\nnamePrefix: ${a.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\n`,
  );
  return path;
}
const uuids = (list: Instance[]) => list.map((i) => i.config['volatile.uuid']).sort();
const pathOf = (r: HeldRequest) => r.path.split('?')[0];
/** A lease release: the lease profile written with its holder cleared (real/lease.ts release). */
const isLeaseRelease = (r: HeldRequest) =>
  r.method === 'PUT' && pathOf(r)!.startsWith('/1.0/profiles/loopscope-lease-') && r.body.includes('"user.loopscope.lease.holder":""');

/** Runs the rename as a process through a proxy holding the request `stopAt` picks, then kills it with -9. */
async function renameKilledAt(cfg: string, to: string, stopAt: (r: HeldRequest) => boolean) {
  const proxy = await startIncusProxy(socketPath, stopAt);
  const run = startCli(['real', 'rename', '--config', cfg, '--to', to], { INCUS_SOCKET: proxy.socketPath });
  try {
    const stopped = await Promise.race([
      proxy.held,
      run.done.then((r) => {
        throw new Error(`the rename ended before the request it is stopped at: ${JSON.stringify(r)}`);
      }),
    ]);
    run.child.kill('SIGKILL');
    const done = await run.done;
    expect(done.signal).toBe('SIGKILL');
    return { stopped, stdout: done.stdout, pid: run.child.pid };
  } finally {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await proxy.close();
  }
}

/** A rename's holder identity of the process `pid` on this host (real/rename-lease.ts). */
const holderOf = (pid: number | undefined) => new RegExp(`^loopscope-rename_.+_${pid}_[0-9a-f]+$`);

withIncus.describe('loopscope real rename killed at any point, then run again', () => {
  let client!: IncusClient;
  let made: Instance[] = [];
  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    const image = realConfig(a).settings.image;
    // a's pods, never started: a rename moves ownership only.
    for (const name of pods)
      await client.createInstance({
        name,
        source: { type: 'image', alias: image },
        config: { 'limits.memory': '64MiB', [OWNER_KEY]: a.name },
      });
    made = await ownedInstances(client, a.name);
    expect(made).toHaveLength(2);
  }, 120_000);
  afterAll(async () => {
    if (!client) return;
    for (const n of [a.name, b, c]) {
      await cleanupOwned(client, n);
      await deleteLease(client, n);
    }
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it('killed after "renamed:", before it released the leases: the re-run has nothing to re-key, releases both leases, exit 0', async () => {
    const killed = await renameKilledAt(config(a.name), b, isLeaseRelease);
    expect(killed.stdout).toContain(`renamed: 2 pod(s) owned by ${b} (2 re-keyed now); ${a.name} owns none`);
    expect(killed.stopped.path).toContain(`loopscope-lease-${a.name}`); // the first of the two releases
    for (const name of [a.name, b]) expect((await readLease(client, name))?.holder).toMatch(holderOf(killed.pid));

    const again = await runInProcess(['real', 'rename', '--config', config(a.name), '--to', b]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`nothing to re-key: ${a.name} owns no pods; ${b} owns the 2 pod(s) moved from it`);
    for (const name of [a.name, b]) {
      expect(again.stdout).toMatch(
        new RegExp(
          `lease ${name}: held by loopscope-rename_\\S+_${killed.pid}_[0-9a-f]+, a rename on this host that is no longer running: released`,
        ),
      );
      expect((await readLease(client, name))?.holder).toBe('');
    }
    // A loop of the new name leads at its first attempt (no lease duration to wait out).
    const next = new LeaderElector(client, b, { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 });
    expect(await next.tryAcquireOrRenew()).toBe(true);
    expect(await next.release()).toBe(true);
    // No pod lost or orphaned: the very same instances, b's, marked as moved from a.
    expect(await ownedInstances(client, a.name)).toEqual([]);
    const owned = await ownedInstances(client, b);
    expect(uuids(owned)).toEqual(uuids(made));
    expect(owned.map((i) => i.config[RENAMED_FROM_KEY])).toEqual([a.name, a.name]);
  }, 120_000);

  it("killed while re-keying (its second pod's write never sent): the re-run takes the dead rename's leases at once, finishes, releases them", async () => {
    const second = (r: HeldRequest) => r.method === 'PATCH' && pathOf(r) === `/1.0/instances/${encodeURIComponent(pods[1]!)}`;
    const killed = await renameKilledAt(config(b), c, second);
    expect(killed.stdout).toContain(`re-keyed ${pods[0]}: ${OWNER_KEY} ${b} → ${c}`);
    expect(killed.stdout).not.toContain('renamed:');
    expect((await ownedInstances(client, b)).map((i) => i.name)).toEqual([pods[1]]);
    for (const name of [b, c]) expect((await readLease(client, name))?.holder).toMatch(holderOf(killed.pid));

    const again = await runInProcess(['real', 'rename', '--config', config(b), '--to', c]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.ms).toBeLessThan(15_000); // the dead holder's 15 s lease is not watched out
    for (const name of [b, c])
      expect(again.stdout).toMatch(
        new RegExp(
          `lease ${name}: held by loopscope-rename_\\S+_${killed.pid}_[0-9a-f]+, a rename on this host that is no longer running: taken over`,
        ),
      );
    expect(again.stdout).toContain(`renamed: 2 pod(s) owned by ${c} (1 re-keyed now, 1 by an earlier run); ${b} owns none`);
    for (const name of [b, c]) expect((await readLease(client, name))?.holder).toBe('');
    expect(await ownedInstances(client, b)).toEqual([]);
    expect(uuids(await ownedInstances(client, c))).toEqual(uuids(made));
  }, 120_000);
});
