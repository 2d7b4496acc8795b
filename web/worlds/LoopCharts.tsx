import { useT } from '../i18n/i18n';
import { chartSpecOf } from './chartSpecs';
import { FrameChart } from './FrameChart';
import type { WorldViewProps } from './types';

/** Every loop's "over time" panel: its series (chartSpecs.ts, shared with the slide export) drawn by FrameChart. */
export function LoopCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  const spec = chartSpecOf(session.loop, { t, config: session.runner?.config, frames: session.frames });
  if (!spec || spec.series.length === 0) return null;
  return <FrameChart session={session} frame={frame} series={spec.series} valuesOf={spec.valuesOf} />;
}
