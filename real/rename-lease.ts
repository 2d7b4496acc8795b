// The rename holds the leader lease (lease.ts) of both HPA names while it re-keys pods: no loop of
// either name can act meanwhile (a copy started now stands by), and a loop that is running refuses
// the rename. "Running" is decided the client-go way, without comparing clocks across hosts: a held
// lease is watched for its own lease duration; a live leader renews it within that time (every retry
// period), a dead one does not. An unrenewed lease is then taken with If-Match on the very read that
// started the watch, so a renewal racing the takeover makes the takeover fail instead of winning.
import type { IncusClient } from './incus';
import type { LeaseRecord } from './lease';
import { LeaderElector, defaultIdentity } from './lease';
import { sleep } from './sleep';

export type LeaseTake = { held: LeaderElector } | { refused: string };

export interface TakeOptions {
  say: (line: string) => void;
  /** How often the watched lease is read again (default 500 ms). */
  pollMs?: number;
  signal?: AbortSignal;
}

/** Takes `hpa`'s lease for the rename, or says why not (a live holder). */
export async function takeLeaseForRename(client: IncusClient, hpa: string, options: TakeOptions): Promise<LeaseTake> {
  const elector = new LeaderElector(client, hpa, { identity: `loopscope-rename_${defaultIdentity()}` });
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
    const watchMs = Math.max(1, was.leaseDurationSeconds) * 1000;
    options.say(`lease ${hpa}: held by ${was.holder} (renewed ${was.renewTime || 'never'}); watching it for ${watchMs / 1000} s: a running loop renews it, a stopped one does not`);
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
    const iso = new Date().toISOString();
    const mine: LeaseRecord = { holder: elector.identity, leaseDurationSeconds: Math.round(elector.leaseDurationMs / 1000), acquireTime: iso, renewTime: iso, transitions: was.transitions + 1 };
    if (await lock.update(mine, read)) {
      options.say(`lease ${hpa}: not renewed by ${was.holder} for ${watchMs / 1000} s: taken over`);
      return held(elector, hpa);
    }
  }
  return { refused: `the lease of HPA ${hpa} (profile ${lock.profile}) kept changing while the rename tried to take it: a loop for ${hpa} is starting or running; stop it and run the rename again` };
}

function liveHolder(hpa: string, record: LeaseRecord): string {
  return `a loop for HPA ${hpa} is running: ${record.holder} renewed its lease at ${record.renewTime}. `
    + `Stop it first (SIGTERM releases the lease; \`loopscope real status\` shows the holder), then run the rename again`;
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
  return { refused: `took the lease of HPA ${hpa} but could not renew it (a loop for ${hpa} took it at the same moment?): run the rename again` };
}

/** What `--dry-run` says of a lease: its holder and the last renewal (no waiting). */
export async function describeLease(client: IncusClient, hpa: string): Promise<string> {
  const read = await new LeaderElector(client, hpa).lock.get();
  if (!read) return `lease ${hpa}: none (no loop has run under this name)`;
  const r = read.record;
  if (!r.holder) return `lease ${hpa}: free (released)`;
  return `lease ${hpa}: held by ${r.holder}, renewed ${r.renewTime} (the rename would watch it for ${Math.max(1, r.leaseDurationSeconds)} s and refuse if it is renewed)`;
}
