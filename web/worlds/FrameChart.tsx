import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Frame } from '../../sim/trace';
import { useT } from '../i18n/i18n';
import { clock } from '../lab/format';
import type { LabSession } from '../lab/session';
import { frameMarkerHook, seekOnClick } from './chartFrames';

export interface ChartSeries { label: string; stroke: string }

const PALETTE = ['#1f6feb', '#cf6a00', '#1a7f37', '#8250df', '#cf222e', '#6e7781'];
export const strokeAt = (i: number) => PALETTE[i % PALETTE.length]!;

interface Props {
  session: LabSession;
  frame: Frame;
  series: ChartSeries[];
  /** One value per series for a frame (stepped lines: counts change at events). */
  valuesOf(frame: Frame): (number | null)[];
}

/** Stepped series over the recorded frames, the frame on screen marked; a click travels there. */
export function FrameChart({ session, frame, series, valuesOf }: Props) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const marker = useRef(frame.t / 1000);
  marker.current = frame.t / 1000;
  const valuesRef = useRef(valuesOf);
  valuesRef.current = valuesOf;
  const data = useRef<(number | null)[][]>([]);
  /** The frames the data was built from: a rewind that forks a new history replaces them. */
  const built = useRef<Frame[]>([]);
  const key = series.map((s) => s.label).join('\u0000');

  useEffect(() => {
    const el = box.current!;
    data.current = [[], ...series.map(() => [])];
    built.current = [];
    const opts: uPlot.Options = {
      width: Math.max(300, el.clientWidth), height: 180,
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(2, max + 1)] } },
      axes: [{ values: (_u, splits) => splits.map((s) => clock(s * 1000)) }, {}],
      series: [
        { label: 'time', value: (_u, v) => (v == null ? '' : clock(v * 1000)) },
        ...series.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false } })),
      ],
      hooks: {
        draw: [frameMarkerHook(() => marker.current)],
      },
    };
    const u = new uPlot(opts, data.current as uPlot.AlignedData, el);
    plot.current = u;
    seekOnClick(u, session);
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(300, el.clientWidth), height: 180 }));
    resize.observe(el);
    return () => { resize.disconnect(); u.destroy(); plot.current = null; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the series
  }, [key, session]);

  // Redraw at most ~8 times a second (as HpaCharts): playing at 50× changes frames every animation frame.
  const count = session.frames.length;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const d = data.current;
      const frames = session.frames;
      // Extend incrementally, keeping the prefix that is still the same history.
      let keep = Math.min(built.current.length, frames.length);
      while (keep > 0 && built.current[keep - 1] !== frames[keep - 1]) keep--;
      for (const a of d) a.length = keep;
      built.current.length = keep;
      for (let i = keep; i < frames.length; i++) {
        built.current.push(frames[i]!);
        const values = valuesRef.current(frames[i]!);
        d[0]!.push(frames[i]!.t / 1000);
        for (let s = 1; s < d.length; s++) d[s]!.push(values[s - 1] ?? null);
      }
      plot.current?.setData(d as uPlot.AlignedData);
    }, plot.current && data.current[0]?.length ? 120 : 0);
  }, [session, count, frame, key]);
  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); timer.current = null; }, []);

  return (
    <section className="charts" data-testid="charts">
      <h3>{t('charts')}</h3>
      <div ref={box} data-testid="chart" />
    </section>
  );
}
