import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty } from '../../sim/check/model';
import type { Runner } from '../../sim/runner';

/**
 * Runs `runner` to `until`, evaluating the check's property objects in every state it passes
 * through (as the explorer does in every state it reaches). Returns the first broken claim, or null.
 */
export function firstBroken<W, F, C>(runner: Runner<W, F, C>, until: number, properties: readonly CheckProperty<W, C>[]): string | null {
  const broken = () => {
    const view = viewOf(runner);
    const p = properties.find((x) => !x.holds(view));
    return p ? `${p.name} at ${runner.t} ms` : null;
  };
  let found = broken();
  while (found === null && runner.nextEventAt !== undefined && runner.nextEventAt <= until) {
    runner.processNext();
    found = broken();
  }
  if (found === null) runner.run(until);
  return found;
}
