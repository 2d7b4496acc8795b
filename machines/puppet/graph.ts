import type { Ref, Resource } from './types';
import { refOf } from './types';

/**
 * The relationship graph (Puppet "Relationships and ordering"): `require` and `subscribe` make this
 * resource depend on the others; `before` and `notify` make the others depend on it. Returns, for
 * every resource, the resources that must be evaluated first.
 */
export function dependenciesOf(catalog: Resource[]): Map<Ref, Ref[]> {
  const deps = new Map<Ref, Ref[]>(catalog.map((r) => [refOf(r.type, r.title), []]));
  const add = (from: Ref, to: Ref) => {
    const list = deps.get(to);
    if (list && deps.has(from) && !list.includes(from)) list.push(from);
  };
  for (const r of catalog) {
    const ref = refOf(r.type, r.title);
    for (const d of [...r.require, ...r.subscribe]) add(d, ref);
    for (const d of [...r.before, ...r.notify]) add(ref, d);
  }
  return deps;
}

/** Who gets a refresh when `ref` changes: its `notify` targets and the resources that `subscribe` to it. */
export function refreshTargets(catalog: Resource[], ref: Ref): Ref[] {
  const out: Ref[] = [];
  for (const r of catalog) {
    const me = refOf(r.type, r.title);
    if (me === ref) out.push(...r.notify);
    else if (r.subscribe.includes(ref)) out.push(me);
  }
  return [...new Set(out)];
}

/** References that name no resource in the catalog ("Could not find resource 'X' for relationship"). */
export function unknownReferences(catalog: Resource[]): { from: Ref; to: Ref }[] {
  const known = new Set(catalog.map((r) => refOf(r.type, r.title)));
  return catalog.flatMap((r) =>
    [...r.require, ...r.before, ...r.notify, ...r.subscribe]
      .filter((to) => !known.has(to))
      .map((to) => ({ from: refOf(r.type, r.title), to })),
  );
}

export type Order = { ok: true; order: Ref[] } | { ok: false; cycle: Ref[] };

/**
 * The order a transaction evaluates resources in: a topological walk of the relationship graph
 * where, among the resources that are ready, the one earliest in the manifest goes first
 * (ordering = manifest, Puppet::Graph::SequentialPrioritizer; transaction.rb traverse). A cycle
 * fails the catalog ("Found 1 dependency cycle").
 */
export function evaluationOrder(catalog: Resource[]): Order {
  const deps = dependenciesOf(catalog);
  const refs = catalog.map((r) => refOf(r.type, r.title));
  const blockers = new Map(refs.map((r) => [r, deps.get(r)!.length]));
  const done = new Set<Ref>();
  const order: Ref[] = [];
  while (order.length < refs.length) {
    const next = refs.find((r) => !done.has(r) && blockers.get(r) === 0);
    if (next === undefined) return { ok: false, cycle: refs.filter((r) => !done.has(r)) };
    done.add(next);
    order.push(next);
    for (const r of refs) if (deps.get(r)!.includes(next)) blockers.set(r, blockers.get(r)! - 1);
  }
  return { ok: true, order };
}
