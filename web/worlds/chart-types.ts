import type { Frame } from '../../sim/trace';
import type { MessageKey } from '../i18n/messages';

export interface ChartSeries {
  label: string;
  stroke: string;
  /** 'n' (counts, left axis: the default) or 'pct' (0–100 %, its own axis). */
  scale?: 'n' | 'pct';
  /** A dashed line (a limit such as the threshold). */
  dash?: number[];
}

/** What one loop plots over its frames: the series and one value per series for a frame (typed as the loop's in its LOOP_UI entry). */
export interface ChartSpec<F extends Frame = Frame> {
  series: ChartSeries[];
  valuesOf(frame: F): (number | null)[];
}

type Translate = (key: MessageKey) => string;
/** The run's desired state (a cron chart's jobs come from the crontab) and its frames (a loaded trace has no config). */
export interface ChartInput<F extends Frame = Frame> {
  t: Translate;
  config: unknown;
  frames: readonly F[];
}

/**
 * A loop's chart, as data: the lab's <FrameChart> draws it with uPlot, the export (web/export/chartSvg.ts)
 * as SVG for slides — one definition, so the slide shows what the lab showed.
 */
export type ChartOf<F extends Frame = Frame> = (input: ChartInput<F>) => ChartSpec<F>;

const PALETTE = ['#1f6feb', '#cf6a00', '#1a7f37', '#8250df', '#cf222e', '#6e7781'];
/** The i-th series' colour, the same in every loop's chart. */
export const strokeAt = (i: number) => PALETTE[i % PALETTE.length]!;
