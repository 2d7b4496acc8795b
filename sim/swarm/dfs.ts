import type { PathStep } from '../check/model';
import type { Choice, SwarmNode } from './space';
import type { Strategy } from './strategy';
import { Judge } from './strategy';

/** How deep a DFS may go: deep counterexamples are the walks' (a DFS that deep only goes down one branch). */
const DFS_DEPTH = 64;

/**
 * A bounded-depth depth-first search with the successors in random order: it covers the states
 * near the start densely (a visited set of its own) in an order the seed chooses, so different
 * seeds reach different corners first within the step budget. The bound is drawn per seed,
 * log-uniform in [1, min(depth, 64)]: shallow searches cover their depth completely.
 */
export const dfs: Strategy = {
  name: 'dfs',
  search(space, rng, budget) {
    const judge = new Judge(space);
    const bound = rng.logScale(Math.min(budget.depth, DFS_DEPTH));
    const until = space.steps + budget.maxSteps;
    const visited = new Map<string, number>(); // hash → the shallowest depth it was expanded at
    const path: PathStep[] = [];
    const start = space.initial();
    if (judge.visit(start, path)) return judge.findings;
    const frames: { node: SwarmNode; next: Choice[] }[] = [];
    const enter = (node: SwarmNode) => {
      frames.push({ node, next: path.length < bound ? rng.shuffled(space.choices(node)) : [] });
    };
    visited.set(space.hash(start), 0);
    enter(start);
    while (frames.length > 0 && space.steps < until) {
      const top = frames[frames.length - 1]!;
      const choice = top.next.pop();
      if (!choice) {
        frames.pop();
        path.pop();
        continue;
      }
      const child = space.take(top.node, choice);
      const h = space.hash(child);
      const depth = path.length + 1;
      const seenAt = visited.get(h);
      if (seenAt !== undefined && seenAt <= depth) continue;
      visited.set(h, depth);
      path.push(choice.step);
      if (judge.visit(child, path)) break;
      enter(child);
    }
    return judge.findings;
  },
};
