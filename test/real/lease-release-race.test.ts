// What a SIGTERM does to a leader (real-command.ts: stop renewing, Leadership.release), 200 times in one
// process against the REAL daemon, with the release timed to race the leader's own renewals: every other
// time at the very moment one of its lease requests (GET or If-Match PUT) is in flight, otherwise at a
// random point of its 100 ms renewal period. The lease must be given back every time — the record no
// longer names the old leader, and the standby that was waiting leads within 2 s instead of waiting
// out the 6 s lease. The standby then leads the next round, so each round races a different renewal.
// (leader-sigterm.test.ts does the same through real processes and signals, fewer times: a process
// start costs seconds.)
import { expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { LeaseLock } from '../../real/lease';
import { ProfileLeaseLock, readLease } from '../../real/lease';
import { Leadership } from '../../real/leadership';
import { connectForSuite, uniqueHpa, withIncus } from './real-helpers';

const ROUNDS = 200;
const TAKEOVER_MS = 2_000;
const hpa = uniqueHpa('lr');
const timings = { leaseDurationMs: 6_000, renewDeadlineMs: 4_000, retryPeriodMs: 100 };

/** The lease profile, with a way to run something at the moment one of its requests is in flight. */
class WatchedLock implements LeaseLock {
  private readonly lock: ProfileLeaseLock;
  inFlight = 0;
  private onRequest: (() => void) | undefined;
  constructor(client: IncusClient) {
    this.lock = new ProfileLeaseLock(client, hpa.name);
  }
  get profile() {
    return this.lock.profile;
  }
  /** Runs `f` once, when the next request has been sent. */
  atNextRequest(f: () => void): void {
    this.onRequest = f;
  }
  private async watched<T>(request: () => Promise<T>): Promise<T> {
    this.inFlight++;
    const pending = request();
    const hook = this.onRequest;
    this.onRequest = undefined;
    hook?.();
    try {
      return await pending;
    } finally {
      this.inFlight--;
    }
  }
  get: LeaseLock['get'] = (t) => this.watched(() => this.lock.get(t));
  create: LeaseLock['create'] = (r, t) => this.watched(() => this.lock.create(r, t));
  update: LeaseLock['update'] = (r, read, t) => this.watched(() => this.lock.update(r, read, t));
}

withIncus.describe("real HPA: a lease release racing the leader's own renewals (in process)", () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });

  it(`${ROUNDS} releases racing renewals every 100 ms: never left held, the standby leads within ${TAKEOVER_MS / 1000} s`, async () => {
    const log: string[] = [];
    const copy = (n: number) => {
      const lock = new WatchedLock(client);
      const leadership = new Leadership(client, hpa.name, (line) => log.push(`copy ${n}: ${line}`), { ...timings, lock });
      return { leadership, lock, leads: leadership.waitToLead() };
    };
    let leader = copy(0);
    expect(await leader.leads).toBe(true);
    leader.leadership.keepLeading(() => undefined);
    const takeovers: number[] = [];
    let racedInFlight = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const standby = copy(round);
      // A release exactly while a renewal's request is in flight, or at a random point of the period.
      await new Promise<void>((resolve) => {
        if (round % 2 === 0) leader.lock.atNextRequest(resolve);
        else setTimeout(resolve, Math.random() * timings.retryPeriodMs);
      });
      if (leader.lock.inFlight > 0) racedInFlight++;
      const released = Date.now();
      await leader.leadership.release();
      const after = await readLease(client, hpa.name);
      expect(after?.holder, `round ${round}: the lease still names the released leader\n${log.slice(-6).join('\n')}`).not.toBe(
        leader.leadership.elector.identity,
      );
      expect(await standby.leads).toBe(true);
      takeovers.push(Date.now() - released);
      standby.leadership.keepLeading(() => undefined);
      leader = standby;
    }
    await leader.leadership.release();
    takeovers.sort((a, b) => a - b);
    console.log(
      `[lease-release-race] ${ROUNDS} releases, ${racedInFlight} with a lease request of the leader in flight; ` +
        `standby led after median ${takeovers[ROUNDS >> 1]} ms, max ${takeovers[ROUNDS - 1]} ms`,
    );
    expect(log.filter((l) => /not released|lost the lease/.test(l))).toEqual([]);
    expect(takeovers[ROUNDS - 1]).toBeLessThan(TAKEOVER_MS);
    // The timed half did race: a request was in flight when the release began.
    expect(racedInFlight).toBeGreaterThanOrEqual(ROUNDS / 2);
  }, 300_000);
});
