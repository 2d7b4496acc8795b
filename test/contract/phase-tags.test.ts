import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { LOOPS } from '../../sim/loops/registry';
import { PHASES } from '../../sim/trace';

/** Every leaf state, with the distinct phase tags on it and on its ancestors (the snapshot's tag set there). */
function leaves(node: AnyStateNode, inherited: string[] = []): { path: string; phases: string[] }[] {
  const phases = [...new Set([...inherited, ...node.tags.filter((t) => (PHASES as readonly string[]).includes(t))])];
  const children = Object.values(node.states);
  if (children.length === 0) return [{ path: node.path.join('.') || '(root)', phases }];
  return children.flatMap((child) => leaves(child, phases));
}

describe('every state of every loop carries exactly one phase tag (observe / compare / act / wait / error)', () => {
  for (const [loop, entry] of Object.entries(LOOPS)) {
    it(loop, () => {
      const root: AnyStateNode = entry.binding.machine.root;
      expect(root.type, `${loop}: parallel regions would need their phases combined`).not.toBe('parallel');
      const wrong = leaves(root)
        .filter((l) => l.phases.length !== 1)
        .map((l) => `${l.path}: [${l.phases.join(', ')}]`);
      expect(wrong).toEqual([]);
    });
  }
});
