// `loopscope real rename`: hand an HPA's pods to a new HPA name by re-keying their owner key.
// The pods keep their Incus names (renaming an instance needs it stopped: POST /1.0/instances/{name}
// of a running one fails "Renaming of running instance not allowed", checked on Incus 6.0.4), only
// ownership moves. Each change is a PATCH with the ETag of the read that
// found the pod ours (If-Match: Incus answers 412 when the instance changed since — cmd/incusd/
// instance_patch.go calls util.EtagCheck, see also identity.ts), so a concurrent change is seen, never
// overwritten, and an instance not owned by the old name is never written. Each re-keyed pod also
// carries RENAMED_FROM_KEY, so a re-run after an interruption tells "pods this rename already moved"
// from "pods another HPA of the new name owns".
import { OWNER_KEY } from '../machines/incus-hpa';
import type { IncusClient, Instance, Operation } from './incus';
import { IncusError, IncusNotFoundError } from './incus';

export const RENAMED_FROM_KEY = 'user.loopscope.renamed-from';

export interface RenamePlan {
  from: string;
  to: string;
  /** Owned by `from`: to re-key. */
  pending: Instance[];
  /** Owned by `to` and marked as moved from `from`: an earlier (interrupted) rename did these. */
  moved: Instance[];
  /** Owned by `to` without that mark: another HPA already has the name. */
  foreign: Instance[];
}

const byName = (a: Instance, b: Instance) => a.name.localeCompare(b.name);

/** One recursion=1 list (configs only, no state reads), split by owner. */
export async function planRename(client: IncusClient, from: string, to: string, signal?: AbortSignal): Promise<RenamePlan> {
  // An instance read mid-create may have no config yet: it is nobody's for this plan.
  const all = await client.listInstances({ recursion: 1, ...(signal ? { signal } : {}) });
  const owner = (i: Instance) => i.config?.[OWNER_KEY];
  const ofTo = all.filter((i) => owner(i) === to);
  return {
    from,
    to,
    pending: all.filter((i) => owner(i) === from).sort(byName),
    moved: ofTo.filter((i) => i.config?.[RENAMED_FROM_KEY] === from).sort(byName),
    foreign: ofTo.filter((i) => i.config?.[RENAMED_FROM_KEY] !== from).sort(byName),
  };
}

export type RekeyResult =
  | { name: string; result: 'rekeyed'; conflicts: number }
  | { name: string; result: 'already' }
  | { name: string; result: 'gone' }
  | { name: string; result: 'not-owned'; owner: string }
  | { name: string; result: 'conflict'; conflicts: number };

/** Re-reads after a 412 at most this often: a pod whose config changes that fast is left for a re-run. */
const MAX_ATTEMPTS = 5;

/** The instance and the ETag it was read with (the hash an If-Match is compared against). */
export async function readWithEtag(
  client: IncusClient,
  name: string,
  signal?: AbortSignal,
): Promise<{ instance: Instance; etag: string } | null> {
  try {
    const { envelope, headers } = await client.request<Instance>(
      'GET',
      `/1.0/instances/${encodeURIComponent(name)}`,
      signal ? { signal } : {},
    );
    const etag = headers.etag;
    if (typeof etag !== 'string' || !etag) throw new IncusError(`GET /1.0/instances/${name} sent no ETag: cannot change its owner safely`);
    return { instance: envelope.metadata, etag };
  } catch (err) {
    if (err instanceof IncusNotFoundError) return null;
    throw err;
  }
}

/**
 * PATCH the owner key from `from` to `to` if the instance is unchanged since the read that gave
 * `etag`. 'changed' when Incus answers 412 (someone changed it in between); 'gone' on 404.
 */
export async function patchOwnerIfMatch(
  client: IncusClient,
  name: string,
  etag: string,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<'done' | 'changed' | 'gone'> {
  const path = `/1.0/instances/${encodeURIComponent(name)}`;
  try {
    const { envelope } = await client.request<Operation | null>('PATCH', path, {
      body: { config: { [OWNER_KEY]: to, [RENAMED_FROM_KEY]: from } },
      headers: { 'if-match': etag },
      ...(signal ? { signal } : {}),
    });
    // Incus answers PATCH synchronously; LXD may run it as an operation.
    if (envelope.type === 'async' && envelope.metadata) await client.waitOperation(envelope.metadata, 60, signal ? { signal } : {});
    return 'done';
  } catch (err) {
    if (err instanceof IncusError && err.status === 412) return 'changed';
    if (err instanceof IncusNotFoundError) return 'gone';
    throw err;
  }
}

/**
 * Moves one pod from `from` to `to`: read, check it is `from`'s, PATCH with If-Match. After a 412
 * it reads again — and writes again only if it is still `from`'s. Idempotent: a pod already moved
 * by this rename is 'already'.
 */
export async function rekeyInstance(
  client: IncusClient,
  name: string,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<RekeyResult> {
  let conflicts = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const read = await readWithEtag(client, name, signal);
    if (!read) return { name, result: 'gone' };
    const owner = read.instance.config?.[OWNER_KEY] ?? '';
    if (owner === to && read.instance.config?.[RENAMED_FROM_KEY] === from) return { name, result: 'already' };
    if (owner !== from) return { name, result: 'not-owned', owner };
    const outcome = await patchOwnerIfMatch(client, name, read.etag, from, to, signal);
    if (outcome === 'done') return { name, result: 'rekeyed', conflicts };
    if (outcome === 'gone') return { name, result: 'gone' };
    conflicts++;
  }
  return { name, result: 'conflict', conflicts };
}
