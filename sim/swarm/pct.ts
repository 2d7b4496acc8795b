import type { Strategy } from './strategy';
import { tickOr, walk } from './walk';

/**
 * A PCT-style scheduler (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A Randomized Scheduler with
 * Probabilistic Guarantees of Finding Bugs", ASPLOS 2010): the controller runs (time passes) by
 * default, and the environment — the rare party — acts only at d change points drawn uniformly
 * over a horizon of the steps where it can act (its window: SwarmSpace.moveWindow), d and the
 * horizon drawn per seed. At a change point the move acting is the
 * applicable one of highest priority (priorities a random permutation of the moves, as PCT's of
 * its threads); having acted, it drops to the lowest priority, so the next change point prefers
 * a move not yet made. A bug needing d moves at the right moments is found with probability
 * about 1/horizon^d per seed, however many other ways the environment could interleave.
 */
export const pct: Strategy = {
  name: 'pct',
  search(space, rng, budget) {
    const groups = space.expander.groups;
    const total = groups.reduce((n, g) => n + (g.repeats ? 3 : g.count), 0);
    // Half the seeds take the whole window and every move (d = all: PCT's bug depth at its most),
    // the other half a log-uniform horizon and d (a few moves early, or one anywhere).
    const window = space.moveWindow(budget.depth);
    const whole = rng.chance(1, 2);
    const horizon = whole ? window : rng.logScale(window);
    const d = total === 0 ? 0 : whole ? Math.min(total, horizon) : rng.int(1, Math.min(total, horizon));
    const changePoints = new Set<number>();
    while (changePoints.size < d) changePoints.add(rng.int(0, horizon - 1));
    // Lower number, higher priority; a move that acts goes to the back.
    const priority = rng.shuffled(groups.map((_, g) => g));
    let pending = 0; // a change point reached: spent at this step (or, if no move can act, the next that one can)
    let point = 0; // steps so far where the environment could act: change points are counted in these
    return walk(space, budget, (choices) => {
      const moves = choices.filter((c) => c.step.kind === 'env');
      if (moves.length > 0 && changePoints.has(point++)) pending++;
      if ((pending > 0 || moves.length === choices.length) && moves.length > 0) {
        const rank = (order: number) => priority.indexOf(order - 1);
        const chosen = moves.reduce((best, c) => (rank(c.order) < rank(best.order) ? c : best));
        priority.splice(rank(chosen.order), 1);
        priority.push(chosen.order - 1);
        if (pending > 0) pending--;
        return chosen;
      }
      return tickOr(choices);
    });
  },
};
