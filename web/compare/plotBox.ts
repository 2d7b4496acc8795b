/** Where a chart's plot area sits inside its pane's chart box, in CSS pixels (the divergence marks are laid over it). */
export interface PlotBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The plot area's rectangle relative to the box that holds the marks (both as the browser measures them). */
export function plotBoxIn(plot: PlotBox, holder: { left: number; top: number }): PlotBox {
  return { left: plot.left - holder.left, top: plot.top - holder.top, width: plot.width, height: plot.height };
}

/** Equal to the pixel: a redraw that moved nothing must not re-render the pane. */
export const samePlotBox = (a: PlotBox | null, b: PlotBox): boolean =>
  a !== null && (['left', 'top', 'width', 'height'] as const).every((k) => Math.round(a[k]) === Math.round(b[k]));

/**
 * The x of time t (ms) over a plot whose axis spans [from, to] ms; null outside it (a mark past the axis is not drawn
 * at its edge, where it would claim a moment it does not belong to).
 */
export function xOfTime(t: number, [from, to]: readonly [number, number], box: PlotBox): number | null {
  if (!(to > from) || t < from || t > to) return null;
  return box.left + ((t - from) / (to - from)) * box.width;
}
