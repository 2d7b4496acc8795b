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

/**
 * HPA names are [a-z0-9-] (sim/scenario/hpa-config.ts), so the value needs no quoting. `status eq
 * Error` also brings the entries a cluster could not read (see MemberUnreachableError): they carry no config,
 * so the owner test alone would drop them silently. Unowned Error instances are dropped here.
 */
const ownerFilter = (hpa: string) => `${OWNER_KEY} eq ${hpa} or status eq Error`;

/**
 * An instance on a cluster member that did not answer: Incus 6.0 lists it from its database as a stub
 * — status Error, `config: null`, `location` the member (checked on Incus 6.0.4: member's incusd
 * stopped or killed, at once when refused, after ~30 s when hung) — so whether it is ours is unknown.
 * Deciding on the rest would count our pods there as gone and create replacements (above max once
 * the member is back): the observation fails instead, and the loop backs off until it is readable.
 */
class MemberUnreachableError extends IncusError {
  override name = 'MemberUnreachableError';
  constructor(
    readonly instance: string,
    readonly member: string,
  ) {
    super(
      `cannot observe: instance ${instance} on cluster member ${member} could not be read (listed with status Error and no config: ` +
        `the member is unreachable, or the instance changed mid-list), so whether it is owned is unknown; not deciding on a partial view`,
      { status: 503, errorCode: 503, serverMessage: `cluster member ${member} unreadable`, method: 'GET', path: '/1.0/instances' },
    );
  }
}

/** A standalone server lists its instances at location "none" (or ""): a stub there is one being deleted. */
const inCluster = (location: string | undefined) => !!location && location !== 'none';

/** Owned entries of a recursion=1 list; throws MemberUnreachableError on a cluster stub. */
function ownedOf(list: Instance[], hpa: string): Instance[] {
  const stub = list.find((i) => !i.config && inCluster(i.location));
  if (stub) throw new MemberUnreachableError(stub.name, stub.location);
  return list.filter((i) => i.config?.[OWNER_KEY] === hpa);
}

/** Statuses whose state (memory) matters to a policy; a Stopped instance's state is empty. */
const HAS_STATE = new Set(['Running', 'Starting', 'Frozen', 'Stopping', 'Freezing', 'Error']);

/**
 * Incus 6.0's filter fails the whole list (500 `Invalid type "invalid" for field "config.…"`,
 * internal/filter/match.go's default branch) when one instance could not be rendered at that moment
 * (its entry then has no config map: cmd/incusd/instances_get.go resultErrListAppend), e.g. one
 * being deleted by someone else. Then the same recursion=1 list unfiltered, filtered here: still no
 * state read for anything unowned.
 */
const isFilterRenderBug = (e: unknown) =>
  e instanceof IncusError && e.status === 500 && /Invalid type "invalid" for field/.test(e.serverMessage);

async function listOwnedConfigs(client: IncusClient, hpa: string, signal?: AbortSignal): Promise<Instance[]> {
  const opts = signal ? { signal } : {};
  let list: Instance[];
  try {
    list = await client.listInstances({ recursion: 1, filter: ownerFilter(hpa), ...opts });
  } catch (err) {
    if (!isFilterRenderBug(err)) throw err;
    list = await client.listInstances({ recursion: 1, ...opts });
  }
  return ownedOf(list, hpa);
}

export async function listOwned(client: IncusClient, hpa: string, signal?: AbortSignal): Promise<InstanceFull[]> {
  const owned = await listOwnedConfigs(client, hpa, signal);
  const full = await Promise.all(
    owned.map(async (inst: Instance): Promise<InstanceFull | null> => {
      if (!HAS_STATE.has(inst.status)) return { ...inst, state: null };
      try {
        const state: InstanceState = await client.getInstanceState(inst.name, signal ? { signal } : {});
        return { ...inst, state };
      } catch (err) {
        // Deleted between the list and the state read: it is gone for this observation.
        if (err instanceof IncusNotFoundError) return null;
        throw err;
      }
    }),
  );
  return full.filter((i): i is InstanceFull => i !== null);
}
