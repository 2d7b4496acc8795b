import type { Expander, SearchNode } from './expander';
import { TICK } from './expander';
import type { FrontierLevel } from './frontier';

/**
 * The level a checkpoint stopped before (ids `from` … `to` − 1), re-derived from the (parent, move)
 * records, as a lazy level: its states' parents are re-derived from theirs, level by level from the
 * start, only those on the way (each once). The stepper is pure and every record is the state's
 * first discovery, so each state comes back exactly as the interrupted search held it.
 */
export function rebuildLevel<W, F, C>(
  expander: Expander<W, F, C>,
  records: { parentOf(id: number): number; moveOf(id: number): number },
  from: number,
  to: number,
  level: FrontierLevel<W, C>,
): FrontierLevel<W, C> {
  // A move's index → its order among a state's successors (Expander.successors: 0 the tick, 1 + g the g-th group).
  const orderOfMove = new Map<number, number>(expander.groups.map((g, i) => [g.move.index, 1 + i]));
  const orderOf = (id: number) => {
    const via = records.moveOf(id);
    const order = via === TICK ? 0 : orderOfMove.get(via);
    if (order === undefined) throw new Error(`checkpoint: state ${id} reached by move ${via}, which this scenario does not have`);
    return order;
  };
  // The ancestors on each level, deepest first: a level's ids increase, so do their parents (BFS).
  const levels: Int32Array[] = [];
  let ids = Int32Array.from({ length: to - from }, (_, i) => from + i);
  while (!(ids.length === 1 && ids[0] === 0)) {
    const parents: number[] = [];
    for (const id of ids) {
      const p = records.parentOf(id);
      if (p < 0) throw new Error(`checkpoint: state ${id} has no parent`);
      if (parents.at(-1) !== p) parents.push(p);
    }
    ids = Int32Array.from(parents);
    levels.push(ids);
  }
  let nodes = new Map<number, SearchNode<W, C>>([[0, { id: 0, ...expander.initial() }]]);
  for (let d = levels.length - 2; d >= 0; d--) {
    const next = new Map<number, SearchNode<W, C>>();
    for (const id of levels[d]!) next.set(id, { id, ...expander.successor(nodes.get(records.parentOf(id))!, orderOf(id)) });
    nodes = next;
  }
  for (let id = from; id < to; id++) level.push(nodes.get(records.parentOf(id))!, orderOf(id), id);
  return level;
}
