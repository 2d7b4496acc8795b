// Observe only what this HPA owns. GET /1.0/instances?recursion=2 renders the full state (LXC
// queries per running instance) of every instance and filters afterwards (cmd/incusd/instances_get.go
// instancesGet: RenderFull for all, then instance.FilterFull), so a filter there saves nothing. With
// recursion=1 the server renders only the config (cheap); the `api_filtering` extension's
// `config.<key> eq <value>` keeps our instances (exact match, checked on Incus 6.0.4: `eq we` does not
// match `web`); then the state of each owned instance that can have one is read in parallel.
// Unowned instances cost a config render, never a state query.
import { OWNER_KEY } from '../machines/incus-hpa';
import type { IncusClient, Instance, InstanceFull, InstanceState } from './incus';
import { IncusError, IncusNotFoundError } from './incus';

/** HPA names are [a-z0-9-] (sim/scenario/hpa-config.ts), so the value needs no quoting. */
export const ownerFilter = (hpa: string) => `${OWNER_KEY} eq ${hpa}`;

/** Statuses whose state (memory) matters to a policy; a Stopped instance's state is empty. */
const HAS_STATE = new Set(['Running', 'Starting', 'Frozen', 'Stopping', 'Freezing', 'Error']);

/**
 * Incus 6.0's filter fails the whole list (500 `Invalid type "invalid" for field "config.…"`,
 * internal/filter/match.go's default branch) when one instance could not be rendered at that moment
 * (its entry then has no config map: cmd/incusd/instances_get.go resultErrListAppend), e.g. one
 * being deleted by someone else. Then the same recursion=1 list unfiltered, filtered here: still no
 * state read for anything unowned.
 */
const isFilterRenderBug = (e: unknown) => e instanceof IncusError && e.status === 500 && /Invalid type "invalid" for field/.test(e.serverMessage);

async function listOwnedConfigs(client: IncusClient, hpa: string, signal?: AbortSignal): Promise<Instance[]> {
  const opts = signal ? { signal } : {};
  try {
    return await client.listInstances({ recursion: 1, filter: ownerFilter(hpa), ...opts });
  } catch (err) {
    if (!isFilterRenderBug(err)) throw err;
    return (await client.listInstances({ recursion: 1, ...opts })).filter((i) => i.config?.[OWNER_KEY] === hpa);
  }
}

export async function listOwned(client: IncusClient, hpa: string, signal?: AbortSignal): Promise<InstanceFull[]> {
  const owned = await listOwnedConfigs(client, hpa, signal);
  const full = await Promise.all(owned.map(async (inst: Instance): Promise<InstanceFull | null> => {
    if (!HAS_STATE.has(inst.status)) return { ...inst, state: null };
    try {
      const state: InstanceState = await client.getInstanceState(inst.name, signal ? { signal } : {});
      return { ...inst, state };
    } catch (err) {
      // Deleted between the list and the state read: it is gone for this observation.
      if (err instanceof IncusNotFoundError) return null;
      throw err;
    }
  }));
  return full.filter((i): i is InstanceFull => i !== null);
}
