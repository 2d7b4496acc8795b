import type { StepState } from '../step';
import type { EnvMove, KeyEncoder, LoopCheck, SymmetryUse } from './model';

/** The key a search merges states by: the loop's canonical key, or its representative's under the loop's symmetry. */
export function stateKey<W, F, C>(
  check: LoopCheck<W, F, C>,
  start: { config: C; world: W },
  alphabet: readonly EnvMove<F, C>[],
  enabled: boolean,
): { key: KeyEncoder<StepState<W, C>>; symmetry: SymmetryUse } {
  const plain = () => check.canonicalizer(start, alphabet);
  const declared = check.symmetry;
  if (!declared || 'none' in declared)
    return {
      key: plain(),
      symmetry: { state: 'none', detail: declared?.none ?? `loop ${check.loop} declares no interchangeable objects` },
    };
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
