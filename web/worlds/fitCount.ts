import { useLayoutEffect, useState } from 'react';
import type { RefObject } from 'react';

/** Whether the side column around the world is short of room: its content taller than it, or the open tab's
 * panel (interventions, editor, charts) unable to show all of its content. */
function columnShort(column: HTMLElement): boolean {
  if (column.scrollHeight > column.clientHeight + 1) return true;
  if (column.dataset.tabChosen !== 'true') return false;
  const panel = column.querySelector<HTMLElement>(':scope > .side-actions, :scope > .charts');
  return panel !== null && panel.scrollHeight > panel.clientHeight + 1;
}

/** What the world shows of its optional parts, and whether it has finished fitting them (tests wait for it). */
export interface Fit {
  n: number;
  fitted: boolean;
}

/**
 * How many of a list's last `max` items the world in `ref` shows, in presenter mode: every new `shown` (a
 * frame) and every resize of the column around it starts again from all of them, and each layout pass before
 * the paint drops one while the column is short of room. Elsewhere the page scrolls and every item shows.
 * The column is observed, not the world: the world shrinks as items go.
 */
export function useFitCount(ref: RefObject<HTMLElement | null>, max: number, shown: unknown): Fit {
  const [fit, setFit] = useState({ shown, max, n: max, column: '', fitted: false, looks: 0 });
  let { n, fitted } = fit;
  // A new frame or list: all of them again (React's "adjusting state when a prop changes", during render).
  if (fit.shown !== shown || fit.max !== max) {
    n = max;
    fitted = false;
    setFit({ ...fit, shown, max, n, fitted });
  }
  useLayoutEffect(() => {
    const column = ref.current?.parentElement;
    if (!column || !column.closest('.presenter')) {
      if (!fitted) setFit((f) => ({ ...f, fitted: true }));
      return;
    }
    if (n > 0 && columnShort(column)) setFit((f) => ({ ...f, n: Math.min(f.n, n) - 1, fitted: false }));
    else if (!fitted) setFit((f) => ({ ...f, fitted: true }));
  }, [ref, n, fitted, shown, fit.column, fit.looks]);
  useLayoutEffect(() => {
    const column = ref.current?.parentElement;
    if (!column || !column.closest('.presenter')) return;
    const observer = new ResizeObserver(() => {
      const size = `${column.clientWidth}×${column.clientHeight}`;
      setFit((f) => (f.column === size ? f : { ...f, column: size, n: f.max, fitted: false }));
    });
    observer.observe(column);
    // The column's other panels (a tab opened, its content changed) only ask for another look: that look only
    // ever drops items, so the world shrinking and the tab growing cannot start each other again for ever.
    const look = () => setFit((f) => ({ ...f, looks: f.looks + 1, fitted: false }));
    const others = new ResizeObserver(look);
    for (const child of column.children) if (child !== ref.current) others.observe(child);
    // A tab opened or its content changed without a resize (a squeezed panel keeps its height): changes in the
    // column outside the world (the world's own changes are this hook's doing).
    const changes = new MutationObserver((records) => {
      if (records.some((r) => !ref.current?.contains(r.target))) look();
    });
    changes.observe(column, { attributes: true, childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      others.disconnect();
      changes.disconnect();
    };
  }, [ref]);
  return { n, fitted };
}
