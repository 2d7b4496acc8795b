import type { StepState } from '../step';
import type { EnvMove, LoopCheck, MethodLike } from './model';

/**
 * Symmetry reduction: a loop may declare that some of its objects (pods, nodes, jobs …) are
 * interchangeable — the machine, the world and every property it claims are invariant under
 * renaming them — and give a key of a state's representative under those renamings (e.g. names
 * replaced by labels given in a canonical order, the rest of the canonical key unchanged). The
 * explorer then merges a state with every renamed copy of it. Only the key changes: the search
 * stores hashes, parents and moves, and each counterexample is replayed through the Runner from
 * the start (counterexample.ts), so a representative's labels never reach a trace.
 * A loop whose objects are not interchangeable says why (`none`): check reports it.
 */
export type LoopSymmetry<W, F, C> =
  | { none: string }
  | {
    /** What is renamed, e.g. "pods created by a ReplicaSet". */
    what: string;
    /** The representative's key for this configuration, or why it has none (e.g. a policy that reads name order). */
    canonicalizer(start: { config: C; world: W }, alphabet: readonly EnvMove<F, C>[]): MethodLike<[StepState<W, C>], string> | string;
  };

/** What a search did about symmetry: reduced (on), asked not to (off), or nothing to reduce (none, and why). */
export interface SymmetryUse { state: 'on' | 'off' | 'none'; detail: string }

/** The key a search merges states by: the loop's canonical key, or its representative's under the loop's symmetry. */
export function stateKey<W, F, C>(
  check: LoopCheck<W, F, C>, start: { config: C; world: W }, alphabet: readonly EnvMove<F, C>[], enabled: boolean,
): { key: (state: StepState<W, C>) => string; symmetry: SymmetryUse } {
  const plain = () => check.canonicalizer(start, alphabet);
  const declared = check.symmetry;
  if (!declared || 'none' in declared) return { key: plain(), symmetry: { state: 'none', detail: declared?.none ?? `loop ${check.loop} declares no interchangeable objects` } };
  const made = declared.canonicalizer(start, alphabet);
  if (typeof made === 'string') return { key: plain(), symmetry: { state: 'none', detail: made } };
  if (!enabled) return { key: plain(), symmetry: { state: 'off', detail: declared.what } };
  return { key: made, symmetry: { state: 'on', detail: declared.what } };
}

/**
 * The report's line. A reduced search cannot count the states its representatives stand for
 * without a second search, so "on" says the count is of representatives (the explorer bench
 * shows the factor from runs with and without); "none" is a factor of 1.00.
 */
export function symmetryLine(stats: { distinct: number; symmetry?: SymmetryUse }): string {
  const use = stats.symmetry;
  if (!use || use.state === 'none') return `symmetry: none for this loop, factor 1.00${use ? ` — ${use.detail}` : ''}`;
  if (use.state === 'off') return `symmetry: off — ${use.detail}: ${stats.distinct} distinct states, every renamed copy counted`;
  return `symmetry: on — ${use.detail}: ${stats.distinct} distinct states up to renaming (reduced; --no-symmetry counts every copy)`;
}
