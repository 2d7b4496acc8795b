import type { KObject } from '../../../machines/kubernetes';
import { controllerOf } from '../../../machines/kubernetes';

/**
 * The store's objects by kind, and by controlling owner and kind: what the world's steps and every
 * property ask for, built once per store record instead of a filter over every object per question.
 * The store is copy-on-write (store.ts: every write makes a new `objects` record), so a record's
 * index never goes stale; it is kept by record and dropped with it.
 */
interface StoreIndex {
  byKind: Map<string, KObject[]>;
  /** `${owner uid} ${kind}` → the objects of that kind whose controller is that owner. */
  byController: Map<string, KObject[]>;
}

const NONE: readonly KObject[] = [];
const indexes = new WeakMap<Record<string, KObject>, StoreIndex>();

function indexOf(objects: Record<string, KObject>): StoreIndex {
  let index = indexes.get(objects);
  if (index === undefined) {
    index = { byKind: new Map(), byController: new Map() };
    const add = (map: Map<string, KObject[]>, key: string, o: KObject) => {
      const list = map.get(key);
      if (list) list.push(o);
      else map.set(key, [o]);
    };
    // Object.values order, as the filters this replaces saw it.
    for (const o of Object.values(objects)) {
      add(index.byKind, o.kind, o);
      const owner = controllerOf(o);
      if (owner) add(index.byController, `${owner.uid} ${o.kind}`, o);
    }
    indexes.set(objects, index);
  }
  return index;
}

/** The store's objects of a kind, in the store's order. */
export const objectsOfKind = (objects: Record<string, KObject>, kind: string): readonly KObject[] =>
  indexOf(objects).byKind.get(kind) ?? NONE;

/** The store's objects of a kind whose controlling owner is `owner` (by uid, as the garbage collector sees ownership). */
export const controlledBy = (objects: Record<string, KObject>, owner: KObject, kind: string): readonly KObject[] =>
  indexOf(objects).byController.get(`${owner.metadata.uid} ${kind}`) ?? NONE;
