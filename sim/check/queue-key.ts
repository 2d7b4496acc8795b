import type { StepItem, StepState } from '../step';

/**
 * The stepper's queue as part of a canonical key: items in the order they will happen, times
 * relative to now, a delayed event by its type (and send id), an operation by the caller's label
 * for it (its position among the world's operations, or its kind: op ids are never compared) and
 * whether the controller still waits for its answer. Every loop's key ends with this.
 */
export function queueKey<W, C>(state: StepState<W, C>, opLabel: (opId: number) => string | number): string {
  const { t } = state;
  let key = '|q';
  for (const q of [...state.queue].sort((a, b) => a.at - b.at || a.seq - b.seq)) key += `|${itemKey(q, state, t, opLabel)}`;
  return key;
}

function itemKey<W, C>(q: StepItem, state: StepState<W, C>, t: number, opLabel: (opId: number) => string | number): string {
  if (q.kind === 'event') return `e${q.at - t}${q.event.type}${q.sendId ?? ''}`;
  const awaited = state.snapshot.children[q.childId] !== undefined && state.live[q.childId] === q.seq;
  return `o${q.at - t}:${q.childId}:${opLabel(q.opId)}:${awaited ? 1 : 0}`;
}

/** An op's label by its position in the world's list of operations. */
export function opPositions(ops: readonly { id: number }[]): (opId: number) => number | string {
  const position = new Map<number, number>();
  ops.forEach((o, i) => position.set(o.id, i));
  return (opId) => position.get(opId) ?? '?';
}
