import { basename } from 'node:path';
import type { LoadedScenario } from '../sim/loops/registry';

/**
 * `loopscope check` on a scenario made for `sim`. A check scenario is kept small on purpose: its
 * timeline is what the environment may do at any instant, in any order, so a few moves over a
 * long run with many pods can grow the search past any memory. Such a scenario is checked under a
 * default bound that ends within seconds (exit 3 when reached, "unknown"), and says so first.
 */

/** Check scenarios are named for it: `scenarios/<loop>-check-<what>.yaml`, an example's
 * `check.yaml` or `check-buggy.yaml` (the file's name, or the scenario's `name:`). */
const CHECK_NAME = /(^|[-_.])check([-_.]|$)/i;

export function isCheckScenario(file: string, scenario: Pick<LoadedScenario, 'name'>): boolean {
  return CHECK_NAME.test(basename(file).replace(/\.ya?ml$/i, '')) || CHECK_NAME.test(scenario.name);
}

/**
 * The default bound for a scenario not made for check, so that it answers within seconds: 5,000
 * states take a second or two for incus-hpa or cron, and 10–25 s for
 * scenarios/kubernetes-decorator.yaml (the slowest per state: 70–100 KB of RSS each) on a 2-core
 * machine shared with other work. The memory cap keeps a loop with still larger states from swapping.
 */
export const UNMARKED_BOUNDS = { maxStates: 5_000, maxMemoryBytes: 1024 ** 3 } as const;

/** The orders in which the environment may make some of its `moves` (each at most once): Σ k!/(k−i)!. */
export function moveOrders(moves: number): number {
  let total = 1;
  let orders = 1;
  for (let i = 0; i < moves; i++) {
    orders *= moves - i;
    total += orders;
  }
  return total;
}

const count = (n: number) => (Number.isFinite(n) && n < 1e15 ? Math.round(n).toLocaleString('en-US') : 'more than 10¹⁵');

/** What the estimate reads of a scenario: its moves, and which repeat for ever. */
export interface ScenarioMoves {
  timeline: readonly unknown[];
  repeating?: readonly number[] | undefined;
}

/** How large the search may grow, from the scenario alone: its moves and their orders. */
export function searchEstimate(scenario: ScenarioMoves): string {
  const moves = scenario.timeline.length;
  const repeating = scenario.repeating?.length ?? 0;
  const orders = repeating > 0 ? `${repeating} of them repeating for ever` : `${count(moveOrders(moves))} orders of them`;
  return `${moves} timeline move${moves === 1 ? '' : 's'} (${orders}), each at any instant, and no depth bound`;
}

/** The one line said before such a search starts. */
export function notACheckScenarioWarning(file: string, scenario: ScenarioMoves): string {
  const gib = UNMARKED_BOUNDS.maxMemoryBytes / 1024 ** 3;
  return (
    `${file} is not a check scenario (those are named *-check-*.yaml and kept small): ${searchEstimate(scenario)} — ` +
    `the search may not end; stopping at ${count(UNMARKED_BOUNDS.maxStates)} states or ${gib} GiB (exit 3 if reached). ` +
    'Choose the bound with --max-states N or --depth N, or check a scenario made for it (scenarios/*-check-*.yaml)'
  );
}
