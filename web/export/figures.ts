import type { AnyStateMachine } from 'xstate';
import type { Frame } from '../../sim/trace';
import type { Language } from '../i18n/messages';
import { MESSAGES } from '../i18n/messages';
import { clock } from '../lab/format';
import { machineGraph } from '../statechart/graph';
import { labelGraph } from '../statechart/labels';
import type { Layout } from '../statechart/layout';
import { chartSpecOf } from '../worlds/chartSpecs';
import { chartSvg } from './chartSvg';
import { statechartSvg } from './statechartSvg';

export interface Picture {
  svg: string;
  width: number;
  height: number;
}

export interface FigureInput {
  machine: AnyStateMachine;
  /** The statechart's layout (the lab's build-time one, or ELK run by the CLI). */
  layout: Layout;
  loop: string;
  scenario: string;
  frames: readonly Frame[];
  /** The frame on screen. */
  index: number;
  /** The run's desired state (a cron chart's jobs); undefined for a loaded trace. */
  config: unknown;
  lang: Language;
}

/** The slide pictures of one moment: the statechart (active state lit) and, when the loop has one, its chart over time. */
export function exportFigures(i: FigureInput): { statechart: Picture; chart?: Picture } {
  const t = (key: keyof typeof MESSAGES.en) => MESSAGES[i.lang][key];
  const frame = i.frames[i.index]!;
  const when = `${i.scenario} · ${clock(frame.t)}`;
  const statechart = statechartSvg(labelGraph(i.loop, machineGraph(i.machine)), i.layout, {
    state: frame.state,
    previousState: i.frames[i.index - 1]?.state,
    caption: `${i.machine.id} · ${when} · ${frame.state}`,
    lang: i.lang,
  });
  const spec = chartSpecOf(i.loop, { t, config: i.config, frames: i.frames });
  if (!spec || spec.series.length === 0) return { statechart };
  return { statechart, chart: chartSvg(i.frames, spec, { lang: i.lang, caption: `${t('charts')} · ${when}`, at: frame.t }) };
}

/** A file name's stem for a moment: "talk-lab-t150s". */
export const figureStem = (scenario: string, t: number) => `${scenario.replace(/[^\w.-]+/g, '_')}-t${Math.round(t / 1000)}s`;
