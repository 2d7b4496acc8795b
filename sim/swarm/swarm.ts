import type { PreparedCheck } from '../check/check';
import type { PathStep } from '../check/model';
import { quietStacks } from '../check/explorer';
import { SwarmRandom } from './prng';
import { dfs } from './dfs';
import { pct } from './pct';
import { randomWalk } from './random-walk';
import type { Shrunk } from './shrink';
import { shrink } from './shrink';
import { SwarmSpace } from './space';
import type { SearchBudget, Strategy, StrategyName } from './strategy';
import { STRATEGY_NAMES } from './strategy';

const STRATEGIES: Record<StrategyName, Strategy> = { 'random-walk': randomWalk, dfs, pct };

/** `--strategy`: one of them for every seed, or `rotate` (the default): seed s runs STRATEGY_NAMES[s mod 3]. */
export type StrategyChoice = StrategyName | 'rotate';
export const strategyOf = (choice: StrategyChoice, seed: number): StrategyName =>
  choice === 'rotate' ? STRATEGY_NAMES[seed % STRATEGY_NAMES.length]! : choice;

/** Per search: depth 1,000 steps (the longest shipped counterexample is 572), 2,000 states. */
export const DEFAULT_BUDGET: SearchBudget = { depth: 1000, maxSteps: 2000 };

/** How many of a property's findings are shrunk before only shorter ones are: shrinking costs far more than finding. */
const SHRINK_FIRST = 3;

export interface SwarmOptions {
  seeds: readonly number[];
  strategy?: StrategyChoice;
  budget?: SearchBudget;
  /** Start no new seed past this many ms (the seeds not run are not covered: merge names them). */
  timeLimitMs?: number;
  /** Start no new seed once this returns true (Ctrl-C). */
  stopped?: () => boolean;
  /** Stop once these properties all have a counterexample; 'any': at the first violation (the bench's time to first violation). */
  untilFound?: readonly string[] | 'any';
}

export interface SeedRecord {
  seed: number;
  strategy: StrategyName;
  states: number;
  found: string[];
}

/** The shortest counterexample the swarm has for one property. */
export interface SwarmViolation {
  property: string;
  kind: 'always' | 'eventually';
  seed: number;
  strategy: StrategyName;
  /** Length of the path the search found, before shrinking. */
  foundLength: number;
  path: PathStep[];
  settleMs?: number;
  /** How many seeds found this property violated. */
  seeds: number;
}

export interface SwarmRun {
  seeds: SeedRecord[];
  violations: SwarmViolation[];
  /** States made by the searches and by shrinking. */
  states: number;
  timeMs: number;
  /** Time until the first seed that found a violation had run (not shrunk), if one did. */
  firstViolationMs?: number;
  /** Whether the time limit or a signal stopped it before every seed ran. */
  stoppedEarly: boolean;
}

/** Between seeds, the event loop gets a turn about this often (a signal can stop the swarm). */
const SLICE_MS = 50;

/** Runs one search per seed, shrinks what they find, and keeps the shortest counterexample per property. */
export async function runSwarm(prepared: PreparedCheck, options: SwarmOptions): Promise<SwarmRun> {
  const space = new SwarmSpace(prepared);
  const budget = options.budget ?? DEFAULT_BUDGET;
  const began = performance.now();
  const seeds: SeedRecord[] = [];
  const best = new Map<string, SwarmViolation>();
  const shrunkFound = new Map<string, { count: number; shortestFound: number }>();
  let firstViolationMs: number | undefined;
  let stoppedEarly = false;
  let slice = performance.now();
  for (const seed of options.seeds) {
    if (performance.now() - slice >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    const ran = quietStacks(() => {
      if ((options.timeLimitMs !== undefined && performance.now() - began >= options.timeLimitMs) || options.stopped?.()) {
        stoppedEarly = true;
        return 'stop';
      }
      const strategy = strategyOf(options.strategy ?? 'rotate', seed);
      const before = space.steps;
      const findings = STRATEGIES[strategy].search(space, new SwarmRandom(seed), budget);
      seeds.push({ seed, strategy, states: space.steps - before, found: findings.map((f) => f.property.name) });
      if (findings.length > 0) firstViolationMs ??= performance.now() - began;
      for (const f of findings) {
        const name = f.property.name;
        const kind = f.property.kind === 'always' ? 'always' : 'eventually';
        const known = best.get(name);
        if (known) known.seeds++;
        const tally = shrunkFound.get(name) ?? { count: 0, shortestFound: Number.POSITIVE_INFINITY };
        if (tally.count >= SHRINK_FIRST && f.path.length >= tally.shortestFound) continue;
        shrunkFound.set(name, { count: tally.count + 1, shortestFound: Math.min(tally.shortestFound, f.path.length) });
        const shrunk: Shrunk = shrink(space, f.property, f.path);
        if (!known || shrunk.path.length < known.path.length) {
          best.set(name, {
            property: name,
            kind,
            seed,
            strategy,
            foundLength: f.path.length,
            path: shrunk.path,
            ...(shrunk.settleMs !== undefined ? { settleMs: shrunk.settleMs } : {}),
            seeds: known?.seeds ?? 1,
          });
        }
      }
      const until = options.untilFound;
      if (until && (until === 'any' ? best.size > 0 : until.every((name) => best.has(name)))) {
        stoppedEarly = seeds.length < options.seeds.length;
        return 'stop';
      }
      return 'next';
    });
    if (ran === 'stop') break;
  }
  const order = prepared.properties.map((p) => p.name);
  return {
    seeds,
    violations: [...best.values()].sort((a, b) => order.indexOf(a.property) - order.indexOf(b.property)),
    states: space.steps + space.quietSteps,
    timeMs: performance.now() - began,
    ...(firstViolationMs !== undefined ? { firstViolationMs } : {}),
    stoppedEarly,
  };
}
