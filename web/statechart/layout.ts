import type { ELK as ElkApi, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { ChartGraph } from './graph';

export interface Placed {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
/** An edge as ELK routed it, in absolute coordinates, with its label's box. */
export interface Routed {
  id: string;
  points: Point[];
  label?: { x: number; y: number; width: number; height: number };
}
export interface Layout {
  nodes: Map<string, Placed>;
  edges: Map<string, Routed>;
}

/** The layout as plain JSON (what the build step hands to the page). */
export interface SerializedLayout {
  nodes: Placed[];
  edges: Routed[];
}

export const serializeLayout = (l: Layout): SerializedLayout => ({ nodes: [...l.nodes.values()], edges: [...l.edges.values()] });
export const deserializeLayout = (s: SerializedLayout): Layout => ({
  nodes: new Map(s.nodes.map((n) => [n.id, n])),
  edges: new Map(s.edges.map((e) => [e.id, e])),
});

// Boxes sized for the lab's type at zoom 1 (styles.css .sc-label 16 px bold, .sc-edge-label 14 px):
// a presenter's zoom-to-active view shows the chart at zoom ≥ 1, so text is never smaller than that.
export const NODE_FONT_PX = 16;
export const EDGE_FONT_PX = 14;
const LEAF_HEIGHT = 60;
const leafWidth = (label: string) => Math.max(130, Math.ceil(label.length * NODE_FONT_PX * 0.68) + 44);
const labelSize = (text: string) => ({ width: Math.ceil(text.length * EDGE_FONT_PX * 0.62) + 12, height: EDGE_FONT_PX + 6 });
/** One layout serves every language: each box is sized for the longest of the texts it may show. */
const longest = (x: { label: string; text?: Record<string, string> }) =>
  x.text ? Object.values(x.text).reduce((a, b) => (b.length > a.length ? b : a), '') : x.label;

/**
 * Lays the statechart out with ELK's layered algorithm: compound states contain their children,
 * edges are routed orthogonally with room for their labels. Node positions are relative to their
 * parent (as @xyflow/react's parentId expects); edge points are absolute.
 */
export async function layoutGraph(elk: ElkApi, graph: ChartGraph): Promise<Layout> {
  const elkNodes = new Map<string, ElkNode>();
  for (const n of graph.nodes) {
    elkNodes.set(
      n.id,
      n.compound
        ? { id: n.id, children: [], layoutOptions: { 'elk.padding': '[top=48,left=20,bottom=20,right=20]' } }
        : { id: n.id, width: leafWidth(longest(n)), height: LEAF_HEIGHT },
    );
  }
  const top: ElkNode[] = [];
  for (const n of graph.nodes) {
    const node = elkNodes.get(n.id)!;
    if (n.parent) elkNodes.get(n.parent)!.children!.push(node);
    else top.push(node);
  }
  const laid = await elk.layout({
    id: graph.rootId,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.spacing.nodeNodeBetweenLayers': '60',
      'elk.spacing.nodeNode': '40',
      'elk.spacing.edgeLabel': '6',
    },
    children: top,
    edges: graph.edges.map((e) => ({
      id: e.id,
      sources: [e.source],
      targets: [e.target],
      labels: [{ text: longest(e), ...labelSize(longest(e)) }],
    })),
  });

  const nodes = new Map<string, Placed>();
  const absolute = new Map<string, Point>([[graph.rootId, { x: 0, y: 0 }]]);
  const edges = new Map<string, Routed>();
  const collect = (n: ElkNode, origin: Point) => {
    for (const c of n.children ?? []) {
      const p = { id: c.id, x: c.x ?? 0, y: c.y ?? 0, width: c.width ?? 100, height: c.height ?? LEAF_HEIGHT };
      nodes.set(c.id, p);
      const abs = { x: origin.x + p.x, y: origin.y + p.y };
      absolute.set(c.id, abs);
      collect(c, abs);
    }
  };
  collect(laid, { x: 0, y: 0 });
  // Each routed edge is relative to its container (the node ELK moved it into).
  const routeAll = (n: ElkNode) => {
    const routed = (n.edges ?? []) as (ElkExtendedEdge & { container?: string })[]; // cast: elkjs adds container to laid-out edges
    for (const e of routed) {
      const o = absolute.get(e.container ?? n.id) ?? { x: 0, y: 0 };
      const s = e.sections?.[0];
      if (!s) continue;
      const points = [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].map((p) => ({ x: p.x + o.x, y: p.y + o.y }));
      const l = e.labels?.[0];
      edges.set(e.id, {
        id: e.id,
        points,
        ...(l ? { label: { x: (l.x ?? 0) + o.x, y: (l.y ?? 0) + o.y, width: l.width ?? 0, height: l.height ?? 0 } } : {}),
      });
    }
    for (const c of n.children ?? []) routeAll(c);
  };
  routeAll(laid);
  return { nodes, edges };
}
