import { useLayoutEffect, useState } from 'react';
import type { RefObject } from 'react';

/** How the pods are drawn in a box of a given size: a grid of `cols` columns of `width`×`height` boxes `gap`
 * apart, with type of `font` px. `compact` boxes are only the bar, the percentage's number across it (many pods). */
export interface PodFit {
  cols: number;
  width: number;
  height: number;
  gap: number;
  font: number;
  compact: boolean;
}

const GAP = 4;
const COMPACT_GAP = 1;
/** No text on a projector is smaller than this. */
const MIN_FONT = 12;
const MAX_FONT = 22;
/** Border and padding around a pod's content, both sides together. */
const CHROME = 10;
/** An average glyph's width in the lab's sans-serif, per px of font size (DejaVu Sans is the wide case). */
const GLYPH = 0.64;

/** The largest pods that fit `count` of them, names `nameChars` long, in `width`×`height` px; null when even
 * compact ones at the smallest type do not (the panel then scrolls). */
function fitPods(count: number, nameChars: number, width: number, height: number): PodFit | null {
  if (count === 0 || width <= 0 || height <= 0) return null;
  const cell = (cols: number, gap: number) => {
    const rows = Math.ceil(count / cols);
    return { w: Math.floor((width - (cols - 1) * gap) / cols), h: Math.floor((height - (rows - 1) * gap) / rows) };
  };
  // Full boxes: the name, a bar at least 1.5 lines tall, the percentage; the largest type that fits wins.
  for (let font = MAX_FONT; font >= MIN_FONT; font--) {
    const minW = Math.max(nameChars, 4) * GLYPH * font + CHROME;
    const minH = 2 * 1.25 * font + 1.5 * font + CHROME;
    for (let cols = 1; cols <= count; cols++) {
      const { w, h } = cell(cols, GAP);
      if (w < minW) break;
      if (h < minH) continue;
      // Not wider than a dozen characters, nor taller than twice as wide: a few pods stay pod-shaped.
      const boxW = Math.min(w, Math.max(minW, 12 * font));
      return { cols, width: boxW, height: Math.min(h, Math.max(minH, 2 * boxW)), gap: GAP, font, compact: false };
    }
  }
  // Compact boxes: "100" across the bar (the sign goes: the panel's heading says these are percentages).
  const minW = 3 * GLYPH * MIN_FONT + 6;
  // One line of digits set solid (line-height 1 in styles.css): 260 pods fit a 1280×720 projector's panel.
  const minH = MIN_FONT + 4;
  let best: PodFit | null = null;
  for (let cols = 1; cols <= count; cols++) {
    const { w, h } = cell(cols, COMPACT_GAP);
    if (w < minW) break;
    if (h < minH) continue;
    const boxW = Math.min(w, 3 * minW);
    const fit = { cols, width: boxW, height: Math.min(h, 2 * boxW), gap: COMPACT_GAP, font: MIN_FONT, compact: true };
    if (!best || fit.width * fit.height > best.width * best.height) best = fit;
  }
  return best;
}

/** The pods' fit to the box `ref` gets from the layout, kept up to date as it resizes. Only in presenter mode,
 * where the side column gives the world a definite height; elsewhere the pods flow and the page scrolls. */
export function usePodFit(ref: RefObject<HTMLElement | null>, count: number, nameChars: number): PodFit | null {
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !el.closest('.presenter')) {
      setSize(null);
      return;
    }
    const measure = () =>
      setSize((s) => (s && s.w === el.clientWidth && s.h === el.clientHeight ? s : { w: el.clientWidth, h: el.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size ? fitPods(count, nameChars, size.w, size.h) : null;
}
