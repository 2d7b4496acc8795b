import type { Language } from '../i18n/messages';
import type { ChartGraph } from '../statechart/graph';
import { activeIds, lastEdge } from '../statechart/graph';
import { phaseWord } from '../statechart/labels';
import { EDGE_FONT_PX, NODE_FONT_PX } from '../statechart/layout';
import type { Layout } from '../statechart/layout';
import { absoluteBoxes, union } from '../statechart/viewport';
import { COLOURS, phaseColour, svgDocument, xml } from './svg';

export interface StatechartSvgOptions {
  /** The active state (a frame's `state`, dotted) and the one before it (its edge is drawn as taken). */
  state: string;
  previousState?: string | undefined;
  /** A line above the chart: the machine, the scenario, the time. */
  caption: string;
  /** The language of the states' and edges' words (labelGraph); English when absent. */
  lang?: Language;
}

const PAD = 16;
const CAPTION = 36;

/**
 * The lab's statechart as one standalone SVG (same layout, same type sizes, the active state lit and the
 * last edge taken drawn like the lab does), for slides. Pure: the lab and the CLI both call it.
 */
export function statechartSvg(graph: ChartGraph, layout: Layout, o: StatechartSvgOptions): { svg: string; width: number; height: number } {
  const boxes = absoluteBoxes(graph, layout);
  const labelBoxes = [...layout.edges.values()].flatMap((e) => (e.label ? [e.label] : []));
  const all = union([...boxes.values(), ...labelBoxes]) ?? { x: 0, y: 0, width: 100, height: 60 };
  const dx = PAD - all.x,
    dy = PAD + CAPTION - all.y;
  const width = all.width + 2 * PAD,
    height = all.height + 2 * PAD + CAPTION;
  const active = activeIds(graph.rootId, o.state);
  const taken =
    o.previousState !== undefined && o.previousState !== o.state
      ? lastEdge(graph, activeIds(graph.rootId, o.previousState), active)
      : undefined;

  const out: string[] = [];
  out.push(`<text x="${PAD}" y="${PAD + 18}" font-size="18" font-weight="700" fill="${COLOURS.fg}">${xml(o.caption)}</text>`);
  out.push(
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${COLOURS.path}"/></marker>` +
      `<marker id="arrow-last" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${COLOURS.act}"/></marker></defs>`,
  );
  out.push(`<g transform="translate(${dx} ${dy})">`);
  // Parents before children (compound frames underneath), as the lab's z-order.
  const depth = (id: string) => id.split('.').length;
  for (const n of [...graph.nodes].sort((a, b) => Number(b.compound) - Number(a.compound) || depth(a.id) - depth(b.id))) {
    const b = boxes.get(n.id);
    if (!b) continue;
    const on = active.has(n.id);
    const tag = n.tags[0];
    const stroke = on ? phaseColour(tag) : COLOURS.line;
    const fill = n.compound ? COLOURS.compound : on ? COLOURS.activeFill : COLOURS.card;
    const cx = b.x + b.width / 2;
    out.push(`<g data-state="${xml(n.id)}"${on ? ' data-active="true"' : ''}>`);
    out.push(
      `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" rx="10" fill="${fill}" stroke="${stroke}" stroke-width="${on ? 3 : 2}"/>`,
    );
    const labelY = n.compound ? b.y + 8 + NODE_FONT_PX : b.y + b.height / 2 - (tag ? 2 : -NODE_FONT_PX / 3);
    out.push(
      `<text x="${cx}" y="${labelY}" text-anchor="middle" font-size="${NODE_FONT_PX}"${on ? ' font-weight="700"' : ''} fill="${COLOURS.fg}">${n.initial ? '● ' : ''}${xml(n.text?.[o.lang ?? 'en'] ?? n.label)}</text>`,
    );
    if (tag)
      out.push(
        `<text x="${cx}" y="${labelY + 15}" text-anchor="middle" font-size="12" letter-spacing="0.6" fill="${on ? phaseColour(tag) : COLOURS.muted}">${xml(phaseWord(tag, o.lang ?? 'en').toUpperCase())}</text>`,
      );
    out.push('</g>');
  }
  for (const e of graph.edges) {
    const r = layout.edges.get(e.id);
    if (!r || r.points.length < 2) continue;
    const last = e.id === taken;
    const d = r.points.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' ');
    out.push(
      `<path d="${d}" fill="none" stroke="${last ? COLOURS.act : COLOURS.path}" stroke-width="${last ? 3 : 1.5}"${last ? ' stroke-dasharray="8 4"' : ''} marker-end="url(#${last ? 'arrow-last' : 'arrow'})"/>`,
    );
  }
  // Labels last: they sit on top of every line, on a light plate, as in the lab.
  for (const e of graph.edges) {
    const l = layout.edges.get(e.id)?.label;
    if (!l || !e.label) continue;
    const last = e.id === taken;
    out.push(`<rect x="${l.x}" y="${l.y}" width="${l.width}" height="${l.height}" fill="#ffffff" fill-opacity="0.85"/>`);
    out.push(
      `<text x="${l.x + l.width / 2}" y="${l.y + l.height / 2 + EDGE_FONT_PX / 3}" text-anchor="middle" font-size="${EDGE_FONT_PX}"${last ? ` font-weight="700" fill="${COLOURS.act}"` : ` fill="${COLOURS.muted}"`}>${xml(e.text?.[o.lang ?? 'en'] ?? e.label)}</text>`,
    );
  }
  out.push('</g>');
  return { svg: svgDocument(width, height, out.join('\n') + '\n', o.caption), width: Math.ceil(width), height: Math.ceil(height) };
}
