// Restart safety: before the loop starts, adopt what this HPA owns. A previous run killed with
// kill -9 (or a leader that lost its lease) may have left an operation in flight (create, stop,
// delete run on in the daemon after the client dies), an owned pod Stopped (killed between stop and
// delete, or between create and start), or more pods than max (killed mid-scale while max was lowered).
import type { HpaConfig } from '../machines/incus-hpa';
import type { RealActorHooks } from './hpa-actors';
import { removeOwned } from './hpa-actors';
import { identityOf } from './identity';
import type { Operation } from './incus';
import { listOwned } from './owned-observe';

export interface Adoption {
  /** Owned pods found Running or Starting and kept. */
  adopted: string[];
  /** Owned pods removed: left stopped, or above max. */
  removed: string[];
  /** Dry run: what would have been removed. */
  wouldRemove: string[];
  /** Operations on owned instances we waited for. */
  waitedFor: number;
}

/** One bound for all the waits of an adoption (not one per operation). */
const ADOPT_WAIT_MS = 60_000;

const instanceNames = (op: Operation) =>
  (op.resources?.instances ?? []).map((path) => decodeURIComponent(path.split('?')[0]!.split('/').pop() ?? ''));

/**
 * Waits for operations still running on instances this HPA OWNS — never on someone else's (an
 * `exec` in an unowned `pod-x` is none of our business) — all in parallel, within one overall bound.
 */
async function waitForOwnedOperations(hooks: RealActorHooks, owned: ReadonlySet<string>, boundMs: number): Promise<number> {
  const ops = await hooks.client.get<{ running?: Operation[] }>('/1.0/operations', { query: { recursion: 1 }, signal: hooks.signal });
  const ours = (ops.running ?? []).filter((op) => op.class === 'task' && instanceNames(op).some((n) => owned.has(n)));
  const seconds = Math.max(1, Math.ceil(boundMs / 1000));
  await Promise.all(ours.map((op) => hooks.client.waitOperation(op, seconds, { signal: hooks.signal }).catch(() => undefined)));
  return ours.length;
}

export async function adoptOwned(hooks: RealActorHooks, config: HpaConfig, boundMs = ADOPT_WAIT_MS): Promise<Adoption> {
  const before = await listOwned(hooks.client, config.name, hooks.signal);
  const waitedFor = await waitForOwnedOperations(hooks, new Set(before.map((i) => i.name)), boundMs);
  const owned = waitedFor ? await listOwned(hooks.client, config.name, hooks.signal) : before;
  const statusOf = (i: (typeof owned)[number]) => i.state?.status ?? i.status;
  const active = owned
    .filter((i) => ['Running', 'Starting', 'Frozen'].includes(statusOf(i)))
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.name.localeCompare(b.name));
  const leftovers = owned.filter((i) => !active.includes(i));
  // Keep the oldest up to max; the newest are the likeliest to be a half-finished scale-up.
  const extra = active.slice(config.maxPods);
  const removed: string[] = [];
  if (!hooks.dryRun) {
    await Promise.all(
      [...leftovers, ...extra].map(async (inst) => {
        await removeOwned(hooks, config, inst.name, false, identityOf(inst) ?? undefined);
        removed.push(inst.name);
      }),
    );
  }
  return {
    adopted: active.slice(0, config.maxPods).map((i) => i.name),
    removed: removed.sort(),
    wouldRemove: hooks.dryRun ? [...leftovers, ...extra].map((i) => i.name) : [],
    waitedFor,
  };
}
