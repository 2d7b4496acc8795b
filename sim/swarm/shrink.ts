import type { CheckProperty, PathStep } from '../check/model';
import type { SwarmNode, SwarmSpace } from './space';
import { nearestViolation } from './local-bfs';

/** A violating path as short as the shrinker made it, and what the explorer's writer needs of it. */
export interface Shrunk {
  path: PathStep[];
  settleMs?: number;
}

/** What shrinking may spend: states made replaying candidates, and states the closing BFS may visit. */
export interface ShrinkBudget {
  maxSteps: number;
  bfsStates: number;
}
export const SHRINK_BUDGET: ShrinkBudget = { maxSteps: 400_000, bfsStates: 5000 };

/**
 * Shrinks a violating path. Every candidate is replayed from the start state (the stepper is pure,
 * so the current path's states are kept and only a candidate's changed suffix is stepped), steps
 * no longer possible are dropped, and the candidate is cut at its first violating state: it is
 * kept only when strictly shorter. Greedy passes, until none shortens the path, try: dropping
 * each environment move; delta debugging over the steps up to the last move (chunks of half,
 * a quarter … one step: a move made earlier); moving each move one step earlier or later. Then a
 * bounded breadth-first search from the states nearest the violation looks for a shorter ending.
 */
export function shrink(
  space: SwarmSpace,
  property: CheckProperty<unknown, unknown>,
  path: readonly PathStep[],
  budget: ShrinkBudget = SHRINK_BUDGET,
): Shrunk {
  const until = space.steps + budget.maxSteps;
  let best = replay(space, property, [space.initial()], path, 0);
  if (!best) throw new Error(`swarm: the path found for ${property.name} does not violate it when replayed`);
  const tryCandidate = (candidate: PathStep[], from: number): boolean => {
    if (space.steps >= until) return false;
    const result = replay(space, property, best!.nodes, candidate, from);
    if (!result || result.path.length >= best!.path.length) return false;
    best = result;
    return true;
  };
  for (let improved = true; improved && space.steps < until;) {
    improved = false;
    const p = best.path;
    // Drop a move (from the last: later moves are more often the superfluous ones).
    for (let i = p.length - 1; i >= 0 && !improved; i--)
      if (p[i]!.kind === 'env') improved = tryCandidate([...p.slice(0, i), ...p.slice(i + 1)], i);
    if (improved) continue;
    // Delta debugging over the steps before the last move: what follows it is the quiet run the violation needs.
    const lastMove = p.findLastIndex((s) => s.kind === 'env');
    for (let size = Math.max(1, lastMove >> 1); size >= 1 && !improved; size = size === 1 ? 0 : Math.max(1, size >> 1)) {
      for (let i = 0; i + size <= lastMove + 1 && !improved; i += size)
        improved = tryCandidate([...p.slice(0, i), ...p.slice(i + size)], i);
    }
    if (improved) continue;
    // A move one step earlier or later.
    for (let i = 0; i < p.length && !improved; i++) {
      if (p[i]!.kind !== 'env') continue;
      if (i > 0) improved = tryCandidate([...p.slice(0, i - 1), p[i]!, p[i - 1]!, ...p.slice(i + 1)], i - 1);
      if (!improved && i + 1 < p.length) improved = tryCandidate([...p.slice(0, i), p[i + 1]!, p[i]!, ...p.slice(i + 2)], i);
    }
  }
  // A shorter ending from a state on the path, nearest the violation first.
  let bfsLeft = budget.bfsStates;
  for (let at = best.path.length - 1; at >= 0 && bfsLeft > 0; at--) {
    const room = best.path.length - at - 1; // an ending of at most this many steps is shorter
    if (room <= 0) continue;
    const ending = nearestViolation(space, property, best.nodes[at]!, room, Math.min(bfsLeft, budget.bfsStates >> 2));
    bfsLeft -= ending.visited;
    if (ending.path) {
      const candidate = [...best.path.slice(0, at), ...ending.path];
      const result = replay(space, property, best.nodes, candidate, at);
      if (result && result.path.length < best.path.length) {
        best = result;
        at = best.path.length;
      }
    }
  }
  return { path: best.path, ...(best.settleMs !== undefined ? { settleMs: best.settleMs } : {}) };
}

interface Replayed {
  path: PathStep[];
  nodes: SwarmNode[];
  settleMs?: number;
}

/**
 * Replays `path` from state `from` of `known` (the states along a path sharing its first `from`
 * steps, none of them violating), dropping steps not possible, up to the first violating state.
 */
function replay(
  space: SwarmSpace,
  property: CheckProperty<unknown, unknown>,
  known: readonly SwarmNode[],
  path: readonly PathStep[],
  from: number,
): Replayed | undefined {
  const nodes = known.slice(0, from + 1);
  const out = path.slice(0, from);
  if (from === 0) {
    const broken = space.breaks(nodes[0]!, property);
    if (broken) return { path: [], nodes, ...(broken.settleMs !== undefined ? { settleMs: broken.settleMs } : {}) };
  }
  let node = nodes[from]!;
  for (let i = from; i < path.length; i++) {
    const step = path[i]!;
    const choice = space.choiceFor(node, step);
    if (!choice) continue;
    node = space.take(node, choice);
    out.push(step);
    nodes.push(node);
    // Eventually-properties are judged where the environment stops: after a move (a tick only shortens the settle time).
    if (property.kind === 'eventually' && step.kind === 'tick') continue;
    const broken = space.breaks(node, property);
    if (broken) return { path: out, nodes, ...(broken.settleMs !== undefined ? { settleMs: broken.settleMs } : {}) };
  }
  return undefined;
}
