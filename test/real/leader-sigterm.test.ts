// SIGTERM of a leading `loopscope real`, many times over, against the REAL daemon, with renewals every
// 100 ms so that one is often in flight when the signal comes. A clean exit must give the lease back
// every time (real/lease.ts release: no renewal of its own lands after it): the copy exits 0, the
// lease is no longer its own, and a standby leads within 4 s instead of waiting out the lease (6 s).
// Each copy runs an HPA of 0 pods: only the lease is exercised. Copies are started ahead, as
// standbys, so a process start-up (seconds) overlaps the previous leader's run.
// lease-release-race.test.ts races the release against renewals 200 times in one process; here the
// signal path itself (handler, shutdown, exit) is exercised, with fewer runs since each costs a process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import { readLease } from '../../real/lease';
import { connectForSuite, deleteLease, startCli, uniqueHpa, waitUntil, withIncus } from './real-helpers';

const RUNS = 15;
const STANDBYS = 4;
// A released lease is free at once; what separates a release from a lease left to expire is the 6 s
// below. A standby's own latency is the machine's: beside the browser tests on 2 cores one was seen
// leading 2.8 s after a clean release (the lease read free right after the exit). 4 s keeps 2 s of
// margin under the 6 s an expiry costs.
const TAKEOVER_MS = 4_000;
const hpa = uniqueHpa('ls');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-leader-sigterm-'));
// A lease of 6 s: a release that did not land shows as a takeover after 6 s, past the 4 s bound,
// while a loaded 2-core machine (a renewal starved for 3 s was seen) does not cost a leader its lease.
const timings = ['--lease-duration', '6s', '--renew-deadline', '4s', '--retry-period', '100ms'];

type Copy = ReturnType<typeof startCli>;
/** An HPA of 0 pods (only the lease is exercised), written to `file`. */
const writeLeaseOnlyConfig = (file: string, h: { name: string; prefix: string }) =>
  writeFileSync(
    file,
    `HPA: { minPods: 0, maxPods: 1 }\nname: ${h.name}\nnamePrefix: ${h.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\n`,
  );
/** The process id in a loop's holder identity (`host_pid_hex`, real/lease.ts defaultIdentity). */
const pidOf = (holder: string | undefined) => Number(/_(\d+)_[0-9a-f]+$/.exec(holder ?? '')?.[1] ?? NaN);
/** A copy's state for a failure message: pid, exit, the end of what it printed. */
const describe = (c: Copy) =>
  `pid ${c.child.pid} exit ${c.child.exitCode ?? c.child.signalCode ?? 'running'}: ${c.out.stderr.trim().split('\n').slice(-4).join(' / ')}`;

withIncus.describe('real HPA: a leader stopped with SIGTERM releases its lease every time', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  const copies: Copy[] = [];
  afterAll(() => {
    for (const c of copies) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${RUNS} SIGTERM exits while renewing every 100 ms: exit 0, lease not left held, a standby leads within ${TAKEOVER_MS / 1000} s`, async () => {
    const cfg = join(dir, 'hpa.yaml');
    writeLeaseOnlyConfig(cfg, hpa);
    let started = 0;
    const start = () => {
      started++;
      const c = startCli(['real', '--config', cfg, ...timings]);
      copies.push(c);
      return c;
    };
    const waiting: Copy[] = [];
    for (let i = 0; i <= STANDBYS; i++) waiting.push(start());
    const leaderAmong = async () => {
      const pid = pidOf((await readLease(client, hpa.name))?.holder);
      return waiting.find((c) => c.child.pid === pid);
    };
    const alive = (c: Copy) => c.child.exitCode === null && c.child.signalCode === null;
    /** Copies that ended on their own: only a lease lost to another copy is an allowed reason (exit 1). */
    const ended: string[] = [];
    const takeLeader = (c: Copy) => {
      waiting.splice(waiting.indexOf(c), 1);
      for (const gone of waiting.filter((w) => !alive(w))) {
        waiting.splice(waiting.indexOf(gone), 1);
        if (!/lost the lease: the lease is now held by/.test(gone.out.stderr)) ended.push(describe(gone));
      }
      // Always a standby left for the next run (one that ended is replaced).
      while (waiting.length < 1 || (started < RUNS + 1 && waiting.length < STANDBYS)) waiting.push(start());
      return c;
    };
    let leader = takeLeader(await waitUntil('a first copy leads', leaderAmong, 90_000, 20));
    const left: string[] = [];
    const takeovers: number[] = [];
    /** Per run: ms waiting for a standby + ms from SIGTERM to exit (where the test's time goes). */
    const phases: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      // A standby that has read the lease is there to take over (a process start costs seconds).
      const t0 = Date.now();
      await waitUntil(`a standby for run ${run}`, async () => waiting.some((c) => c.out.stderr.includes('standby: HPA')), 90_000, 20);
      const signalledAt = Date.now();
      leader.child.kill('SIGTERM');
      const exit = await leader.done;
      const exitedAt = Date.now();
      phases.push(`${signalledAt - t0}+${exitedAt - signalledAt}`);
      expect(exit.code, `run ${run}: exit code (stderr: ${exit.stderr})`).toBe(0);
      const after = await readLease(client, hpa.name);
      if (pidOf(after?.holder) === leader.child.pid) left.push(`run ${run}: still held by the exited copy ${after?.holder}`);
      const next = await waitUntil(`run ${run}: a standby leads`, leaderAmong, 15_000, 20).catch(async (err: unknown) => {
        throw new Error(
          `${err instanceof Error ? err.message : String(err)}; lease: ${JSON.stringify(await readLease(client, hpa.name))}; ` +
            `standbys: ${waiting.map(describe).join(' | ')}; the exited leader ${describe(leader)}`,
        );
      });
      const ms = Date.now() - exitedAt;
      takeovers.push(ms);
      if (ms > TAKEOVER_MS) left.push(`run ${run}: the next copy led ${ms} ms after the exit`);
      leader = takeLeader(next);
    }
    // The standbys first, then the leader: the lease ends free (all at once: the next test).
    const standbys = waiting.filter(alive);
    // Each one running (its SIGTERM handler installed: a copy still starting would die of the signal).
    await waitUntil(
      'the standbys have read the lease',
      async () => standbys.every((c) => c.out.stderr.includes('standby: HPA')),
      90_000,
      20,
    );
    for (const c of standbys) c.child.kill('SIGTERM');
    for (const c of standbys) expect((await c.done).code).toBe(0);
    leader.child.kill('SIGTERM');
    expect((await leader.done).code).toBe(0);
    expect((await readLease(client, hpa.name))?.holder ?? '').toBe('');
    expect(left, `takeover times (ms): ${takeovers.join(', ')}; standby wait + exit (ms): ${phases.join(', ')}`).toEqual([]);
    expect(ended, 'copies that ended without a signal, other than by losing the lease to another copy').toEqual([]);
    expect(takeovers).toHaveLength(RUNS);
    console.log(`leader-sigterm: takeovers (ms) ${takeovers.join(', ')}; standby wait + exit (ms) ${phases.join(', ')}`);
  }, 300_000);

  // A leader and its standbys stopped together (systemctl stop of every unit, a node drain): a
  // standby may take the lease while handling its own SIGTERM; it must give it back before it exits.
  it('a leader and two standbys sent SIGTERM at once, 4 times: all exit 0 and the lease ends free', async () => {
    const cfg = join(dir, 'hpa-together.yaml');
    const together = uniqueHpa('lt');
    writeLeaseOnlyConfig(cfg, together);
    const held: string[] = [];
    try {
      for (let round = 1; round <= 4; round++) {
        const group = [0, 1, 2].map(() => {
          const c = startCli(['real', '--config', cfg, ...timings]);
          copies.push(c);
          return c;
        });
        await waitUntil(
          `round ${round}: one leads, two stand by`,
          async () => {
            const pid = pidOf((await readLease(client, together.name))?.holder);
            return group.some((c) => c.child.pid === pid) && group.filter((c) => c.out.stderr.includes('standby: HPA')).length >= 2;
          },
          90_000,
          20,
        );
        for (const c of group) c.child.kill('SIGTERM');
        for (const c of group) expect((await c.done).code, `round ${round}: ${describe(c)}`).toBe(0);
        const holder = (await readLease(client, together.name))?.holder ?? '';
        if (holder !== '') held.push(`round ${round}: held by ${holder}; ${group.map(describe).join(' | ')}`);
      }
    } finally {
      await deleteLease(client, together.name);
    }
    expect(held).toEqual([]);
  }, 300_000);

  // The moment a copy takes the lease it starts adopting; a SIGTERM then aborts adoption's requests.
  // The release must still land before the process exits (it once did not: the command returned
  // while the release was in flight, and the release's PUT could hang on the pool those aborted
  // requests had used).
  it('SIGTERM the moment a copy leads (adoption in flight), 12 times: exit 0 and the lease released each time', async () => {
    const cfg = join(dir, 'hpa-at-once.yaml');
    const at = uniqueHpa('lr');
    writeLeaseOnlyConfig(cfg, at);
    const held: string[] = [];
    try {
      for (let i = 1; i <= 12; i++) {
        const c = startCli(['real', '--config', cfg, ...timings]);
        copies.push(c);
        await waitUntil(`copy ${i} leads`, async () => pidOf((await readLease(client, at.name))?.holder) === c.child.pid, 60_000, 5);
        c.child.kill('SIGTERM');
        const exit = await c.done;
        expect(exit.code, `copy ${i}: exit code (stderr: ${exit.stderr})`).toBe(0);
        const holder = (await readLease(client, at.name))?.holder ?? '';
        if (holder !== '') held.push(`copy ${i}: still held by ${holder} (stderr: ${exit.stderr.trim().split('\n').join(' / ')})`);
      }
    } finally {
      await deleteLease(client, at.name);
    }
    expect(held).toEqual([]);
  }, 300_000);
});
