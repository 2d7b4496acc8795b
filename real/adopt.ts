// Restart safety: before the loop starts, adopt what this HPA owns. A previous run killed with
// kill -9 may have left an operation in flight (create, stop, delete run on in the daemon after
// the client dies), an owned pod Stopped (killed between stop and delete, or between create and
// start), or more pods than max (killed mid-scale while max was lowered).
import type { HpaConfig } from '../machines/incus-hpa';
import type { RealActorHooks } from './hpa-actors';
import { ownerOf, removeOwned } from './hpa-actors';
import type { Operation } from './incus';

export interface Adoption {
  /** Owned pods found Running or Starting and kept. */
  adopted: string[];
  /** Owned pods removed: left stopped, or above max. */
  removed: string[];
  /** Dry run: what would have been removed. */
  wouldRemove: string[];
  /** Operations of the previous run we waited for. */
  waitedFor: number;
}

/** Waits (bounded) for operations still running on instances whose name has our prefix. */
async function waitForLeftoverOperations(hooks: RealActorHooks, prefix: string): Promise<number> {
  const ops = await hooks.client.get<{ running?: Operation[] }>('/1.0/operations', { query: { recursion: 1 }, signal: hooks.signal });
  const ours = (ops.running ?? []).filter((op) => op.class === 'task'
    && (op.resources?.instances ?? []).some((path) => decodeURIComponent(path.split('/').pop() ?? '').startsWith(prefix)));
  for (const op of ours) await hooks.client.waitOperation(op, 60, { signal: hooks.signal }).catch(() => undefined);
  return ours.length;
}

export async function adoptOwned(hooks: RealActorHooks, config: HpaConfig): Promise<Adoption> {
  const waitedFor = await waitForLeftoverOperations(hooks, config.namePrefix);
  const owned = (await hooks.client.listInstances({ recursion: 1, signal: hooks.signal })).filter((i) => ownerOf(i) === config.name);
  const active = owned.filter((i) => i.status === 'Running' || i.status === 'Starting' || i.status === 'Frozen')
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.name.localeCompare(b.name));
  const leftovers = owned.filter((i) => !active.includes(i)).map((i) => i.name);
  // Keep the oldest up to max; the newest are the likeliest to be a half-finished scale-up.
  const extra = active.slice(config.maxPods).map((i) => i.name);
  const removed: string[] = [];
  if (!hooks.dryRun) {
    for (const name of [...leftovers, ...extra]) {
      await removeOwned(hooks, config, name, false);
      removed.push(name);
    }
  }
  return { adopted: active.slice(0, config.maxPods).map((i) => i.name), removed,
    wouldRemove: hooks.dryRun ? [...leftovers, ...extra] : [], waitedFor };
}
