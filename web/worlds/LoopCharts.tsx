import type { ComponentProps } from 'react';
import { useT } from '../i18n/i18n';
import { chartSpecOf } from './chartSpecs';
import { FrameChart } from './FrameChart';
import type { WorldViewProps } from './types';

/** How a page places the chart (side by side: a shared axis, its box's height, its own seek and marks). */
export type ChartPlacement = Pick<ComponentProps<typeof FrameChart>, 'axisMs' | 'fill' | 'onSeek' | 'onDraw'>;

/** Every loop's "over time" panel: its series (chartSpecs.ts, shared with the slide export) drawn by FrameChart. */
export function LoopCharts({ session, frame, ...placement }: WorldViewProps & ChartPlacement) {
  const t = useT();
  const spec = chartSpecOf(session.loop, { t, config: session.config, frames: session.frames });
  if (!spec || spec.series.length === 0) return null;
  return <FrameChart session={session} frame={frame} series={spec.series} valuesOf={spec.valuesOf} {...placement} />;
}
