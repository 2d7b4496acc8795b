// Leader election against the REAL daemon: two copies of `loopscope real` with
// the same HPA name — one acts, the other waits as a standby and says so; after `kill -9` of the
// leader the standby takes over within one lease duration; never above max throughout.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import { readLease } from '../../real/lease';
import {
  connectForSuite,
  expectConforms,
  ownedInstances,
  runCli,
  startCli,
  uniqueHpa,
  waitOwnedRunning,
  waitUntil,
  withIncus,
} from './real-helpers';

const hpa = uniqueHpa('ld');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-leader-'));

withIncus.describe('real HPA: one leader per HPA name', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  const children: ReturnType<typeof startCli>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  });

  it('one copy acts, the other stands by; after kill -9 the standby takes over within the lease duration; never above max', async () => {
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(
      cfg,
      `HPA: { minPods: 3, maxPods: 3 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\n`,
    );
    const lease = ['--lease-duration', '6s', '--renew-deadline', '4s', '--retry-period', '1s'];
    let maxSeen = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const active = (await ownedInstances(client, hpa.name).catch(() => [])).filter(
          (i) => i.status === 'Running' || i.status === 'Starting',
        );
        maxSeen = Math.max(maxSeen, active.length);
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    try {
      // A is killed with -9 and writes no trace (it is written at exit); B's, written on SIGTERM, is checked.
      const a = startCli(['real', '--config', cfg, ...lease]);
      children.push(a);
      await waitUntil('A leads', async () => ((await readLease(client, hpa.name))?.holder ?? '') !== '', 60_000);
      const bOut = join(dir, 'b.json');
      const b = startCli(['real', '--config', cfg, ...lease, '--out', bOut]);
      children.push(b);
      await waitUntil('B says it stands by', async () => b.out.stderr.includes('standby: HPA'), 60_000); // a process start costs 10–40 s on a loaded machine
      await waitOwnedRunning(client, hpa.name, 3, 40_000, '3 pods running');
      expect(b.out.stdout).not.toMatch(/create|delete/); // the standby never decided anything
      const holder = (await readLease(client, hpa.name))?.holder ?? '';
      expect(b.out.stderr).toContain(`held by ${holder}`);
      const status = await runCli(['real', 'status', '--config', cfg]);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`lease: held by ${holder}`);
      expect(status.stdout).toContain('owned pods: 3');

      // kill -9 the leader: no release, the lease must expire; then one pod is removed from outside.
      const killedAt = Date.now();
      a.child.kill('SIGKILL');
      await a.done;
      await waitUntil('B takes over', async () => b.out.stderr.includes('leading: took over'), 15_000, 50);
      const takeoverMs = Date.now() - killedAt;
      // One lease duration after B last saw a renewal (≤ kill time), plus B's retry period and jitter.
      expect(takeoverMs).toBeLessThanOrEqual(6_000 + 1_000 * 2.2 + 1_500);
      expect(takeoverMs).toBeGreaterThanOrEqual(6_000 - 1_000 - 500);
      expect((await readLease(client, hpa.name))?.transitions).toBe(1);
      await waitUntil('B adopted the pods and keeps 3', async () => b.out.stdout.includes('adopted 3 owned pod(s)'), 10_000);
      await new Promise((r) => setTimeout(r, 2_000)); // not a wait: time passes under B, then nothing may have changed
      expect((await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running').length).toBe(3);
      b.child.kill('SIGTERM');
      const bDone = await b.done;
      expect(bDone.code).toBe(0);
      // Released on a clean exit: a next copy may start at once.
      expect((await readLease(client, hpa.name))?.holder).toBe('');
      // B's run starts at the takeover: the 3 pods A made are its first observation, and it acts on nothing more.
      expect(expectConforms(bOut).replayed.acts).toBe(0);
    } finally {
      sampling = false;
      await sampler;
    }
    expect(maxSeen).toBeLessThanOrEqual(3);
    expect(maxSeen).toBe(3);
  }, 240_000);
});
