/**
 * What a user's controller module sees: `import { … } from 'loopscope/controller'`.
 *
 * The shape is controller-runtime's (sigs.k8s.io/controller-runtime pkg/client, pkg/reconcile):
 * `reconcile(request, client)` reads through the informer cache (Get / List), writes through the
 * API server (Create / Update / Delete / Status().Update), returns a Result or throws; a
 * TerminalError is logged and not retried (pkg/reconcile/reconcile.go TerminalError).
 *
 * This file is also evaluated INSIDE the module's sandbox (sim/user-controller/sandbox.ts), so it
 * imports nothing and touches nothing outside its arguments: no I/O, no timers, no globals.
 */

export interface Request {
  namespace: string;
  name: string;
}

/** reconcile.Result; requeueAfter in milliseconds. */
export interface Result {
  requeue?: boolean;
  requeueAfter?: number;
}

export interface OwnerReference {
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
}

export interface KubeObject {
  kind: string;
  metadata: {
    namespace: string;
    name: string;
    generateName?: string;
    uid?: string;
    resourceVersion?: number;
    generation?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    finalizers?: string[];
    deletionTimestamp?: number;
  };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** What Create takes: a name or a generateName; the namespace defaults to the request's. */
export interface NewKubeObject {
  kind: string;
  metadata: Omit<KubeObject['metadata'], 'namespace' | 'name'> & { namespace?: string; name?: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface ListOptions {
  namespace?: string;
  labels?: Record<string, string>;
}
export interface CreateOptions {
  /** client.IgnoreAlreadyExists */ ignoreAlreadyExists?: boolean;
}
export interface DeleteOptions {
  /** client.IgnoreNotFound */ ignoreNotFound?: boolean;
}

/**
 * client.MergeFrom(original): a JSON merge patch (RFC 7386) from the object as read to the object
 * as modified, sent without a resourceVersion — the server applies it to whatever it holds now, so
 * a patch does not conflict (sigs.k8s.io/controller-runtime pkg/client/patch.go mergeFromPatch).
 * With optimisticLock (client.MergeFromWithOptimisticLock) the patch carries the original's
 * resourceVersion and a stale one is a Conflict, as with Update.
 */
export interface Patch {
  type: 'merge';
  from: KubeObject;
  optimisticLock: boolean;
}

export interface Client {
  /** client.Get from the cache: the object, or throws a NotFound error (check it with isNotFound). */
  get(kind: string, key: { namespace?: string; name: string }): KubeObject;
  /** client.List from the cache, optionally by namespace and matchLabels. */
  list(kind: string, options?: ListOptions): KubeObject[];
  create(object: NewKubeObject, options?: CreateOptions): void;
  /** Optimistic concurrency: fails with Conflict when metadata.resourceVersion is stale. */
  update(object: KubeObject): void;
  /** client.Patch(ctx, modified, client.MergeFrom(original)): see mergeFrom. */
  patch(object: KubeObject, patch: Patch): void;
  delete(object: { kind: string; metadata: { namespace: string; name: string } }, options?: DeleteOptions): void;
  status(): { update(object: KubeObject): void; patch(object: KubeObject, patch: Patch): void };
}

/** What a module exports. */
export interface ControllerModule {
  /** ctrl.NewControllerManagedBy(mgr).For(kind).Owns(kinds…): the kinds that enqueue requests. */
  controller: { for: string; owns?: string[] };
  reconcile(request: Request, client: Client): Result | void | Promise<Result | void>;
}

/** reconcile.TerminalError: the request is not retried. */
export class TerminalError extends Error {
  override name = 'TerminalError';
}

/** apierrors.NewNotFound, as client.Get returns it. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
  readonly reason = 'NotFound';
}

/** apierrors.IsNotFound */
export const isNotFound = (err: unknown): boolean => err instanceof NotFoundError;

/** metav1.NewControllerRef: the owner reference that makes `owner` the object's controller. */
export function ownerReference(owner: KubeObject): OwnerReference {
  return { kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid ?? '', controller: true };
}

/** client.MergeFrom / client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{}). */
export function mergeFrom(original: KubeObject, options: { optimisticLock?: boolean } = {}): Patch {
  return { type: 'merge', from: copy(original), optimisticLock: options.optimisticLock === true };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 in reverse (jsonpatch.CreateMergePatch): what to send so `from` becomes `to`; null removes a key, arrays are replaced whole. */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isRecord(from) || !isRecord(to)) return to;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!(key in to) || to[key] === undefined) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const before = from[key];
    if (isRecord(before) && isRecord(value)) {
      const inner = createMergePatch(before, value) as Record<string, unknown>; // cast: the patch of two records is a record
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (JSON.stringify(before) !== JSON.stringify(value)) patch[key] = value;
  }
  return patch;
}

// ---- used by the sandbox's bootstrap, not by modules ------------------------------------------

/** One recorded write, in the simulator's Write shape (machines/kubernetes/types.ts). */
export type RecordedWrite =
  | { verb: 'create'; object: NewKubeObject; tolerate?: string[] }
  | { verb: 'update' | 'updateStatus'; object: KubeObject }
  | { verb: 'delete'; kind: string; namespace: string; name: string; tolerate?: string[] }
  | { verb: 'patch' | 'patchStatus'; kind: string; namespace: string; name: string; patch: Record<string, unknown> };

function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T; // cast: a JSON copy of plain data has its type
}

const matchesLabels = (selector: Record<string, string>, labels: Record<string, string> | undefined) =>
  Object.keys(selector).every((k) => labels?.[k] === selector[k]);

/** The merge patch a Patch call sends: the main resource's fields, or the status for status().patch. */
function patchWrite(verb: 'patch' | 'patchStatus', object: KubeObject, p: Patch): RecordedWrite {
  const pick = (o: KubeObject) => (verb === 'patchStatus' ? { status: o.status ?? {} } : { metadata: o.metadata, spec: o.spec });
  const patch = createMergePatch(pick(p.from), pick(object)) as Record<string, unknown>; // cast: the patch of two records is a record
  if (p.optimisticLock)
    patch.metadata = { ...(isRecord(patch.metadata) ? patch.metadata : {}), resourceVersion: p.from.metadata.resourceVersion };
  const {
    kind,
    metadata: { namespace, name },
  } = p.from;
  return { verb, kind, namespace, name, patch };
}

/** A client over a cache snapshot that records writes in order (they run after reconcile returns). */
export function recordingClient(objects: KubeObject[], request: Request): { client: Client; writes: RecordedWrite[] } {
  const writes: RecordedWrite[] = [];
  const client: Client = {
    get(kind, key) {
      const namespace = key.namespace ?? request.namespace;
      const found = objects.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === key.name);
      if (!found) throw new NotFoundError(`${kind} "${namespace}/${key.name}" not found`);
      return copy(found);
    },
    list(kind, options = {}) {
      return objects
        .filter(
          (o) =>
            o.kind === kind &&
            (options.namespace === undefined || o.metadata.namespace === options.namespace) &&
            matchesLabels(options.labels ?? {}, o.metadata.labels),
        )
        .map(copy);
    },
    create(object, options = {}) {
      const o = copy(object);
      o.metadata.namespace ??= request.namespace;
      writes.push({ verb: 'create', object: o, ...(options.ignoreAlreadyExists ? { tolerate: ['AlreadyExists'] } : {}) });
    },
    update(object) {
      writes.push({ verb: 'update', object: copy(object) });
    },
    patch(object, p) {
      writes.push(patchWrite('patch', object, p));
    },
    delete(object, options = {}) {
      writes.push({
        verb: 'delete',
        kind: object.kind,
        namespace: object.metadata.namespace,
        name: object.metadata.name,
        ...(options.ignoreNotFound ? { tolerate: ['NotFound'] } : {}),
      });
    },
    status: () => ({
      update(object) {
        writes.push({ verb: 'updateStatus', object: copy(object) });
      },
      patch(object, p) {
        writes.push(patchWrite('patchStatus', object, p));
      },
    }),
  };
  return { client, writes };
}
