import type { AnyStateMachine } from 'xstate';
import type { DirectedGraphNode } from 'xstate/graph';
import { toDirectedGraph } from 'xstate/graph';
import type { Text } from '../i18n/statechart-labels/types';

export interface ChartNode {
  id: string;
  /** The state's key (its name in the machine). */
  label: string;
  /** What the chart shows, per language (labels.ts); the key when a loop has no label for it. */
  text?: Text;
  parent: string | null;
  compound: boolean;
  tags: string[];
  initial: boolean;
}

export interface ChartEdge {
  id: string;
  source: string;
  target: string;
  /** The machine's ids: "after compareTime [hasActions]" (the tooltip, and the CLI's words). */
  label: string;
  /** The transition's event type ('' for an eventless `always`) and its guard, as the machine has them. */
  event: string;
  guard?: { type: string; params?: unknown };
  /** What the chart shows, per language (labels.ts). */
  text?: Text;
}

export interface ChartGraph {
  rootId: string;
  nodes: ChartNode[];
  edges: ChartEdge[];
}

type Transition = DirectedGraphNode['edges'][number]['transition'];

/** "xstate.after.period.incus-hpa.waiting" → "after period"; "xstate.done.actor.observe" → "done observe". */
export function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return `after ${after[1]}`;
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor) return `${actor[1]} ${actor[2]}`;
  return eventType;
}

function guardOf(t: Transition): { type: string; params?: unknown } | undefined {
  const g = t.guard as { type?: unknown; params?: unknown } | string | undefined; // xstate types it as a guard union: read the plain name or object it holds
  if (typeof g === 'string') return { type: g };
  return typeof g === 'object' && typeof g?.type === 'string'
    ? { type: g.type, ...(g.params !== undefined ? { params: g.params } : {}) }
    : undefined;
}

/**
 * The statechart as plain nodes and edges, read from the machine itself (xstate/graph's
 * toDirectedGraph, plus eventless `always` transitions, which it leaves out).
 * Targetless transitions (e.g. CONFIG.UPDATE on the root) change context, not state: not drawn.
 */
export function machineGraph(machine: AnyStateMachine): ChartGraph {
  const root = toDirectedGraph(machine);
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  const addEdge = (source: string, t: Transition, i: number) => {
    for (const target of t.target ?? []) {
      if (target.id === root.id) continue;
      const guard = guardOf(t);
      edges.push({
        id: `${source}#${i}:${target.id}`,
        source,
        target: target.id,
        label: eventLabel(t.eventType) + (guard ? ` [${guard.type}]` : ''),
        event: t.eventType,
        ...(guard ? { guard } : {}),
      });
    }
  };
  const walk = (n: DirectedGraphNode, parent: string | null) => {
    const sn = n.stateNode;
    if (n.id !== root.id) {
      const parentNode = sn.parent;
      nodes.push({
        id: n.id,
        label: sn.key,
        parent,
        compound: n.children.length > 0,
        tags: [...sn.tags],
        initial: parentNode?.initial?.target?.some((t) => t.id === n.id) ?? false,
      });
      n.edges.forEach((e, i) => addEdge(n.id, e.transition, i));
      (sn.always ?? []).forEach((t, i) => addEdge(n.id, t, 1000 + i));
    }
    for (const c of n.children) walk(c, n.id === root.id ? null : n.id);
  };
  walk(root, null);
  return { rootId: root.id, nodes, edges };
}

/** The ids of the states active in a frame: "acting.creating" → [root.acting, root.acting.creating]. */
export function activeIds(rootId: string, dotted: string): Set<string> {
  const out = new Set<string>();
  let path = rootId;
  for (const part of dotted.split('.')) {
    if (!part) continue;
    path = `${path}.${part}`;
    out.add(path);
  }
  return out;
}

/** The edge most likely taken from `previous` to `current` (deepest source first). */
export function lastEdge(graph: ChartGraph, previous: Set<string>, current: Set<string>): string | undefined {
  let best: { id: string; depth: number } | undefined;
  for (const e of graph.edges) {
    if (!previous.has(e.source) || !current.has(e.target) || e.source === e.target) continue;
    const depth = e.source.split('.').length;
    if (!best || depth > best.depth) best = { id: e.id, depth };
  }
  return best?.id;
}
