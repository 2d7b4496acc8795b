// Releasing the leader lease (real/lease.ts) while one of the elector's own attempts is still in
// flight, on an in-memory lock whose answers the test holds back or lets land late, the way a
// loaded daemon orders concurrent requests. client-go releases only once its renew loop returned;
// a release that raced its own renewal left the lease held, and the next copy waited a whole lease.
import { describe, expect, it } from 'vitest';
import { IncusClient } from '../../real/incus';
import type { LeaseLock, LeaseRead, LeaseRecord } from '../../real/lease';
import { LeaderElector } from '../../real/lease';

/** A lease with If-Match semantics: the ETag is a version bumped by every write. */
class MemoryLock implements LeaseLock {
  readonly profile = 'loopscope-lease-unit';
  record: LeaseRecord | null = null;
  private version = 0;
  /** The next read's answer waits for this (it then shows whatever landed meanwhile). */
  holdNextRead: (() => Promise<void>) | undefined;
  /** The next update times out at the client but stays queued at the "daemon": `late` applies it. */
  timeOutNextUpdate = false;
  late: (() => boolean) | undefined;
  /** Runs just before the next update is applied. */
  beforeNextUpdate: (() => void) | undefined;
  readonly writes: string[] = [];

  async get(): Promise<LeaseRead | null> {
    const hold = this.holdNextRead;
    this.holdNextRead = undefined;
    if (hold) await hold();
    return this.record ? { record: { ...this.record }, etag: String(this.version), devices: {}, description: '' } : null;
  }

  async create(record: LeaseRecord): Promise<boolean> {
    if (this.record) return false;
    return this.apply(record, undefined);
  }

  async update(record: LeaseRecord, read: LeaseRead): Promise<LeaseRecord | null> {
    if (this.timeOutNextUpdate) {
      this.timeOutNextUpdate = false;
      this.late = () => this.apply(record, read.etag);
      throw new Error('PUT /1.0/profiles/loopscope-lease-unit timed out');
    }
    const before = this.beforeNextUpdate;
    this.beforeNextUpdate = undefined;
    before?.();
    return this.apply(record, read.etag) ? record : null;
  }

  private apply(record: LeaseRecord, etag: string | undefined): boolean {
    if (etag !== undefined && etag !== String(this.version)) return false; // 412
    this.record = { ...record };
    this.version++;
    this.writes.push(record.holder || '(released)');
    return true;
  }
}

// Never connects: every request goes to the lock given in the options.
const unusedClient = new IncusClient({ socketPath: '/nonexistent/incus-unit.socket' });
const timings = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 100 };

function elector(lock: MemoryLock): LeaderElector {
  return new LeaderElector(unusedClient, 'unit', { ...timings, identity: 'me', lock });
}

/** A read held back until `answer()` is called. */
function holdRead(lock: MemoryLock): { answer: () => void } {
  let answer: (() => void) | undefined;
  lock.holdNextRead = () =>
    new Promise<void>((resolve) => {
      answer = resolve;
    });
  return {
    answer: () => {
      if (!answer) throw new Error('the held read was never sent');
      answer();
    },
  };
}

/**
 * Lets every request of the in-memory lock that is not held back finish: they resolve through
 * promise callbacks only, all run before a setImmediate callback (no timer, no guessed delay).
 */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('leader lease: release while an attempt of this holder is in flight', () => {
  it('a renewal whose read is answered after the release landed does not take the lease again', async () => {
    const lock = new MemoryLock();
    const e = elector(lock);
    expect(await e.acquire()).toBe(true);
    const read = holdRead(lock);
    const renewal = e.tryAcquireOrRenew(); // sent; the daemon answers it late
    const released = e.release();
    await settle(); // a release that does not wait for the renewal has written by now
    read.answer();
    expect(await released).toBe(true);
    expect(await renewal).toBe(false);
    expect(lock.record?.holder).toBe('');
    expect(lock.writes).toEqual(['me', '(released)']);
  });

  it("a renewal that timed out at the client but lands between the release's read and write: the release reads again and retries", async () => {
    const lock = new MemoryLock();
    const e = elector(lock);
    expect(await e.acquire()).toBe(true);
    lock.timeOutNextUpdate = true;
    await expect(e.tryAcquireOrRenew()).rejects.toThrow(/timed out/);
    lock.beforeNextUpdate = () => {
      expect(lock.late?.()).toBe(true);
    }; // lands just before the release's If-Match write
    expect(await e.release()).toBe(true);
    expect(lock.record?.holder).toBe('');
    expect(lock.writes).toEqual(['me', 'me', '(released)']);
  });

  it('a standby released while its acquire attempt is in flight gives back what that attempt took', async () => {
    const lock = new MemoryLock();
    const e = elector(lock);
    const read = holdRead(lock);
    const acquiring = e.acquire();
    const released = e.release();
    await settle();
    read.answer();
    expect(await released).toBe(true);
    expect(await acquiring).toBe(false);
    expect(lock.record?.holder ?? '').toBe('');
    expect(e.holdsLease()).toBe(false);
  });

  it('a lease now held by another copy is left alone', async () => {
    const lock = new MemoryLock();
    const e = elector(lock);
    expect(await e.acquire()).toBe(true);
    const record = lock.record;
    if (!record) throw new Error('no lease after acquire');
    lock.record = { ...record, holder: 'other' }; // taken over after this copy stopped renewing
    expect(await e.release()).toBe(true);
    expect(lock.record.holder).toBe('other');
  });

  it('a copy that never wrote the lease releases without a request', async () => {
    const lock = new MemoryLock();
    lock.holdNextRead = () => Promise.reject(new Error('release read the lock'));
    expect(await elector(lock).release()).toBe(true);
    expect(lock.holdNextRead).toBeDefined(); // never consumed: the release read nothing
    lock.holdNextRead = undefined;
    // A standby that only ever saw another copy's live lease.
    const standby = elector(lock);
    lock.record = { holder: 'other', leaseDurationSeconds: 3, acquireTime: '', renewTime: '', transitions: 0 };
    expect(await standby.tryAcquireOrRenew()).toBe(false);
    lock.holdNextRead = () => Promise.reject(new Error('release read the lock'));
    expect(await standby.release()).toBe(true);
    expect(lock.writes).toEqual([]);
  });
});
