import type { Frame } from '../../sim/trace';
import type { ChartSpec } from '../worlds/chart-types';
import { TIME_INCREMENTS, tickLabels } from '../worlds/timeAxis';
import { COLOURS, svgDocument, xml } from './svg';

export interface ChartSvgOptions {
  /** Number formatting (the UI language). */
  lang: string;
  caption: string;
  /** The moment on screen (ms): a vertical marker, as in the lab. */
  at?: number;
  width?: number;
  height?: number;
}

const M = { left: 56, right: 56, top: 74, bottom: 40 };

/** The smallest of the lab's tick spacings that gives at most `max` ticks over `span` seconds. */
function increment(span: number, max: number): number {
  return TIME_INCREMENTS.find((i) => span / i <= max) ?? TIME_INCREMENTS.at(-1)!;
}

/** "Nice" ticks for a count axis from 0 to max. */
function countTicks(max: number): number[] {
  const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000].find((s) => max / s <= 6) ?? Math.ceil(max / 6);
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(v);
  return out;
}

/**
 * A loop's "over time" chart as one standalone SVG: the same series as the lab's FrameChart (chartSpecs.ts), as
 * steps (a value holds until the next frame), counts on the left axis, percentages on the right, time ticks
 * at the lab's spacings, the legend on top and the frame on screen marked. Pure: the lab and the CLI call it.
 */
export function chartSvg(frames: readonly Frame[], spec: ChartSpec, o: ChartSvgOptions): { svg: string; width: number; height: number } {
  const width = o.width ?? 960,
    height = o.height ?? 360;
  const plotW = width - M.left - M.right,
    plotH = height - M.top - M.bottom;
  const end = Math.max(frames.at(-1)?.t ?? 0, o.at ?? 0, 1000) / 1000;
  const values = frames.map((f) => spec.valuesOf(f));
  const hasPct = spec.series.some((s) => s.scale === 'pct');
  const maxN = Math.max(
    2,
    ...values.flatMap((v) => v.filter((x, i): x is number => x !== null && spec.series[i]?.scale !== 'pct')).map((x) => x + 1),
  );
  const x = (sec: number) => M.left + (sec / end) * plotW;
  const y = (v: number, scale: 'n' | 'pct' | undefined) => M.top + plotH - (v / (scale === 'pct' ? 100 : maxN)) * plotH;
  const num = (v: number) => v.toLocaleString(o.lang, { maximumFractionDigits: 1 });

  const out: string[] = [];
  out.push(`<text x="${M.left}" y="24" font-size="18" font-weight="700" fill="${COLOURS.fg}">${xml(o.caption)}</text>`);
  // Legend: one swatch and label per series, left to right.
  let lx = M.left;
  for (const s of spec.series) {
    out.push(
      `<line x1="${lx}" y1="48" x2="${lx + 24}" y2="48" stroke="${s.stroke}" stroke-width="3"${s.dash ? ` stroke-dasharray="${s.dash.join(' ')}"` : ''}/>`,
    );
    out.push(`<text x="${lx + 30}" y="53" font-size="14" fill="${COLOURS.fg}">${xml(s.label)}</text>`);
    lx += 30 + Math.ceil(s.label.length * 14 * 0.6) + 24;
  }
  // Axes and grid.
  const inc = increment(end, 8);
  const splits: number[] = [];
  for (let s = 0; s <= end + 1e-9; s += inc) splits.push(Math.round(s * 1000) / 1000);
  const labels = tickLabels(splits, o.lang);
  splits.forEach((s, i) => {
    out.push(`<line x1="${x(s)}" y1="${M.top}" x2="${x(s)}" y2="${M.top + plotH}" stroke="${COLOURS.line}" stroke-width="1"/>`);
    out.push(
      `<text x="${x(s)}" y="${M.top + plotH + 20}" text-anchor="middle" font-size="13" fill="${COLOURS.muted}">${xml(labels[i]!)}</text>`,
    );
  });
  for (const v of countTicks(maxN)) {
    out.push(`<text x="${M.left - 8}" y="${y(v, 'n') + 4}" text-anchor="end" font-size="13" fill="${COLOURS.muted}">${xml(num(v))}</text>`);
    if (!hasPct)
      out.push(
        `<line x1="${M.left}" y1="${y(v, 'n')}" x2="${M.left + plotW}" y2="${y(v, 'n')}" stroke="${COLOURS.line}" stroke-width="1"/>`,
      );
  }
  if (hasPct)
    for (const v of [0, 25, 50, 75, 100]) {
      out.push(
        `<line x1="${M.left}" y1="${y(v, 'pct')}" x2="${M.left + plotW}" y2="${y(v, 'pct')}" stroke="${COLOURS.line}" stroke-width="1"/>`,
      );
      out.push(`<text x="${M.left + plotW + 8}" y="${y(v, 'pct') + 4}" font-size="13" fill="${COLOURS.muted}">${xml(`${num(v)}%`)}</text>`);
    }
  out.push(`<rect x="${M.left}" y="${M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="${COLOURS.muted}" stroke-width="1"/>`);
  // Series as steps: each value holds until the next frame; a null breaks the line.
  spec.series.forEach((s, si) => {
    const parts: string[] = [];
    let open = false;
    frames.forEach((f, fi) => {
      const v = values[fi]![si] ?? null;
      if (v === null) {
        open = false;
        return;
      }
      const px = x(f.t / 1000),
        py = y(v, s.scale);
      parts.push(open ? `H${px.toFixed(1)} V${py.toFixed(1)}` : `M${px.toFixed(1)},${py.toFixed(1)}`);
      open = true;
    });
    if (open) parts.push(`H${x(Math.max(frames.at(-1)!.t / 1000, (o.at ?? 0) / 1000)).toFixed(1)}`);
    if (parts.length)
      out.push(
        `<path data-series="${xml(s.label)}" d="${parts.join(' ')}" fill="none" stroke="${s.stroke}" stroke-width="${s.dash ? 1.5 : 2.5}"${s.dash ? ` stroke-dasharray="${s.dash.join(' ')}"` : ''}/>`,
      );
  });
  if (o.at !== undefined)
    out.push(
      `<line data-marker="now" x1="${x(o.at / 1000)}" y1="${M.top}" x2="${x(o.at / 1000)}" y2="${M.top + plotH}" stroke="${COLOURS.compare}" stroke-width="2"/>`,
    );
  return { svg: svgDocument(width, height, out.join('\n') + '\n', o.caption), width, height };
}
