import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Frame } from '../../../sim/trace';
import { useT } from '../../i18n/i18n';
import { clock } from '../../lab/format';
import type { WorldViewProps } from '../types';
import { hpaNumbers } from './summary';
import { frameMarkerHook, seekOnClick } from '../chartFrames';

/** Series derived from frames, extended incrementally (a long run has many frames). */
class Series {
  t: number[] = []; running: (number | null)[] = []; avg: (number | null)[] = []; threshold: (number | null)[] = [];
  sync(frames: Frame[]): void {
    if (this.t.length > frames.length) for (const a of [this.t, this.running, this.avg, this.threshold]) a.length = frames.length;
    for (let i = this.t.length; i < frames.length; i++) {
      const { running, avg, threshold } = hpaNumbers(frames[i]!);
      this.t.push(frames[i]!.t / 1000); this.running.push(running); this.avg.push(avg); this.threshold.push(threshold);
    }
  }
}

/** Running pods and average memory against the threshold, with the frame on screen marked. */
export function HpaCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const series = useRef(new Series());
  const marker = useRef(frame.t / 1000);
  marker.current = frame.t / 1000;

  useEffect(() => {
    const el = box.current!;
    const opts: uPlot.Options = {
      width: Math.max(300, el.clientWidth), height: 200,
      scales: { x: { time: false }, pct: { range: [0, 100] }, n: { range: (_u, _min, max) => [0, Math.max(2, max + 1)] } },
      axes: [
        { values: (_u, splits) => splits.map((s) => clock(s * 1000)) },
        { scale: 'pct', values: (_u, s) => s.map((v) => `${v}%`) },
        { scale: 'n', side: 1, grid: { show: false } },
      ],
      series: [
        { label: 'time', value: (_u, v) => (v == null ? '' : clock(v * 1000)) },
        { label: t('avgMemory'), scale: 'pct', stroke: '#1f6feb', width: 2, points: { show: false } },
        { label: t('threshold'), scale: 'pct', stroke: '#1b1f24', dash: [6, 4], width: 1, points: { show: false } },
        { label: t('replicas'), scale: 'n', stroke: '#cf6a00', width: 2, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false } },
      ],
      hooks: {
        draw: [frameMarkerHook(() => marker.current)],
      },
    };
    plot.current = new uPlot(opts, [[], [], [], []], el);
    const u = plot.current;
    seekOnClick(u, session);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(300, el.clientWidth), height: 200 }));
    resize.observe(el);
    return () => { resize.disconnect(); plot.current?.destroy(); plot.current = null; series.current = new Series(); };
  }, [t, session]);

  // Charts redraw at most ~8 times a second: at 50× the frames change every animation frame,
  // and a full uPlot redraw per frame would cost the lab its frame rate.
  const count = session.frames.length;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const s = series.current;
      s.sync(session.frames);
      plot.current?.setData([s.t, s.avg, s.threshold, s.running] as uPlot.AlignedData);
    }, plot.current && series.current.t.length ? 120 : 0);
  }, [session, count, frame]);
  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); timer.current = null; }, []);

  return (
    <section className="charts" data-testid="charts">
      <h3>{t('charts')}</h3>
      <div ref={box} data-testid="chart" />
    </section>
  );
}
