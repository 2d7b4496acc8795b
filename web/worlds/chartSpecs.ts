import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import type { Frame } from '../../sim/trace';
import type { MessageKey } from '../i18n/messages';
import { asCron, crontabOf } from './cron/cronView';
import { hpaNumbers } from './hpa/summary';
import { asKube, replicaCounts } from './kubernetes/kubeView';
import { asPuppet } from './puppet/puppetView';
import { asSystemd } from './systemd-restart/unitView';
import { asTerraform } from './terraform/terraformView';

export interface ChartSeries {
  label: string;
  stroke: string;
  /** 'n' (counts, left axis: the default) or 'pct' (0–100 %, its own axis). */
  scale?: 'n' | 'pct';
  /** A dashed line (a limit such as the threshold). */
  dash?: number[];
}

/** What one loop plots over its frames: the series and one value per series for a frame. */
export interface ChartSpec {
  series: ChartSeries[];
  valuesOf(frame: Frame): (number | null)[];
}

const PALETTE = ['#1f6feb', '#cf6a00', '#1a7f37', '#8250df', '#cf222e', '#6e7781'];
const strokeAt = (i: number) => PALETTE[i % PALETTE.length]!;

type Translate = (key: MessageKey) => string;
/** The run's desired state (a cron chart's jobs come from the crontab) and its frames (a loaded trace has no config). */
export interface ChartInput { t: Translate; config: unknown; frames: readonly Frame[] }

/**
 * Each loop's chart, as data: the lab's <FrameChart> draws it with uPlot, the export (web/export/chartSvg.ts)
 * as SVG for slides — one definition, so the slide shows what the lab showed.
 */
const SPECS = {
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
    valuesOf: (f) => { const w = asSystemd(f); return [w.starts, w.cleanExits]; },
  }),
  cron: ({ config, frames }) => {
    const fromCrontab = crontabOf(config).map((e) => e.name);
    // A loaded trace has no crontab: the jobs are the ones that ran.
    const last = frames.at(-1);
    const jobs = fromCrontab.length ? fromCrontab : last ? Object.keys(asCron(last).counts).sort() : [];
    return {
      series: jobs.map((job, i) => ({ label: job, stroke: strokeAt(i) })),
      valuesOf: (f) => { const c = asCron(f).counts; return jobs.map((j) => c[j]?.runs ?? 0); },
    };
  },
  kubernetes: ({ t }) => ({
    series: [{ label: t('desiredReplicas'), stroke: strokeAt(1) }, { label: t('readyPods'), stroke: strokeAt(0) }],
    valuesOf: (f) => replicaCounts(asKube(f)),
  }),
  puppet: ({ t }) => ({
    series: [{ label: t('agentChanges'), stroke: strokeAt(0) }, { label: t('driftsSeries'), stroke: strokeAt(1) }],
    valuesOf: (f) => { const w = asPuppet(f); return [w.agentChanges, w.drifts]; },
  }),
  terraform: ({ t }) => ({
    series: [{ label: t('stateSerial'), stroke: strokeAt(0) }, { label: t('cloudCalls'), stroke: strokeAt(1) }, { label: t('dataLost'), stroke: strokeAt(4) }],
    valuesOf: (f) => { const w = asTerraform(f); return [w.serial, w.calls, w.dataLostGb]; },
  }),
} satisfies Record<LoopId, (input: ChartInput) => ChartSpec>;

/** The chart of a loop (none for a trace of an unknown loop). */
export const chartSpecOf = (loop: string, input: ChartInput): ChartSpec | undefined => (isLoopId(loop) ? SPECS[loop](input) : undefined);
