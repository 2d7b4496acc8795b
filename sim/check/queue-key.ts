import type { StepItem, StepState } from '../step';
import type { KeyWriter } from './key-writer';

/**
 * The stepper's queue as part of a canonical key: items in the order they will happen, times
 * relative to now, a delayed event by its type (and send id), an operation by the caller's label
 * for it (its position among the world's operations, or its kind: op ids are never compared) and
 * whether the controller still waits for its answer. Every loop's key ends with this.
 */
export function writeQueue<W, C>(state: StepState<W, C>, key: KeyWriter, opLabel: (opId: number) => string | number): void {
  const { queue } = state;
  key.list(queue.length);
  let sorted = true;
  for (let i = 1; i < queue.length && sorted; i++) sorted = before(queue[i - 1]!, queue[i]!);
  for (const q of sorted ? queue : [...queue].sort((a, b) => a.at - b.at || a.seq - b.seq)) writeItem(q, state, key, opLabel);
}

const before = (a: StepItem, b: StepItem) => a.at < b.at || (a.at === b.at && a.seq <= b.seq);

function writeItem<W, C>(q: StepItem, state: StepState<W, C>, key: KeyWriter, opLabel: (opId: number) => string | number): void {
  key.num(q.at - state.t);
  if (q.kind === 'event') {
    key.str(q.event.type);
    key.str(q.sendId ?? '');
    return;
  }
  key.str(q.childId);
  const label = opLabel(q.opId);
  if (typeof label === 'number') key.num(label);
  else key.str(label);
  key.flag(state.snapshot.children[q.childId] !== undefined && state.live[q.childId] === q.seq);
}

/** An op's label by its position in the world's list of operations (-1: not there). */
export function opPositions(ops: readonly { id: number }[]): (opId: number) => number {
  return (opId) => ops.findIndex((o) => o.id === opId);
}
