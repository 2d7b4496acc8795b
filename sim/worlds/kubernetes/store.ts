import type { KObject, NewObject } from '../../../machines/kubernetes';
import type { RngState } from '../../random';
import { drawInt } from '../../random';

/**
 * The API server over an etcd-like store: every write bumps the store's revision, which becomes
 * the object's resourceVersion; updates carry the resourceVersion they read and fail with
 * Conflict when it is stale (optimistic concurrency); a spec change bumps metadata.generation
 * (apiserver rest.BeforeUpdate for types with a status subresource); status writes go through
 * /status and change nothing else.
 */
export interface Store {
  objects: Record<string, KObject>;
  revision: number;
  uidSeq: number;
}

export type StoreResult = { store: Store; object: KObject; error?: undefined } | { store: Store; object?: undefined; error: string };

export const storeKey = (kind: string, namespace: string, name: string) => `${kind}/${namespace}/${name}`;
export const storeKeyOf = (o: KObject) => storeKey(o.kind, o.metadata.namespace, o.metadata.name);

export const emptyStore = (): Store => ({ objects: {}, revision: 0, uidSeq: 0 });

// apimachinery util/rand.String: consonants and digits without look-alikes.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(rng: RngState, n: number): [string, RngState] {
  let out = '';
  let r = rng;
  for (let i = 0; i < n; i++) {
    const [x, next] = drawInt(r, 0, ALPHANUMS.length - 1);
    out += ALPHANUMS[x];
    r = next;
  }
  return [out, r];
}

export function create(store: Store, obj: NewObject, t: number, rng: RngState): StoreResult & { rng: RngState } {
  let name = obj.metadata.name;
  let r = rng;
  if (!name) {
    if (!obj.metadata.generateName) return { store, rng, error: 'Invalid: name or generateName is required' };
    const [s, next] = suffix(r, 5);
    name = `${obj.metadata.generateName}${s}`;
    r = next;
  }
  const key = storeKey(obj.kind, obj.metadata.namespace, name);
  if (store.objects[key]) return { store, rng: r, error: `AlreadyExists: ${obj.kind} "${name}" already exists` };
  const revision = store.revision + 1;
  const uidSeq = store.uidSeq + 1;
  const object: KObject = {
    kind: obj.kind,
    metadata: {
      namespace: obj.metadata.namespace,
      name,
      uid: `uid-${String(uidSeq).padStart(4, '0')}`,
      resourceVersion: revision,
      generation: 1,
      creationTimestamp: t,
      labels: { ...(obj.metadata.labels ?? {}) },
      annotations: { ...(obj.metadata.annotations ?? {}) },
      ownerReferences: [...(obj.metadata.ownerReferences ?? [])],
      finalizers: [...(obj.metadata.finalizers ?? [])],
    },
    spec: structuredClone(obj.spec),
    // A pod's status is the server's: pod strategy PrepareForCreate (pkg/registry/core/pod/strategy.go)
    // drops the client's and starts it Pending.
    status: obj.kind === 'Pod' ? { phase: 'Pending', ready: false, restarts: 0 } : structuredClone(obj.status ?? {}),
  };
  return { store: { objects: { ...store.objects, [key]: object }, revision, uidSeq }, object, rng: r };
}

function precondition(store: Store, obj: KObject): { current: KObject } | { error: string } {
  const current = store.objects[storeKeyOf(obj)];
  if (!current) return { error: `NotFound: ${obj.kind} "${obj.metadata.name}" not found` };
  if (current.metadata.resourceVersion !== obj.metadata.resourceVersion) {
    return {
      error: `Conflict: ${obj.kind.toLowerCase()} ${obj.metadata.name} was modified (resourceVersion ${obj.metadata.resourceVersion}, now ${current.metadata.resourceVersion})`,
    };
  }
  return { current };
}

/** PUT: spec and metadata (labels, annotations, ownerReferences, finalizers); status is kept. */
export function update(store: Store, obj: KObject): StoreResult {
  const pre = precondition(store, obj);
  if ('error' in pre) return { store, error: pre.error };
  const { current } = pre;
  const specChanged = JSON.stringify(current.spec) !== JSON.stringify(obj.spec);
  const revision = store.revision + 1;
  const object: KObject = {
    ...current,
    metadata: {
      ...current.metadata,
      labels: { ...obj.metadata.labels },
      annotations: { ...obj.metadata.annotations },
      ownerReferences: [...obj.metadata.ownerReferences],
      finalizers: [...obj.metadata.finalizers],
      resourceVersion: revision,
      generation: current.metadata.generation + (specChanged ? 1 : 0),
    },
    spec: structuredClone(obj.spec),
  };
  return { store: { ...store, objects: { ...store.objects, [storeKeyOf(object)]: object }, revision }, object };
}

/** PUT /status: only the status changes. */
export function updateStatus(store: Store, obj: KObject): StoreResult {
  const pre = precondition(store, obj);
  if ('error' in pre) return { store, error: pre.error };
  const revision = store.revision + 1;
  const object: KObject = {
    ...pre.current,
    metadata: { ...pre.current.metadata, resourceVersion: revision },
    status: structuredClone(obj.status),
  };
  return { store: { ...store, objects: { ...store.objects, [storeKeyOf(object)]: object }, revision }, object };
}

/** A server-side change (scheduler binding, kubelet status) that needs no precondition. */
export function mutate(store: Store, key: string, f: (o: KObject) => KObject): StoreResult {
  const current = store.objects[key];
  if (!current) return { store, error: `NotFound: ${key}` };
  const revision = store.revision + 1;
  const next = f(current);
  const object: KObject = { ...next, metadata: { ...next.metadata, resourceVersion: revision } };
  return { store: { ...store, objects: { ...store.objects, [key]: object }, revision }, object };
}

export function remove(store: Store, key: string): StoreResult {
  const current = store.objects[key];
  if (!current) return { store, error: `NotFound: ${key}` };
  const objects = { ...store.objects };
  delete objects[key];
  const revision = store.revision + 1;
  return { store: { ...store, objects, revision }, object: { ...current, metadata: { ...current.metadata, resourceVersion: revision } } };
}
