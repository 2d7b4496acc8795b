import type { KObject } from './types';

/**
 * JSON merge patch (RFC 7386), as the API server applies a `PATCH` with content type
 * application/merge-patch+json (k8s.io/apiserver pkg/endpoints/handlers/patch.go → jsonpatch.MergePatch):
 * objects merge key by key, null removes a key, anything else (arrays too) replaces.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The metadata fields a client may patch here; the rest is the server's (name, uid, generation…). */
const PATCHABLE_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'resourceVersion'] as const;

/** Why a merge patch cannot be applied as modelled (a field the simulator does not let clients set), or undefined. */
export function patchProblem(patch: Record<string, unknown>, status: boolean): string | undefined {
  const allowed = status ? ['metadata', 'status'] : ['metadata', 'spec'];
  const top = Object.keys(patch).find((k) => !allowed.includes(k));
  if (top) return `patches ${top}: a ${status ? 'status().patch' : 'patch'} may change ${allowed.join(' and ')}`;
  const meta = patch.metadata;
  if (meta === undefined) return undefined;
  if (!isRecord(meta)) return 'patches metadata with something that is not an object';
  const field = Object.keys(meta).find(
    (k) => !(PATCHABLE_METADATA as readonly string[]).includes(k) || (status && k !== 'resourceVersion'), // cast: widened to call includes() with any key
  );
  return field
    ? `patches metadata.${field}: ${status ? 'a status patch changes only the status' : `only ${PATCHABLE_METADATA.slice(0, 4).join(', ')} are modelled`}`
    : undefined;
}

/** The object after the patch: metadata and spec (main resource) or status (status subresource). */
export function patched(current: KObject, patch: Record<string, unknown>, status: boolean): KObject {
  if (status) return { ...current, status: (applyMergePatch(current.status, patch.status ?? {}) ?? {}) as Record<string, unknown> }; // cast: a JSON merge patch of a record onto a record is a record (RFC 7386)
  // resourceVersion in a patch is a precondition (patchPrecondition), not a field to set.
  const metaPatch = Object.fromEntries(
    Object.entries(isRecord(patch.metadata) ? patch.metadata : {}).filter(([k]) => k !== 'resourceVersion'),
  );
  const m = current.metadata;
  const meta = applyMergePatch(
    { labels: m.labels, annotations: m.annotations, finalizers: m.finalizers, ownerReferences: m.ownerReferences },
    metaPatch,
  ) as Partial<KObject['metadata']>; // cast: a JSON merge patch of metadata's fields onto them keeps their shape (RFC 7386)
  return {
    ...current,
    metadata: {
      ...m,
      labels: meta.labels ?? {},
      annotations: meta.annotations ?? {},
      finalizers: meta.finalizers ?? [],
      ownerReferences: meta.ownerReferences ?? [],
    },
    spec: (applyMergePatch(current.spec, patch.spec ?? {}) ?? {}) as Record<string, unknown>, // cast: a JSON merge patch of a record onto a record is a record (RFC 7386)
  };
}

/** The resourceVersion an optimistic-lock patch carries (client.MergeFromWithOptimisticLock), if any. */
export function patchPrecondition(patch: Record<string, unknown>): number | undefined {
  const rv = isRecord(patch.metadata) ? patch.metadata.resourceVersion : undefined;
  return typeof rv === 'number' ? rv : undefined;
}
