import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import { frameOf, framesOf } from '../../sim/loop-frames';
import type { Frame, FrameOf } from '../../sim/trace';
import type { MessageKey } from '../i18n/messages';
import { crontabOf } from './cron/cronView';
import { hpaNumbers } from './incus-hpa/summary';
import { replicaCounts } from './kubernetes/kubeView';

export interface ChartSeries {
  label: string;
  stroke: string;
  /** 'n' (counts, left axis: the default) or 'pct' (0–100 %, its own axis). */
  scale?: 'n' | 'pct';
  /** A dashed line (a limit such as the threshold). */
  dash?: number[];
}

/** What one loop plots over its frames: the series and one value per series for a frame (typed as the loop's in SPECS). */
export interface ChartSpec<F extends Frame = Frame> {
  series: ChartSeries[];
  valuesOf(frame: F): (number | null)[];
}

const PALETTE = ['#1f6feb', '#cf6a00', '#1a7f37', '#8250df', '#cf222e', '#6e7781'];
const strokeAt = (i: number) => PALETTE[i % PALETTE.length]!;

type Translate = (key: MessageKey) => string;
/** The run's desired state (a cron chart's jobs come from the crontab) and its frames (a loaded trace has no config). */
export interface ChartInput<F extends Frame = Frame> { t: Translate; config: unknown; frames: readonly F[] }

/**
 * Each loop's chart, as data: the lab's <FrameChart> draws it with uPlot, the export (web/export/chartSvg.ts)
 * as SVG for slides — one definition, so the slide shows what the lab showed.
 */
const SPECS: { [L in LoopId]: (input: ChartInput<FrameOf<L>>) => ChartSpec<FrameOf<L>> } = {
  'incus-hpa': ({ t }) => ({
    series: [
      { label: t('avgMemory'), stroke: '#1f6feb', scale: 'pct' },
      { label: t('threshold'), stroke: '#1b1f24', scale: 'pct', dash: [6, 4] },
      { label: t('replicas'), stroke: '#cf6a00' },
    ],
    valuesOf: (f) => { const n = hpaNumbers(f); return [n.avg, n.threshold, n.running]; },
  }),
  'systemd-restart': ({ t }) => ({
    series: [{ label: t('startsSeries'), stroke: strokeAt(0) }, { label: t('cleanExitsSeries'), stroke: strokeAt(2) }],
    valuesOf: ({ world: w }) => [w.starts, w.cleanExits],
  }),
  cron: ({ config, frames }) => {
    const fromCrontab = crontabOf(config).map((e) => e.name);
    // A loaded trace has no crontab: the jobs are the ones that ran.
    const last = frames.at(-1);
    const jobs = fromCrontab.length ? fromCrontab : last ? Object.keys(last.world.counts).sort() : [];
    return {
      series: jobs.map((job, i) => ({ label: job, stroke: strokeAt(i) })),
      valuesOf: (f) => { const c = f.world.counts; return jobs.map((j) => c[j]?.runs ?? 0); },
    };
  },
  kubernetes: ({ t }) => ({
    series: [{ label: t('desiredReplicas'), stroke: strokeAt(1) }, { label: t('readyPods'), stroke: strokeAt(0) }],
    valuesOf: (f) => replicaCounts(f.world),
  }),
  puppet: ({ t }) => ({
    series: [{ label: t('agentChanges'), stroke: strokeAt(0) }, { label: t('driftsSeries'), stroke: strokeAt(1) }],
    valuesOf: ({ world: w }) => [w.agentChanges, w.drifts],
  }),
  terraform: ({ t }) => ({
    series: [{ label: t('stateSerial'), stroke: strokeAt(0) }, { label: t('cloudCalls'), stroke: strokeAt(1) }, { label: t('dataLost'), stroke: strokeAt(4) }],
    valuesOf: ({ world: w }) => [w.serial, w.calls, w.dataLostGb],
  }),
};

/** The chart of a loop (none for a trace of an unknown loop): `input.frames` are the loop's (a session's or an export's own). */
export const chartSpecOf = (loop: string, input: ChartInput): ChartSpec | undefined => (isLoopId(loop) ? chartOn(loop, input) : undefined);

function chartOn<L extends LoopId>(loop: L, input: ChartInput): ChartSpec | undefined {
  const frames = framesOf(loop, loop, input.frames);
  if (!frames) return undefined;
  const spec = SPECS[loop]({ ...input, frames });
  // A frame of the same run (the chart reads the frames it was made from).
  return { series: spec.series, valuesOf: (f) => { const typed = frameOf(loop, loop, f); return typed ? spec.valuesOf(typed) : spec.series.map(() => null); } };
}
