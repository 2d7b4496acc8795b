import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import { frameOf, framesOf } from '../../sim/loop-frames';
import { LOOP_UI } from '../loop-ui';
import type { FrameOf } from '../../sim/trace';
import type { ChartInput, ChartOf, ChartSpec } from './chart-types';

/** The chart of a loop (none for a trace of an unknown loop): `input.frames` are the loop's (a session's or an export's own). */
export const chartSpecOf = (loop: string, input: ChartInput): ChartSpec | undefined => (isLoopId(loop) ? chartOn(loop, input) : undefined);

function chartOn<L extends LoopId>(loop: L, input: ChartInput): ChartSpec | undefined {
  const frames = framesOf(loop, loop, input.frames);
  if (!frames) return undefined;
  const chart: ChartOf<FrameOf<L>> = LOOP_UI[loop].chart;
  const spec = chart({ ...input, frames });
  // A frame of the same run (the chart reads the frames it was made from).
  return {
    series: spec.series,
    valuesOf: (f) => {
      const typed = frameOf(loop, loop, f);
      return typed ? spec.valuesOf(typed) : spec.series.map(() => null);
    },
  };
}
