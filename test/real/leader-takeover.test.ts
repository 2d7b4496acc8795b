// Takeover after a leader dies without releasing (SIGKILL), 20 times, against the REAL daemon. The
// bound is client-go's: a standby counts the lease from the poll that first saw the last renewal
// (up to one jittered retry period late) and takes over at the first poll past the lease (up to
// another): lease + 2 × retry × 2.2 (leaderelection.go: wait.JitterUntil with JitterFactor 1.2),
// measured from the dead leader's renewTime to the new holder's acquireTime — both written by this
// host's clock into the lease record, so no polling of the test's own enters the figure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { LeaseRecord } from '../../real/lease';
import { readLease } from '../../real/lease';
import { connectForSuite, deleteLease, startCli, uniqueHpa, waitUntil, withIncus } from './real-helpers';

const FAULTS = 20;
const LEASE_MS = 2_000;
const RETRY_MS = 200;
/** The documented bound (docs/real.md), plus the requests' own time on a loaded machine. */
const BOUND_MS = LEASE_MS + 2 * RETRY_MS * 2.2;
const REQUEST_SLACK_MS = 500;
const timings = ['--lease-duration', `${LEASE_MS}ms`, '--renew-deadline', '1500ms', '--retry-period', `${RETRY_MS}ms`];
const pidOf = (holder: string | undefined) => Number(/_(\d+)_[0-9a-f]+$/.exec(holder ?? '')?.[1] ?? NaN);
type Copy = ReturnType<typeof startCli>;

withIncus.describe('real HPA: takeover after a leader dies', () => {
  let client!: IncusClient;
  const hpa = uniqueHpa('tk');
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  const dir = mkdtempSync(join(tmpdir(), 'loopscope-takeover-'));
  const copies: Copy[] = [];
  afterAll(async () => {
    for (const c of copies) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await deleteLease(client, hpa.name);
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${FAULTS} leaders killed (SIGKILL): a standby leads within lease + 2 × retry × 2.2 of the last renewal`, async () => {
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(
      cfg,
      `HPA: { minPods: 0, maxPods: 1 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\n`,
    );
    const start = () => {
      const c = startCli(['real', '--config', cfg, ...timings]);
      copies.push(c);
      return c;
    };
    const alive = (c: Copy) => c.child.exitCode === null && c.child.signalCode === null;
    const pool: Copy[] = [start(), start(), start()];
    const holderAmong = async (): Promise<{ copy: Copy; record: LeaseRecord } | undefined> => {
      const record = await readLease(client, hpa.name);
      const copy = pool.find((c) => c.child.pid === pidOf(record?.holder));
      return copy && record ? { copy, record } : undefined;
    };
    let leader = await waitUntil('a first copy leads', holderAmong, 90_000, 20);
    const takeovers: number[] = [];
    for (let fault = 1; fault <= FAULTS; fault++) {
      // A standby that has read the lease, then the leader dies between two renewals.
      await waitUntil(
        `a standby for fault ${fault}`,
        async () => pool.some((c) => c !== leader.copy && alive(c) && c.out.stderr.includes('standby: HPA')),
        90_000,
        20,
      );
      leader.copy.child.kill('SIGKILL');
      await leader.copy.done;
      const last = await readLease(client, hpa.name);
      pool.splice(pool.indexOf(leader.copy), 1);
      pool.push(start());
      const next = await waitUntil(
        `fault ${fault}: a standby leads`,
        async () => {
          const h = await holderAmong();
          return h && h.copy !== leader.copy ? h : undefined;
        },
        30_000,
        20,
      );
      takeovers.push(Date.parse(next.record.acquireTime) - Date.parse(last!.renewTime));
      leader = next;
    }
    const over = takeovers.filter((ms) => ms > BOUND_MS + REQUEST_SLACK_MS);
    const mean = takeovers.reduce((a, b) => a + b, 0) / takeovers.length;
    console.log(
      `leader-takeover: ${FAULTS} faults, mean ${Math.round(mean)} ms (${(mean / LEASE_MS).toFixed(2)}× the lease), max ${Math.max(...takeovers)} ms, bound ${BOUND_MS} ms; ${takeovers.join(', ')}`,
    );
    expect(over, `takeovers (ms) past ${BOUND_MS} + ${REQUEST_SLACK_MS}: all ${takeovers.join(', ')}`).toEqual([]);
    expect(Math.min(...takeovers), 'no standby takes over before the lease has run out').toBeGreaterThanOrEqual(LEASE_MS - RETRY_MS);
    for (const c of pool.filter(alive)) c.child.kill('SIGKILL');
  }, 300_000);
});
