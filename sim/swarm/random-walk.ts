import type { SwarmRandom } from './prng';
import type { Strategy } from './strategy';
import { tickOr, walk } from './walk';

/**
 * A random walk. Each seed draws how often the environment acts — a move with probability
 * 1/rate at each step where it can, rate log-uniform in [1, the environment's window] — so some
 * walks crowd their moves together and others spread them over a long run (a cron job's clock
 * change must fall in the few minutes before its `at`; a Deployment's watch delay, anywhere in a
 * rollout).
 */
export const randomWalk: Strategy = {
  name: 'random-walk',
  search(space, rng: SwarmRandom, budget) {
    const rate = rng.logScale(space.moveWindow(budget.depth));
    return walk(space, budget, (choices) => {
      const moves = choices.filter((c) => c.step.kind === 'env');
      if (moves.length > 0 && (moves.length === choices.length || rng.chance(1, rate))) return rng.pick(moves);
      return tickOr(choices);
    });
  },
};
