import type { EventObject } from 'xstate';
import type { ControllerConfig, ControllerContext, KObject, Write, WriteOutcome } from '../../../machines/kubernetes';
import { patched } from '../../../machines/kubernetes';
import type { CheckProperty } from '../../check/model';
import type { KeyWriter } from '../../check/key-writer';
import type { ViewSnapshot } from '../../view-snapshot';
import { isUserController } from '../../user-controller/declared';
import type { KubeWorld, ReconcileWatch } from '../../worlds/kubernetes';
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

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

const watchedObjects = (world: KubeWorld) => {
  const kinds = world.informer?.kinds ?? [];
  return Object.values(world.store.objects).filter((o) => kinds.includes(o.kind));
};

/** How a watched object stands against the reconcile: as read (v), as its writes left it (o), or changed by someone else (x). */
function flagOf(r: ReconcileWatch, key: string, rv: number): 'v' | 'o' | 'x' {
  if (r.view[key]?.[0] === rv) return 'v';
  return r.ours[key] === rv ? 'o' : 'x';
}

/** After a batch: record what its writes left, then whether the store is still the view plus those writes. */
function afterBatch(world: KubeWorld, r: ReconcileWatch, batch: readonly WriteOutcome[]): ReconcileWatch {
  const ours = { ...r.ours };
  const deleted = [...r.deleted];
  for (const { write: w, error, tolerated } of batch) {
    if (error !== undefined || tolerated !== undefined || w.verb === 'event') continue;
    if (w.verb === 'create') {
      const m = w.object.metadata;
      const key =
        m.name !== undefined
          ? st.storeKey(w.object.kind, m.namespace, m.name)
          : watchedObjects(world)
              .filter(
                (o) =>
                  o.kind === w.object.kind &&
                  o.metadata.namespace === m.namespace &&
                  o.metadata.name.startsWith(m.generateName ?? '') &&
                  !(st.storeKeyOf(o) in r.view) &&
                  !(st.storeKeyOf(o) in ours),
              )
              .sort((a, b) => b.metadata.resourceVersion - a.metadata.resourceVersion)
              .map(st.storeKeyOf)[0];
      if (key !== undefined) ours[key] = world.store.objects[key]?.metadata.resourceVersion ?? null;
      continue;
    }
    const key = w.verb === 'update' || w.verb === 'updateStatus' ? st.storeKeyOf(w.object) : st.storeKey(w.kind, w.namespace, w.name);
    ours[key] = world.store.objects[key]?.metadata.resourceVersion ?? null;
    if (w.verb === 'delete' && r.view[key]) deleted.push(r.view[key][1]);
  }
  const next = { ...r, ours, deleted };
  const present = watchedObjects(world);
  const clean =
    r.clean &&
    present.every((o) => flagOf(next, st.storeKeyOf(o), o.metadata.resourceVersion) !== 'x') &&
    // Gone since the read: deleted by this reconcile, or collected with an owner it deleted.
    Object.entries(r.view).every(
      ([key, [, , owners]]) => world.store.objects[key] !== undefined || key in ours || owners.some((u) => deleted.includes(u)),
    );
  return { ...next, clean };
}

/** The monitor (binding.monitor): a user's controller only, so built-in runs keep their worlds and keys. */
export function observeIdempotence(world: KubeWorld, event: EventObject, snapshot: ViewSnapshot<ControllerContext>): KubeWorld {
  const ctx = snapshot.context;
  if (!isUserController(ctx.config.reconciler)) return world;
  const m = world.idempotence ?? { reading: null, armed: null };
  if (event.type === 'xstate.done.actor.readCache' && ctx.current !== null && ctx.view) {
    const view: ReconcileWatch['view'] = {};
    for (const o of ctx.view.objects)
      view[st.storeKeyOf(o)] = [o.metadata.resourceVersion, o.metadata.uid, o.metadata.ownerReferences.map((r) => r.uid)];
    return { ...world, idempotence: { ...m, reading: { key: ctx.current, view, ours: {}, deleted: [], clean: true } } };
  }
  if (event.type === 'xstate.done.actor.apiWrite' && m.reading) {
    const batch = ctx.plan?.batches[ctx.batchIndex - 1]?.length ?? 0;
    const reading = afterBatch(world, m.reading, batch ? ctx.writes.slice(-batch) : []);
    // The reconcile is over (the reconcileHandler has cleared `current`): arm if every write went
    // through and the store is what the reconcile read plus what it wrote.
    if (ctx.current !== null) return { ...world, idempotence: { ...m, reading } };
    const ok = ctx.writes.length > 0 && ctx.writes.every((w) => w.error === undefined) && reading.clean;
    return { ...world, idempotence: { reading: null, armed: ok ? { key: reading.key, revision: world.store.revision } : m.armed } };
  }
  return world.idempotence ? world : { ...world, idempotence: m };
}

/** The monitor's part of the canonical key: the armed key (while the store is as it left it) and,
 * during a reconcile, how each watched object stands against it. */
export function idempotenceKey(world: KubeWorld, key: KeyWriter): void {
  const armed = armedKey(world);
  key.flag(armed !== undefined);
  if (armed !== undefined) key.str(armed);
  const r = world.idempotence?.reading;
  key.flag(!!r);
  if (!r) return;
  key.str(r.key);
  key.flag(r.clean);
  const watched = watchedObjects(world);
  let n = 0;
  for (const o of watched) if (flagOf(r, st.storeKeyOf(o), o.metadata.resourceVersion) !== 'v') n++;
  key.list(n);
  for (const o of watched) {
    const k = st.storeKeyOf(o);
    const f = flagOf(r, k, o.metadata.resourceVersion);
    if (f === 'v') continue;
    key.str(k);
    key.str(f);
  }
  const gone = Object.keys(r.view).filter((k) => !world.store.objects[k]);
  key.list(gone.length);
  for (const k of gone) {
    key.str(k);
    key.flag(k in r.ours);
  }
  key.num(r.deleted.length);
}

/** The armed key while the store is still exactly as that reconcile left it (for the canonical key too). */
function armedKey(world: KubeWorld): string | undefined {
  const armed = world.idempotence?.armed;
  return armed && armed.revision === world.store.revision ? armed.key : undefined;
}

/** Key-order-free JSON: labels written in another order are the same labels. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined) // cast: a non-null object, read only by its own keys
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`) // cast: a non-null object, read only by its own keys
      .join(',')}}`; // cast: as on the line above
  }
  return JSON.stringify(v);
}
const same = (a: unknown, b: unknown) => stable(a) === stable(b);
const putFields = (o: KObject) => ({
  l: o.metadata.labels,
  a: o.metadata.annotations,
  f: o.metadata.finalizers,
  o: o.metadata.ownerReferences,
  s: o.spec,
});

/** Whether a write would change the objects `seen` (the state the reconcile read). */
function changes(w: Write, seen: readonly KObject[]): boolean {
  const find = (kind: string, namespace: string, name: string) =>
    seen.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);
  switch (w.verb) {
    case 'create':
      return w.object.metadata.name === undefined || !find(w.object.kind, w.object.metadata.namespace, w.object.metadata.name);
    case 'update': {
      const c = find(w.object.kind, w.object.metadata.namespace, w.object.metadata.name);
      return !!c && !same(putFields(c), putFields(w.object));
    }
    case 'updateStatus': {
      const c = find(w.object.kind, w.object.metadata.namespace, w.object.metadata.name);
      return !!c && !same(c.status, w.object.status);
    }
    case 'patch': {
      const c = find(w.kind, w.namespace, w.name);
      if (!c) return false;
      const after = patched(c, w.patch, w.status === true);
      return w.status ? !same(c.status, after.status) : !same(putFields(c), putFields(after));
    }
    case 'delete': {
      const c = find(w.kind, w.namespace, w.name);
      return !!c && c.metadata.deletionTimestamp === undefined;
    }
    case 'scale': {
      const c = find(w.kind, w.namespace, w.name);
      return !!c && c.spec.replicas !== w.replicas;
    }
    case 'event':
      return false;
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
  name: 'idempotent',
  kind: 'always',
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
