// One leader per HPA name: a lease kept in the Incus server itself, with client-go's leader-election
// semantics (k8s.io/client-go tools/leaderelection/leaderelection.go: acquire, renew,
// tryAcquireOrRenew, release). The lock is a profile per HPA, `loopscope-lease-<name>`, whose
// `user.*` config keys hold the record (the fields of coordination.k8s.io Lease's spec). Profiles
// are what a client restricted to its project may still write, and profile PUT honours If-Match:
// Incus answers 412 "ETag doesn't match" when the profile changed since our read (checked on
// Incus 6.0.4; cmd/incusd/profiles.go profilePut calls util.EtagCheck) — but checks it outside the
// transaction that writes, so two PUTs that meet can both pass: a change of holder also claims its
// term by creating a profile, which is atomic (lease-claims.ts), so two copies racing for the lease
// cannot both win.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { IncusClient } from './incus';
import { IncusError, IncusNotFoundError } from './incus';
import { isAlreadyExists, LeaseClaims } from './lease-claims';
import { sleep } from './sleep';

/** client-go's defaults (leaderelection.go, LeaderElectionConfig docs; kube-controller-manager). */
const LEASE_DURATION_MS = 15_000;
const RENEW_DEADLINE_MS = 10_000;
const RETRY_PERIOD_MS = 2_000;
/** wait.JitterUntil's factor for the standby's retries (leaderelection.go JitterFactor). */
const JITTER_FACTOR = 1.2;
/** A release's requests may take this long even with a short retry period (a loaded daemon at exit). */
const RELEASE_REQUEST_MIN_MS = 2_000;

const KEY = 'user.loopscope.lease.';

export interface LeaseRecord {
  holder: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  transitions: number;
}

export const leaseProfileName = (hpa: string) => `loopscope-lease-${hpa}`;

function toConfig(r: LeaseRecord): Record<string, string> {
  return {
    [`${KEY}holder`]: r.holder,
    [`${KEY}duration-seconds`]: String(r.leaseDurationSeconds),
    [`${KEY}acquire-time`]: r.acquireTime,
    [`${KEY}renew-time`]: r.renewTime,
    [`${KEY}transitions`]: String(r.transitions),
  };
}

function fromConfig(config: Record<string, string> | undefined): LeaseRecord {
  const c = config ?? {};
  return {
    holder: c[`${KEY}holder`] ?? '',
    leaseDurationSeconds: Number(c[`${KEY}duration-seconds`] ?? 0) || 0,
    acquireTime: c[`${KEY}acquire-time`] ?? '',
    renewTime: c[`${KEY}renew-time`] ?? '',
    transitions: Number(c[`${KEY}transitions`] ?? 0) || 0,
  };
}

interface Profile {
  name: string;
  description: string;
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
}

/** A read of the lock: the record, and what an update of it must send back (the ETag for If-Match). */
export interface LeaseRead {
  record: LeaseRecord;
  etag: string | undefined;
  devices: Profile['devices'];
  description: string;
}

/** What the elector needs of a lock (client-go's resourcelock.Interface): ProfileLeaseLock, or a test's. */
export interface LeaseLock {
  readonly profile: string;
  /** The record and the ETag it was read with; null when there is no lease yet. */
  get(timeoutMs?: number): Promise<LeaseRead | null>;
  /** Creates the lease holding `record`; false when another copy created it first. */
  create(record: LeaseRecord, timeoutMs?: number): Promise<boolean>;
  /**
   * Writes `record` only if the lease is still as `read` saw it and nobody else is taking it over;
   * the record written (a takeover's term may be past `record.transitions`), or null when it changed.
   */
  update(record: LeaseRecord, read: LeaseRead, timeoutMs?: number): Promise<LeaseRecord | null>;
}

/** The lock: get / create / update-if-unchanged of the lease profile (client-go's resourcelock.Interface). */
export class ProfileLeaseLock implements LeaseLock {
  readonly profile: string;
  private readonly claims: LeaseClaims;
  constructor(
    private readonly client: IncusClient,
    readonly hpa: string,
    claimTimes: { staleAfterMs: number; now: () => number } = { staleAfterMs: LEASE_DURATION_MS, now: () => performance.now() },
  ) {
    this.profile = leaseProfileName(hpa);
    this.claims = new LeaseClaims(client, this.profile, claimTimes);
  }

  private get path() {
    return `/1.0/profiles/${encodeURIComponent(this.profile)}`;
  }

  /** The record and the ETag it was read with; null when there is no lease profile yet. */
  async get(timeoutMs?: number): Promise<LeaseRead | null> {
    try {
      // The ETag header is the hash PUT compares an If-Match against (Incus util.EtagHash).
      const { envelope, headers } = await this.client.request<Profile>('GET', this.path, timeoutMs ? { timeoutMs } : {});
      const value = envelope.metadata;
      const etag = typeof headers.etag === 'string' ? headers.etag : undefined;
      return { record: fromConfig(value.config), etag, devices: value.devices ?? {}, description: value.description ?? '' };
    } catch (err) {
      if (err instanceof IncusNotFoundError) return null;
      throw err;
    }
  }

  /** Creates the profile holding `record`; false when another copy created it first. */
  async create(record: LeaseRecord, timeoutMs?: number): Promise<boolean> {
    try {
      await this.client.request('POST', '/1.0/profiles', {
        body: {
          name: this.profile,
          description: `loopscope leader lease of HPA ${this.hpa} (do not attach)`,
          config: toConfig(record),
          devices: {},
        },
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      return true;
    } catch (err) {
      if (isAlreadyExists(err)) return false;
      throw err;
    }
  }

  /**
   * A renewal (same holder) writes only while no term above the lease's is claimed, and counts only
   * if none was claimed by the time it landed: a takeover that met it either sees the renewal and
   * gives up, or is seen by it. A takeover (new holder) claims its term first, checks the lease is
   * still as read, writes, and reads back. A release (no holder) just writes, and drops its claim.
   */
  async update(record: LeaseRecord, read: LeaseRead, timeoutMs?: number): Promise<LeaseRecord | null> {
    const term = read.record.transitions;
    const above = (terms: number[]) => terms.filter((k) => k > term);
    if (record.holder === '') {
      if (!(await this.put(record, read, timeoutMs))) return null;
      if (term > 0) await this.claims.remove([term], timeoutMs);
      return record;
    }
    if (record.holder === read.record.holder) {
      if (above(await this.claims.terms(timeoutMs)).length > 0) return null;
      if (!(await this.put(record, read, timeoutMs))) return null;
      return above(await this.claims.terms(timeoutMs)).length > 0 ? null : record;
    }
    // Claims below the one taken were there before it (a takeover claims past the highest): the
    // listing read here is the one the winner cleans up with.
    const claimed = await this.claims.terms(timeoutMs);
    const next = this.claims.nextTerm(term, above(claimed));
    if (next === undefined || !(await this.claims.claim(next, record.holder, timeoutMs))) return null;
    const now = await this.get(timeoutMs);
    const mine: LeaseRecord = { ...record, transitions: next };
    if (!now || now.etag !== read.etag || !(await this.put(mine, now, timeoutMs))) {
      await this.claims.remove([next], timeoutMs);
      return null;
    }
    // A write of the old holder's that met ours may have landed last; our claim stays, so it writes no
    // more, and once it is stale a standby claims past it.
    if ((await this.get(timeoutMs))?.record.holder !== record.holder) return null;
    await this.claims.remove(
      claimed.filter((k) => k < next),
      timeoutMs,
    );
    return mine;
  }

  /** PUT with If-Match: false when the lease changed since it was read (HTTP 412). */
  private async put(record: LeaseRecord, read: LeaseRead, timeoutMs?: number): Promise<boolean> {
    if (!read.etag) throw new IncusError(`GET ${this.path} sent no ETag: cannot update the lease safely`);
    try {
      await this.client.request('PUT', this.path, {
        body: { description: read.description, config: toConfig(record), devices: read.devices },
        headers: { 'if-match': read.etag },
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      return true;
    } catch (err) {
      if (err instanceof IncusError && err.status === 412) return false;
      throw err;
    }
  }
}

export interface ElectorOptions {
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Each time the observed holder changes (client-go OnNewLeader). */
  onNewLeader?: (holder: string) => void;
  /** A failed attempt (the daemon unreachable, a lost race), for the log. */
  onAttemptFailed?: (why: string) => void;
  now?: () => number;
  /** The lock (default: the HPA's lease profile); tests give one whose requests they control. */
  lock?: LeaseLock;
}

export const defaultIdentity = () => `${hostname()}_${process.pid}_${randomBytes(3).toString('hex')}`;

export class LeaderElector {
  readonly identity: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly lock: LeaseLock;
  private observed: LeaseRecord | null = null;
  /** Local monotonic-ish time when `observed` last changed (client-go observedTime): no clock skew. */
  private observedAt = 0;
  private reportedLeader: string | undefined;
  /** Local time of our last successful acquire/renew write. */
  private renewedAt = -Infinity;
  private leading = false;
  /** Set when release() begins: no attempt writes the lease after that (one that read it released would take it again). */
  private releasing = false;
  /** An attempt was made that may have written the lease: release() has something to give back. */
  private mayHold = false;
  /** The attempt whose requests are in flight: release() waits for it, as client-go releases after renew() returned. */
  private inFlight: Promise<boolean> | undefined;
  private readonly now: () => number;

  constructor(
    client: IncusClient,
    hpa: string,
    private readonly options: ElectorOptions = {},
  ) {
    this.identity = options.identity ?? defaultIdentity();
    this.leaseDurationMs = options.leaseDurationMs ?? LEASE_DURATION_MS;
    this.renewDeadlineMs = options.renewDeadlineMs ?? RENEW_DEADLINE_MS;
    this.retryPeriodMs = options.retryPeriodMs ?? RETRY_PERIOD_MS;
    if (!(this.leaseDurationMs > this.renewDeadlineMs && this.renewDeadlineMs > this.retryPeriodMs * JITTER_FACTOR)) {
      // The same checks as NewLeaderElector: otherwise a leader could still act after a standby took over.
      throw new Error('leader election: need leaseDuration > renewDeadline > 1.2 × retryPeriod');
    }
    this.now = options.now ?? (() => performance.now());
    this.lock = options.lock ?? new ProfileLeaseLock(client, hpa, { staleAfterMs: this.leaseDurationMs, now: this.now });
  }

  /** The last observed holder ('' when released or never seen). */
  get holder(): string {
    return this.observed?.holder ?? '';
  }

  /**
   * True while acting is safe: we hold the lease and renewed it less than renewDeadline ago.
   * A standby waits a whole leaseDuration after it last saw the record change, so a leader that
   * cannot renew stops acting (renewDeadline) before anyone else may start (leaseDuration).
   */
  holdsLease(): boolean {
    return this.leading && this.now() - this.renewedAt < this.renewDeadlineMs;
  }

  /** client-go tryAcquireOrRenew: one attempt, true when we hold the lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    if (this.releasing) return false;
    const attempt = this.tryOnce();
    this.inFlight = attempt;
    try {
      return await attempt;
    } finally {
      if (this.inFlight === attempt) this.inFlight = undefined;
    }
  }

  private async tryOnce(): Promise<boolean> {
    // Each request may take up to the renew deadline (client-go bounds the renew attempt by it); a
    // retry-period bound made a loaded daemon cost a short-lease leader its lease.
    const timeoutMs = this.renewDeadlineMs;
    const start = this.now();
    const iso = new Date().toISOString();
    const mine: LeaseRecord = {
      holder: this.identity,
      leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
      acquireTime: iso,
      renewTime: iso,
      transitions: 0,
    };
    const current = await this.lock.get(timeoutMs);
    // Checked again after the read and before any write: a release that began meanwhile may have
    // landed already, and this read may be of the released lease, free for anyone to take.
    if (this.releasing) return false;
    if (!current) {
      this.mayHold = true;
      if (!(await this.lock.create(mine, timeoutMs))) return false;
      this.observe(mine, start);
      this.renewedAt = start;
      return true;
    }
    const old = current.record;
    if (!this.observed || JSON.stringify(this.observed) !== JSON.stringify(old)) this.observe(old, this.now());
    const iAmHolder = old.holder === this.identity;
    if (old.holder !== '' && !iAmHolder && this.observedAt + this.leaseDurationMs > this.now()) return false;
    const next: LeaseRecord = iAmHolder
      ? { ...mine, acquireTime: old.acquireTime, transitions: old.transitions }
      : { ...mine, transitions: old.transitions + 1 };
    this.mayHold = true;
    const written = await this.lock.update(next, current, timeoutMs);
    if (!written) return false;
    this.observe(written, start);
    // Counted from before the read: the standby's clock started no earlier than our write.
    this.renewedAt = start;
    return true;
  }

  private observe(record: LeaseRecord, at: number): void {
    this.observed = record;
    this.observedAt = at;
    if (record.holder !== this.reportedLeader) {
      this.reportedLeader = record.holder;
      this.options.onNewLeader?.(record.holder);
    }
  }

  private async attempt(): Promise<boolean> {
    try {
      return await this.tryAcquireOrRenew();
    } catch (err) {
      this.options.onAttemptFailed?.(err instanceof Error ? err.message : String(err));
      return false;
    }
  }

  /** client-go acquire: retries every retryPeriod (jittered) until we hold the lease or `signal` aborts. */
  async acquire(signal?: AbortSignal): Promise<boolean> {
    while (!signal?.aborted && !this.releasing) {
      if (await this.attempt()) {
        // Released while this attempt was in flight (a signal while standing by): release() gives it back.
        if (this.releasing) return false;
        this.leading = true;
        return true;
      }
      await sleep(this.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR), signal);
    }
    return false;
  }

  /** Who has the lease if not us, by the last record read: another holder, or nobody (released by another copy). */
  private otherHolder(): string | undefined {
    const holder = this.observed?.holder;
    if (holder === undefined || holder === this.identity) return undefined;
    return holder || 'nobody (released by another copy)';
  }

  /**
   * client-go renew: every retryPeriod; a renewal must succeed within renewDeadline. Past it the
   * loop stops acting at once (holdsLease is false), as client-go's leader does. Unlike client-go,
   * whose lease lives in the API server it also acts on, ours lives in the very daemon whose outage
   * made the renewal fail — so a lease that cannot be read is not a lease someone else took. It
   * keeps trying; `onSuspended` says so, and `onResumed` when a renewal lands again: the record
   * read still names this holder (nobody else writes our identity) and the write goes through
   * If-Match, so a standby that took over meanwhile makes it fail instead. Only a lease held or
   * released by someone else ends leadership: `onLost` runs once and the loop ends. Resolves when
   * it ends (lost or aborted).
   */
  async renewUntilLost(
    onLost: (why: string) => void,
    signal?: AbortSignal,
    suspension?: { onSuspended(why: string): void; onResumed(): void },
  ): Promise<void> {
    while (!signal?.aborted) {
      await sleep(this.retryPeriodMs, signal);
      if (signal?.aborted) return;
      const deadline = this.renewedAt + this.renewDeadlineMs;
      let renewed = false;
      while (!signal?.aborted && this.now() < deadline) {
        if (await this.attempt()) {
          renewed = this.observed?.holder === this.identity;
          break;
        }
        if (this.otherHolder() !== undefined) break;
        await sleep(Math.min(this.retryPeriodMs, Math.max(0, deadline - this.now())), signal);
      }
      if (signal?.aborted) return;
      if (renewed) continue;
      this.leading = false;
      const other = this.otherHolder();
      if (other !== undefined || !suspension) {
        onLost(
          other !== undefined ? `the lease is now held by ${other}` : `could not renew the lease within ${this.renewDeadlineMs / 1000} s`,
        );
        return;
      }
      suspension.onSuspended(`could not renew the lease within ${this.renewDeadlineMs / 1000} s`);
      for (;;) {
        await sleep(this.retryPeriodMs, signal);
        if (signal?.aborted) return;
        const held = await this.attempt();
        if (held && this.observed?.holder === this.identity) {
          this.leading = true;
          suspension.onResumed();
          break;
        }
        const taken = this.otherHolder();
        if (taken !== undefined) {
          onLost(`the lease is now held by ${taken}`);
          return;
        }
      }
    }
  }

  /**
   * client-go release (ReleaseOnCancel): holder cleared, duration 1 s, so a standby takes over at once.
   * client-go releases only once renew() has returned, so no renewal of its own lands after the
   * release (leaderelection.go: renew ends `if le.config.ReleaseOnCancel { le.release() }`). The same
   * here: from now on no attempt writes, the one in flight is waited for, and the release is written
   * with If-Match on a read that shows this holder. A 412 means the lease changed after that read —
   * a write of ours still landing — so it is read again and retried while the holder is still us.
   * The caller stops renewing first (aborts renewUntilLost's signal): release() does not wait for
   * the loop, only for the attempt in flight, so it cannot hang on a loop that was not stopped.
   */
  async release(): Promise<boolean> {
    this.releasing = true;
    this.leading = false;
    await this.inFlight?.catch(() => false);
    if (!this.mayHold) return true;
    const timeoutMs = Math.max(this.retryPeriodMs, RELEASE_REQUEST_MIN_MS);
    const deadline = this.now() + this.renewDeadlineMs;
    try {
      for (;;) {
        const current = await this.lock.get(timeoutMs);
        if (!current || current.record.holder !== this.identity) return true;
        const released: LeaseRecord = { ...current.record, holder: '', leaseDurationSeconds: 1 };
        const written = await this.lock.update(released, current, timeoutMs);
        if (written) {
          this.observe(written, this.now());
          return true;
        }
        if (this.now() >= deadline) {
          this.options.onAttemptFailed?.('release: the lease kept changing until the renew deadline');
          return false;
        }
      }
    } catch (err) {
      this.options.onAttemptFailed?.(`release: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }
}

/** What `loopscope real status` shows of the lease. */
export async function readLease(client: IncusClient, hpa: string): Promise<LeaseRecord | null> {
  return (await new ProfileLeaseLock(client, hpa).get())?.record ?? null;
}

/** Removes the HPA's lease profile and any claims left beside it (tests, benchmarks, a retired HPA). */
export async function deleteLeaseProfiles(client: IncusClient, hpa: string): Promise<void> {
  const claims = new LeaseClaims(client, leaseProfileName(hpa), { staleAfterMs: 0, now: () => 0 });
  await claims.remove(await claims.terms().catch(() => []));
  await client.request('DELETE', `/1.0/profiles/${encodeURIComponent(leaseProfileName(hpa))}`).catch(() => undefined);
}
