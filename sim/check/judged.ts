import type { CheckProperty } from './model';
import { isLiveness } from './model';

/**
 * The per-state bits a search keeps, in one order shared by the sequential search, the parallel
 * one's workers and the search book: each eventually-property's target, then for each liveness
 * property its Q (`holds`) and, for leads-to, its P (`when`). Liveness predicates are wrapped as
 * eventually-shaped objects so the parallel workers judge and send them like any target bit.
 */
export function judgedColumns<W, C>(properties: readonly CheckProperty<W, C>[]) {
  const targets = properties.filter((p) => p.kind === 'eventually');
  const liveness = properties.filter((p) => isLiveness(p.kind));
  const columns: CheckProperty<W, C>[] = [...targets];
  /** Per liveness property: the column of its Q, and of its P (-1: eventually-always has none). */
  const at: { q: number; p: number }[] = [];
  for (const property of liveness) {
    const q = columns.length;
    columns.push({ ...property, name: `${property.name} (holds)`, kind: 'eventually' });
    let p = -1;
    if (property.kind === 'leads-to') {
      const when = property.when;
      if (!when) throw new Error(`${property.name}: a leads-to property needs its trigger (when)`);
      p = columns.length;
      columns.push({ ...property, name: `${property.name} (when)`, kind: 'eventually', holds: (v) => when(v) });
    }
    at.push({ q, p });
  }
  return { targets, liveness, columns, at };
}
