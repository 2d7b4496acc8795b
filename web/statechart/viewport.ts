import type { ChartGraph } from './graph';
import type { Layout } from './layout';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** Every node's box in absolute chart coordinates (the layout places children relative to their parent). */
export function absoluteBoxes(graph: ChartGraph, layout: Layout): Map<string, Box> {
  const out = new Map<string, Box>();
  const parentOf = new Map(graph.nodes.map((n) => [n.id, n.parent]));
  const place = (id: string): Box | undefined => {
    const known = out.get(id);
    if (known) return known;
    const p = layout.nodes.get(id);
    if (!p) return undefined;
    const parent = parentOf.get(id);
    const origin = parent ? place(parent) : undefined;
    const box = { x: p.x + (origin?.x ?? 0), y: p.y + (origin?.y ?? 0), width: p.width, height: p.height };
    out.set(id, box);
    return box;
  };
  for (const n of graph.nodes) place(n.id);
  return out;
}

export function union(boxes: Box[]): Box | undefined {
  if (!boxes.length) return undefined;
  const x0 = Math.min(...boxes.map((b) => b.x)),
    y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)),
    y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The deepest active state and the states one transition away from it: what "follow" frames. */
export function neighbourhood(graph: ChartGraph, active: Set<string>): { focus: string | undefined; around: string[] } {
  const compound = new Set(graph.nodes.filter((n) => n.compound).map((n) => n.id));
  const focus = [...active].filter((id) => !compound.has(id)).sort((a, b) => b.length - a.length)[0] ?? [...active].at(-1);
  if (!focus) return { focus, around: [] };
  const around = new Set<string>([focus]);
  for (const e of graph.edges) {
    if (e.source === focus && !compound.has(e.target)) around.add(e.target);
    if (e.target === focus && !compound.has(e.source)) around.add(e.source);
  }
  return { focus, around: [...around] };
}

/** Fits `box` into a w×h canvas with `pad` px each side, zoom clamped to [min, max]. When the
 * clamp leaves the box larger than the canvas, `anchor` (the active state) is centred instead. */
export function fitBox(box: Box, w: number, h: number, pad: number, min: number, max: number, anchor?: Box): Viewport {
  const zoom = Math.max(min, Math.min(max, (w - 2 * pad) / box.width, (h - 2 * pad) / box.height));
  const fits = box.width * zoom <= w - 2 * pad + 1 && box.height * zoom <= h - 2 * pad + 1;
  const c = fits || !anchor ? box : anchor;
  const cx = c.x + c.width / 2,
    cy = c.y + c.height / 2;
  return { x: w / 2 - cx * zoom, y: h / 2 - cy * zoom, zoom };
}
