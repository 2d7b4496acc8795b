import type { CheckProperty, PathStep } from '../check/model';
import type { SwarmNode, SwarmSpace } from './space';

/**
 * Breadth-first from `start` (a state that does not violate `property`) for the shortest path of
 * at most `maxDepth` steps to a state that does, visiting at most `maxStates` states: the
 * shrinker's last pass, near the violation, where the space is small.
 */
export function nearestViolation(
  space: SwarmSpace,
  property: CheckProperty<unknown, unknown>,
  start: SwarmNode,
  maxDepth: number,
  maxStates: number,
): { path?: PathStep[]; visited: number } {
  const seen = new Set<string>([space.hash(start)]);
  let level: { node: SwarmNode; path: PathStep[] }[] = [{ node: start, path: [] }];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { node, path } of level) {
      for (const choice of space.choices(node)) {
        if (seen.size >= maxStates) return { visited: seen.size };
        const child = space.take(node, choice);
        const h = space.hash(child);
        if (seen.has(h)) continue;
        seen.add(h);
        const childPath = [...path, choice.step];
        if ((property.kind === 'always' || choice.step.kind === 'env') && space.breaks(child, property))
          return { path: childPath, visited: seen.size };
        next.push({ node: child, path: childPath });
      }
    }
    level = next;
  }
  return { visited: seen.size };
}
