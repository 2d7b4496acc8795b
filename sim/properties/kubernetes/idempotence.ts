import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ControllerConfig, ControllerContext, KObject, Write, WriteOutcome } from '../../../machines/kubernetes';
import { patched } from '../../../machines/kubernetes';
import type { CheckProperty } from '../../check/model';
import { isUserController } from '../../user-controller/declared';
import type { KubeWorld } from '../../worlds/kubernetes';
import { store as st } from '../../worlds/kubernetes';
import { contextOf, worldAt } from './view';

/**
 * Level-triggered idempotence (the issue's "reconciling the same state twice makes no second
 * change"): a reconcile that runs on exactly the state its key's last reconcile left — its writes
 * all went through, nobody else changed the store during it or since, and the cache has caught up — must
 * write nothing that changes an object (a no-op update, a create that meets AlreadyExists or a
 * delete of what is already going are allowed).
 *
 * Why a monitor and a state property, not a second sandbox call on a computed post-state: the
 * post-state here is the simulated API server's own answer (generated names, uids, defaults, the
 * pod status the server sets), so nothing about how writes apply is modelled twice; it works the
 * same for a module and a webhook; and it costs nothing beyond the run itself. The price: it judges
 * the second reconcile only when the run reaches one on the untouched post-state — which the
 * writes' own watch events bring about, and which the explorer, trying every ordering, finds.
 */

type Property = CheckProperty<KubeWorld, ControllerConfig>;

/** The monitor (binding.monitor): a user's controller only, so built-in runs keep their worlds and keys. */
export function observeIdempotence(world: KubeWorld, event: EventObject, snapshot: AnyMachineSnapshot): KubeWorld {
  const ctx = snapshot.context as ControllerContext;
  if (!isUserController(ctx.config.reconciler)) return world;
  const m = world.idempotence ?? { reconciling: null, armed: null };
  if (event.type === 'xstate.done.actor.readCache' && ctx.current !== null) return { ...world, idempotence: { ...m, reconciling: ctx.current } };
  // The last batch answered and the reconcile is over (the reconcileHandler has cleared `current`).
  if (event.type === 'xstate.done.actor.apiWrite' && ctx.current === null && m.reconciling !== null && ctx.view && ownWritesOnly(world, ctx.view.objects, ctx.writes)) {
    return { ...world, idempotence: { reconciling: null, armed: { key: m.reconciling, revision: world.store.revision } } };
  }
  return world.idempotence ? world : { ...world, idempotence: m };
}

/**
 * The store is the reconcile's view plus its own writes and nothing else: every write went through,
 * and each watched object either is as the reconcile saw it or is one its writes touched (created,
 * updated, patched, deleted — with what the plane does to those at once, such as binding a new pod
 * or collecting a deleted owner's dependents). A change by anyone else (kubectl, a fault, an object
 * the cache had not shown yet) leaves nothing to judge.
 */
function ownWritesOnly(world: KubeWorld, seen: readonly KObject[], done: readonly WriteOutcome[]): boolean {
  if (done.length === 0 || done.some((o) => o.error !== undefined)) return false;
  const touched = new Set<string>();
  const created: { kind: string; namespace: string; name?: string; prefix?: string }[] = [];
  for (const { write: w, tolerated } of done) {
    if (w.verb === 'create') { if (tolerated === undefined) created.push({ kind: w.object.kind, namespace: w.object.metadata.namespace, ...(w.object.metadata.name ? { name: w.object.metadata.name } : { prefix: w.object.metadata.generateName ?? '' }) }); }
    else if (w.verb === 'update' || w.verb === 'updateStatus') touched.add(st.storeKeyOf(w.object));
    else if (w.verb !== 'event') touched.add(st.storeKey(w.kind, w.namespace, w.name));
  }
  const kinds = world.informer?.kinds ?? [];
  const before = new Map(seen.map((o) => [st.storeKeyOf(o), o]));
  const deletedUids = new Set(seen.filter((o) => touched.has(st.storeKeyOf(o))).map((o) => o.metadata.uid));
  for (const o of Object.values(world.store.objects)) {
    if (!kinds.includes(o.kind)) continue;
    const key = st.storeKeyOf(o);
    const was = before.get(key);
    if (was) { if (was.metadata.resourceVersion !== o.metadata.resourceVersion && !touched.has(key)) return false; continue; }
    const i = created.findIndex((c) => c.kind === o.kind && c.namespace === o.metadata.namespace && (c.name !== undefined ? c.name === o.metadata.name : o.metadata.name.startsWith(c.prefix ?? '')));
    if (i === -1) return false;
    created.splice(i, 1);
  }
  // Gone since the read: deleted by this reconcile, or collected with an owner it deleted.
  return seen.every((o) => world.store.objects[st.storeKeyOf(o)] !== undefined || touched.has(st.storeKeyOf(o))
    || o.metadata.ownerReferences.some((r) => deletedUids.has(r.uid)));
}

/** The armed key while the store is still exactly as that reconcile left it (for the canonical key too). */
export function armedKey(world: KubeWorld): string | undefined {
  const armed = world.idempotence?.armed;
  return armed && armed.revision === world.store.revision ? armed.key : undefined;
}

/** Key-order-free JSON: labels written in another order are the same labels. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
const same = (a: unknown, b: unknown) => stable(a) === stable(b);
const putFields = (o: KObject) => ({ l: o.metadata.labels, a: o.metadata.annotations, f: o.metadata.finalizers, o: o.metadata.ownerReferences, s: o.spec });

/** Whether a write would change the objects `seen` (the state the reconcile read). */
export function changes(w: Write, seen: readonly KObject[]): boolean {
  const find = (kind: string, namespace: string, name: string) =>
    seen.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);
  switch (w.verb) {
    case 'create': return w.object.metadata.name === undefined || !find(w.object.kind, w.object.metadata.namespace, w.object.metadata.name);
    case 'update': { const c = find(w.object.kind, w.object.metadata.namespace, w.object.metadata.name); return !!c && !same(putFields(c), putFields(w.object)); }
    case 'updateStatus': { const c = find(w.object.kind, w.object.metadata.namespace, w.object.metadata.name); return !!c && !same(c.status, w.object.status); }
    case 'patch': {
      const c = find(w.kind, w.namespace, w.name);
      if (!c) return false;
      const after = patched(c, w.patch, w.status === true);
      return w.status ? !same(c.status, after.status) : !same(putFields(c), putFields(after));
    }
    case 'delete': { const c = find(w.kind, w.namespace, w.name); return !!c && c.metadata.deletionTimestamp === undefined; }
    case 'scale': { const c = find(w.kind, w.namespace, w.name); return !!c && c.spec.replicas !== w.replicas; }
    case 'event': return false;
  }
}

/** The reconcile's view is the store itself (every watched object, at its current resourceVersion). */
function viewIsStore(world: KubeWorld, seen: readonly KObject[]): boolean {
  const kinds = world.informer?.kinds ?? [];
  const server = Object.values(world.store.objects).filter((o) => kinds.includes(o.kind));
  if (server.length !== seen.length) return false;
  const byKey = new Map(seen.map((o) => [st.storeKeyOf(o), o.metadata.resourceVersion]));
  return server.every((o) => byKey.get(st.storeKeyOf(o)) === o.metadata.resourceVersion);
}

export const idempotent: Property = {
  name: 'idempotent', kind: 'always',
  claim: 'level-triggered: reconciling the state its own last writes left (nothing else changed, the cache caught up) changes nothing',
  holds: (v) => {
    if (v.snapshot.value !== 'deciding') return true;
    const ctx = contextOf(v);
    const w = worldAt(v);
    if (ctx.current === null || armedKey(w) !== ctx.current || !ctx.plan || !ctx.view || !viewIsStore(w, ctx.view.objects)) return true;
    const seen = ctx.view.objects;
    return !ctx.plan.batches.some((b) => b.some((write) => changes(write, seen)));
  },
};
