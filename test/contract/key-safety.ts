import type { LoopBinding } from '../../sim/model';
import type { CheckProperty, EnvMove, LoopCheck } from '../../sim/check/model';
import { applyEntry } from '../../sim/check/expander';
import type { StepState } from '../../sim/step';
import { Stepper } from '../../sim/step';
import { keyText } from '../../sim/check/key-writer';

type State = StepState<unknown, unknown>;
/** `dt`: the virtual time the move took (a tick advances the clock; eventually-within-K reads it). */
interface Node {
  state: State;
  used: readonly number[];
  dt: number;
}
export interface KeySafetyReport {
  states: number;
  merges: number;
  mismatches: string[];
}

/**
 * Explores up to `limit` states breadth-first, merging states by canonical key exactly as the
 * explorer does, and checks every merge: two different states with one key must have, for every
 * move (the next queued item, or an environment move), equal applicability, equal successor keys
 * and equal elapsed time — otherwise the key drops something their futures depend on. Given the
 * properties, merged states must also agree on each (and on a leads-to's trigger): the explorer
 * judges only the first state of a key, so a key (or a symmetry's renaming) must not merge a state
 * that breaks a claim with one that keeps it.
 */
export function keySafety<W, F, C>(
  binding: LoopBinding<W, F, C>,
  check: LoopCheck<W, F, C>,
  start: { config: C; world: W },
  alphabet: readonly EnvMove<F, C>[],
  limit = 1500,
  properties: readonly CheckProperty<W, C>[] = [],
): KeySafetyReport {
  const stepper = new Stepper(binding);
  const canonical = keyText(check.canonicalizer(start, alphabet));
  // Moves with equal labels are interchangeable for the explorer, so "used" is a multiset of labels.
  const usedKey = (used: readonly number[]) =>
    used
      .map((i) => alphabet[i]!.label)
      .sort()
      .join(';');
  const keyOf = (n: Node) => `${canonical(n.state as StepState<W, C>)}#${usedKey(n.used)}`;
  const successors = (n: Node): Map<string, Node> => {
    const out = new Map<string, Node>();
    const ticked = stepper.tick(n.state as StepState<W, C>);
    if (ticked) out.set('tick', { state: ticked.state as State, used: n.used, dt: ticked.state.t - n.state.t });
    for (const m of alphabet) {
      if (n.used.includes(m.index) || out.has(m.label)) continue;
      if (!check.applicable(n.state as StepState<W, C>, m.entry)) continue;
      out.set(m.label, { state: applyEntry(stepper, n.state as StepState<W, C>, m.entry) as State, used: [...n.used, m.index], dt: 0 });
    }
    return out;
  };
  const raw = (n: Node) =>
    JSON.stringify([
      n.state.t,
      n.state.snapshot.value,
      n.state.snapshot.context,
      n.state.world,
      n.state.queue,
      n.state.live,
      n.state.config,
    ]);
  const seen = new Map<string, Node>();
  const report: KeySafetyReport = { states: 0, merges: 0, mismatches: [] };
  const first: Node = { state: stepper.initial(start.config, start.world) as State, used: [], dt: 0 };
  seen.set(keyOf(first), first);
  const queue = [first];
  while (queue.length && seen.size < limit && report.mismatches.length < 5) {
    const node = queue.shift()!;
    for (const next of successors(node).values()) {
      const key = keyOf(next);
      const known = seen.get(key);
      if (!known) {
        seen.set(key, next);
        queue.push(next);
        continue;
      }
      if (raw(known) === raw(next)) continue;
      report.merges++;
      for (const p of properties) {
        const judged = (n: Node) => {
          const view = { t: n.state.t, snapshot: n.state.snapshot, world: n.state.world as W, config: n.state.config as C };
          return `${p.holds(view)}${p.when?.(view) ?? ''}`;
        };
        if (judged(known) !== judged(next)) report.mismatches.push(`${key.slice(0, 120)}…: merged states disagree on ${p.name}`);
      }
      const a = successors(known);
      const b = successors(next);
      const moves = new Set([...a.keys(), ...b.keys()]);
      for (const move of moves) {
        const ka = a.get(move);
        const kb = b.get(move);
        if (!ka || !kb) {
          report.mismatches.push(`${key.slice(0, 120)}…: "${move}" applies to one state and not the other`);
          continue;
        }
        if (keyOf(ka) !== keyOf(kb)) report.mismatches.push(`${key.slice(0, 120)}…: after "${move}" the keys differ`);
        else if (ka.dt !== kb.dt)
          report.mismatches.push(`${key.slice(0, 120)}…: "${move}" takes ${ka.dt} ms from one state, ${kb.dt} ms from the other`);
      }
    }
  }
  report.states = seen.size;
  return report;
}
