import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Frame } from '../../sim/trace';
import { useLanguage, useT } from '../i18n/i18n';
import { clock } from '../lab/format';
import type { LabSession } from '../lab/session';
import { frameMarkerHook, seekOnClick } from './chartFrames';
import type { ChartSeries } from './chart-types';
import { TIME_INCREMENTS, tickLabels } from './timeAxis';

/** After each draw, what was drawn, on the element (tests read it): the points, the last one's time, the time axis's end. */
const drawnOn = (el: HTMLElement) => (u: uPlot) => {
  const xs = u.data[0];
  el.setAttribute('data-points', String(xs.length));
  el.setAttribute('data-last-t', String(xs.at(-1) ?? ''));
  el.setAttribute('data-x-max', String(u.scales.x?.max ?? ''));
};

interface Props {
  session: LabSession;
  frame: Frame;
  series: ChartSeries[];
  /** One value per series for a frame (stepped lines: counts change at events). */
  valuesOf(frame: Frame): (number | null)[];
  /** Side by side: the page's charts share one time axis (ms), instead of each spanning its own frames. */
  axisMs?: readonly [number, number];
  /** The height follows the chart's box (a flex child the page sizes) instead of a fixed 180 px. */
  fill?: boolean;
  /** A click travels here (side by side moves every pane) instead of seeking this session. */
  onSeek?(t: number): void;
  /** After each draw, the plot (side by side places its divergence marks over the plot area). */
  onDraw?(u: uPlot): void;
}

/**
 * The lab's one chart: series over the recorded frames, drawn as steps (a world changes at events,
 * so a value holds until the next frame — a stress or an edit is a step, never a ramp), a time axis
 * with readable spacings at any duration, numbers in the UI language, the frame on screen marked
 * and a click travelling there. Its data is rebuilt from the first frame that differs, so after a
 * rewind that forks a new history it never shows the old one; a language switch keeps the data.
 */
export function FrameChart({ session, frame, series, valuesOf, axisMs, fill = false, onSeek, onDraw }: Props) {
  const t = useT();
  const lang = useLanguage();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const marker = useRef(frame.t / 1000);
  marker.current = frame.t / 1000;
  const valuesRef = useRef(valuesOf);
  valuesRef.current = valuesOf;
  const onSeekRef = useRef(onSeek);
  onSeekRef.current = onSeek;
  const onDrawRef = useRef(onDraw);
  onDrawRef.current = onDraw;
  const data = useRef<(number | null)[][]>([]);
  /** The frames the data was built from: a rewind that forks a new history replaces them. */
  const built = useRef<Frame[]>([]);
  const key = `${lang}\u0000${series.map((s) => s.label).join('\u0000')}\u0000${axisMs?.join('-') ?? ''}\u0000${fill}`;
  const hasPct = series.some((s) => s.scale === 'pct');

  useEffect(() => {
    const el = box.current!;
    data.current = [[], ...series.map(() => [])];
    built.current = [];
    // Filling its box: the plot takes the box's height less the legend's (the box is sized by the page, never by the plot).
    const sizeOf = (u?: uPlot) =>
      fill
        ? {
            width: Math.max(120, el.clientWidth),
            height: Math.max(80, el.clientHeight - (u?.root.querySelector('.u-legend')?.clientHeight ?? 40)),
          }
        : { width: Math.max(300, el.clientWidth), height: 180 };
    const opts: uPlot.Options = {
      ...sizeOf(),
      scales: {
        x: { time: false, ...(axisMs ? { auto: false, range: [axisMs[0] / 1000, axisMs[1] / 1000] } : {}) },
        n: { range: (_u, _min, max) => [0, Math.max(2, max + 1)] },
        pct: { range: [0, 100] },
      },
      axes: [
        { incrs: TIME_INCREMENTS, values: (_u, splits) => tickLabels(splits, lang) },
        ...(hasPct ? [{ scale: 'pct', values: (_u: uPlot, splits: number[]) => splits.map((v) => `${v.toLocaleString(lang)}%`) }] : []),
        {
          scale: 'n',
          side: hasPct ? 1 : 3,
          grid: { show: !hasPct },
          values: (_u: uPlot, splits: number[]) => splits.map((v) => v.toLocaleString(lang)),
        },
      ],
      series: [
        { label: t('time'), value: (_u, v) => (v == null ? '' : clock(v * 1000)) },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.stroke,
          scale: s.scale ?? 'n',
          width: s.dash ? 1 : 2,
          ...(s.dash ? { dash: s.dash } : {}),
          paths: uPlot.paths.stepped!({ align: 1 }),
          points: { show: false },
          value: (_u: uPlot, v: number | null) =>
            v == null ? '–' : `${v.toLocaleString(lang, { maximumFractionDigits: 1 })}${s.scale === 'pct' ? '%' : ''}`,
        })),
      ],
      hooks: {
        draw: [frameMarkerHook(() => marker.current), drawnOn(el), (u) => onDrawRef.current?.(u)],
      },
    };
    const u = new uPlot(opts, data.current as uPlot.AlignedData, el); // cast: built as uPlot's columns
    plot.current = u;
    if (onSeekRef.current) {
      u.over.addEventListener('click', () => {
        const left = u.cursor.left;
        if (left !== undefined && left >= 0) onSeekRef.current?.(Math.round(u.posToVal(left, 'x') * 1000));
      });
    } else seekOnClick(u, session);
    if (fill) u.setSize(sizeOf(u));
    const resize = new ResizeObserver(() => u.setSize(sizeOf(u)));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the series, the axis and the sizing
  }, [key, session]);

  // Redraw at most ~8 times a second (a slower redraw is not seen): playing at 50× changes frames every animation frame.
  const count = session.frames.length;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (timer.current) return;
    timer.current = setTimeout(
      () => {
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
        plot.current?.setData(d as uPlot.AlignedData); // cast: built as uPlot's columns
      },
      plot.current && data.current[0]?.length ? 120 : 0,
    );
  }, [session, count, frame, key]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );

  return (
    <section className={`charts${fill ? ' fill' : ''}`} data-testid="charts">
      <h3>{t('charts')}</h3>
      <div ref={box} data-testid="chart" className={fill ? 'chart-fill' : undefined} />
    </section>
  );
}
