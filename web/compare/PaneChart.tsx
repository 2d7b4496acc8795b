import { useCallback, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import type { Frame } from '../../sim/trace';
import type { LabSession } from '../lab/session';
import { LoopCharts } from '../worlds/LoopCharts';
import type { Divergence } from './divergence';
import type { PlotBox } from './plotBox';
import { plotBoxIn, samePlotBox, xOfTime } from './plotBox';

interface Props {
  session: LabSession;
  frame: Frame;
  /** The page's one time axis (ms): every pane's chart spans it, so one moment is one x in every pane. */
  axisMs: readonly [number, number];
  marks: readonly Divergence[] | null;
  describe(m: Divergence): string;
  onSeek(t: number): void;
}

/**
 * A pane's chart: the lab's own (LoopCharts, over this run's frames) filling the pane below its world, on the page's
 * shared time axis, with the moments the decisions part and meet laid over its plot (a click goes there, in every pane).
 */
export function PaneChart({ session, frame, axisMs, marks, describe, onSeek }: Props) {
  const holder = useRef<HTMLDivElement>(null);
  const [plot, setPlot] = useState<PlotBox | null>(null);
  const onDraw = useCallback((u: uPlot) => {
    if (!holder.current) return;
    const next = plotBoxIn(u.over.getBoundingClientRect(), holder.current.getBoundingClientRect());
    setPlot((p) => (samePlotBox(p, next) ? p : next));
  }, []);
  const [from, to] = axisMs;
  const axis = useMemo(() => [from, to] as const, [from, to]);
  return (
    <div className="pane-chart" ref={holder} data-testid="pane-chart">
      <LoopCharts session={session} frame={frame} axisMs={axis} fill onSeek={onSeek} onDraw={onDraw} />
      {plot &&
        (marks ?? []).map((m) => {
          const x = xOfTime(m.t, axis, plot);
          return x === null ? null : (
            <button
              key={`${m.kind}-${m.t}`}
              className={`chart-mark ${m.kind}`}
              data-testid="chart-divergence"
              data-kind={m.kind}
              data-t={m.t}
              style={{ left: x, top: plot.top, height: plot.height }}
              title={describe(m)}
              aria-label={describe(m)}
              onClick={() => onSeek(m.t)}
            />
          );
        })}
    </div>
  );
}
