// Identity checked at the act. A name is not an identity: between the observation a policy decided
// on and the stop/delete, the instance may have been deleted and another created with the same name
// (by an operator, another copy, another HPA). Incus gives every instance a `volatile.uuid` at
// creation (docs: reference/instance_options "volatile.uuid"); together with the owner key it says
// "the very instance we decided on, still ours". It is re-read immediately before each stop and
// each delete. Incus 6.0 does not let us make those two calls conditional: PUT /1.0/instances/{name}
// and PATCH honour If-Match (cmd/incusd/instance_put.go, util.EtagCheck), but PUT .../state and
// DELETE ignore it (checked on Incus 6.0.4: a bogus If-Match is accepted by both), so the window
// left is the one request between the re-read and the act.
import { OWNER_KEY } from '../machines/incus-hpa';
import type { IncusClient, Instance } from './incus';
import { IncusNotFoundError } from './incus';

export interface Identity {
  uuid: string;
  owner: string | null;
}

export function identityOf(instance: { config?: Record<string, string> }): Identity | null {
  const uuid = instance.config?.['volatile.uuid'];
  return uuid ? { uuid, owner: instance.config?.[OWNER_KEY] ?? null } : null;
}

/** The instance at the act is not the one decided on (or no longer ours): refused, never done. */
export class IdentityChangedError extends Error {
  override name = 'IdentityChangedError';
  constructor(
    readonly instance: string,
    expected: Identity,
    found: Identity | null,
  ) {
    super(
      `refused to stop or delete ${instance}: it is no longer the instance decided on ` +
        `(volatile.uuid ${expected.uuid}, now ${found?.uuid ?? 'none'}; owner "${expected.owner ?? ''}", now "${found?.owner ?? ''}")`,
    );
  }
}

/**
 * Re-reads `name` right before an act. Null when it is gone; throws IdentityChangedError when its
 * uuid or owner differ from `expected`.
 */
export async function rereadForAct(
  client: IncusClient,
  name: string,
  expected: Identity | undefined,
  signal?: AbortSignal,
): Promise<Instance | null> {
  let inst: Instance;
  try {
    inst = await client.getInstance(name, signal ? { signal } : {});
  } catch (err) {
    if (err instanceof IncusNotFoundError) return null;
    throw err;
  }
  if (expected) {
    const found = identityOf(inst);
    if (!found || found.uuid !== expected.uuid || found.owner !== expected.owner) throw new IdentityChangedError(name, expected, found);
  }
  return inst;
}
