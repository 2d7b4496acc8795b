// The rename holds the leader lease (lease.ts) of both HPA names while it re-keys pods: no loop of
// either name can act meanwhile (a copy started now stands by), and a loop that is running refuses
// the rename. "Running" is decided the client-go way, without comparing clocks across hosts: a held
// lease is watched for its own lease duration; a live leader renews it within that time (every retry
// period), a dead one does not. An unrenewed lease is then taken with If-Match on the very read that
// started the watch, so a renewal racing the takeover makes the takeover fail instead of winning.
// One holder is known dead without watching: a rename of this host whose process is gone (killed
// between taking a lease and releasing it). Its leases are taken at once, or released by a re-run
// that finds nothing left to re-key, so no loop waits a lease duration for a process that is gone.
import { hostname } from 'node:os';
import type { IncusClient } from './incus';
import type { LeaseRead, LeaseRecord } from './lease';
import { LeaderElector, ProfileLeaseLock, defaultIdentity } from './lease';
import { sleep } from './sleep';

/** A rename's holder identity: this prefix, then the lease's usual host_pid_random. */
const RENAME_HOLDER = 'loopscope-rename_';

/**
 * The process id in `holder` when it is a rename of this host (`loopscope-rename_<host>_<pid>_<hex>`,
 * defaultIdentity()'s form); undefined for a loop, another host or anything else.
 */
export function localRenamePid(holder: string, host = hostname()): number | undefined {
  if (!holder.startsWith(RENAME_HOLDER)) return undefined;
  const m = /^(.*)_(\d+)_[0-9a-f]+$/.exec(holder.slice(RENAME_HOLDER.length));
  if (!m || m[1] !== host) return undefined;
  const pid = Number(m[2]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a process with this id runs here (one of another user's counts: EPERM means it exists). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

/**
 * True when `holder` is a rename of this host that no longer runs. A live process with that id
 * (even another program reusing it) counts as alive: the lease is then watched as any other.
 */
export function isDeadLocalRename(holder: string): boolean {
  const pid = localRenamePid(holder);
  return pid !== undefined && pid !== process.pid && !processAlive(pid);
}

const deadRename = (holder: string) => `${holder}, a rename on this host that is no longer running`;

export type LeaseTake = { held: LeaderElector } | { refused: string };

export interface TakeOptions {
  say: (line: string) => void;
  /** How often the watched lease is read again (default 500 ms). */
  pollMs?: number;
  signal?: AbortSignal;
}

/** Takes `hpa`'s lease for the rename, or says why not (a live holder). */
export async function takeLeaseForRename(client: IncusClient, hpa: string, options: TakeOptions): Promise<LeaseTake> {
  const elector = new LeaderElector(client, hpa, { identity: `${RENAME_HOLDER}${defaultIdentity()}` });
  const { lock } = elector;
  for (let round = 0; round < 3; round++) {
    if (options.signal?.aborted) return { refused: `interrupted before taking the lease of ${hpa}` };
    const read = await lock.get();
    if (!read || read.record.holder === '') {
      // Free (or never taken): one attempt; a lost race is looked at again.
      if (await elector.tryAcquireOrRenew()) return held(elector, hpa);
      continue;
    }
    const was = read.record;
    if (isDeadLocalRename(was.holder)) {
      // Nothing can renew it: take it now, still with If-Match on this read.
      if (await lock.update(takenOver(elector, was), read)) {
        options.say(`lease ${hpa}: held by ${deadRename(was.holder)}: taken over`);
        return held(elector, hpa);
      }
      continue;
    }
    const watchMs = Math.max(1, was.leaseDurationSeconds) * 1000;
    options.say(
      `lease ${hpa}: held by ${was.holder} (renewed ${was.renewTime || 'never'}); watching it for ${watchMs / 1000} s: a running loop renews it, a stopped one does not`,
    );
    const deadline = Date.now() + watchMs;
    let now: Awaited<ReturnType<typeof lock.get>> = read;
    while (Date.now() < deadline && now?.etag === read.etag) {
      await sleep(Math.min(options.pollMs ?? 500, Math.max(0, deadline - Date.now())), options.signal);
      if (options.signal?.aborted) return { refused: `interrupted while watching the lease of ${hpa}` };
      now = await lock.get();
    }
    if (now && now.etag !== read.etag) {
      if (now.record.holder === '') continue; // released meanwhile: take it
      return { refused: liveHolder(hpa, now.record) };
    }
    if (!now) continue; // the profile was deleted: create it
    // Not renewed for a whole lease duration: its holder is gone. Take it only if still unchanged.
    if (await lock.update(takenOver(elector, was), read)) {
      options.say(`lease ${hpa}: not renewed by ${was.holder} for ${watchMs / 1000} s: taken over`);
      return held(elector, hpa);
    }
  }
  return {
    refused: `the lease of HPA ${hpa} (profile ${lock.profile}) kept changing while the rename tried to take it: a loop for ${hpa} is starting or running; stop it and run the rename again`,
  };
}

function takenOver(elector: LeaderElector, was: LeaseRecord): LeaseRecord {
  const iso = new Date().toISOString();
  return {
    holder: elector.identity,
    leaseDurationSeconds: Math.round(elector.leaseDurationMs / 1000),
    acquireTime: iso,
    renewTime: iso,
    transitions: was.transitions + 1,
  };
}

/**
 * Releases `hpa`'s lease when a rename of this host that is gone still holds it (client-go's
 * release: holder cleared, duration 1 s), with If-Match on the read that showed that holder.
 * Returns the line saying so, or undefined when the lease is free, live or another's.
 */
export async function releaseDeadRenameLease(client: IncusClient, hpa: string): Promise<string | undefined> {
  const lock = new ProfileLeaseLock(client, hpa);
  for (let round = 0; round < 3; round++) {
    const read: LeaseRead | null = await lock.get();
    if (!read || !isDeadLocalRename(read.record.holder)) return undefined;
    if (await lock.update({ ...read.record, holder: '', leaseDurationSeconds: 1 }, read)) {
      return `lease ${hpa}: held by ${deadRename(read.record.holder)}: released`;
    }
    // Changed since the read (a loop took it, or another re-run released it): look again.
  }
  return undefined;
}

function liveHolder(hpa: string, record: LeaseRecord): string {
  return (
    `a loop for HPA ${hpa} is running: ${record.holder} renewed its lease at ${record.renewTime}. ` +
    `Stop it first (SIGTERM releases the lease; \`loopscope real status\` shows the holder), then run the rename again`
  );
}

/** Marks the elector leading: its record is ours, so acquire's first attempt (a renewal) succeeds. */
async function held(elector: LeaderElector, hpa: string): Promise<LeaseTake> {
  const give = new AbortController();
  const timer = setTimeout(() => give.abort(), elector.retryPeriodMs * 3);
  try {
    if (await elector.acquire(give.signal)) return { held: elector };
  } finally {
    clearTimeout(timer);
  }
  return {
    refused: `took the lease of HPA ${hpa} but could not renew it (a loop for ${hpa} took it at the same moment?): run the rename again`,
  };
}

/** What `--dry-run` says of a lease: its holder and the last renewal (no waiting). */
export async function describeLease(client: IncusClient, hpa: string): Promise<string> {
  const read = await new LeaderElector(client, hpa).lock.get();
  if (!read) return `lease ${hpa}: none (no loop has run under this name)`;
  const r = read.record;
  if (!r.holder) return `lease ${hpa}: free (released)`;
  if (isDeadLocalRename(r.holder)) return `lease ${hpa}: held by ${deadRename(r.holder)} (the rename would take it at once)`;
  return `lease ${hpa}: held by ${r.holder}, renewed ${r.renewTime} (the rename would watch it for ${Math.max(1, r.leaseDurationSeconds)} s and refuse if it is renewed)`;
}
