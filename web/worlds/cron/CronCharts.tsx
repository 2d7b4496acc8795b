import { useCallback, useMemo } from 'react';
import type { Frame } from '../../../sim/trace';
import { FrameChart, strokeAt } from '../FrameChart';
import type { WorldViewProps } from '../types';
import { asCron, crontabOf } from './cronView';

/** Runs per job over time (cumulative: the slope is the job's rate; flat while the host is down). */
export function CronCharts({ session, frame }: WorldViewProps) {
  const fromCrontab = crontabOf(session.runner?.config).map((e) => e.name);
  // A loaded trace has no crontab: the jobs are the ones that ran.
  const jobs = fromCrontab.length ? fromCrontab : Object.keys(asCron(session.frames.at(-1)!).counts).sort();
  const key = jobs.join(' ');
  const series = useMemo(() => key.split(' ').filter(Boolean).map((job, i) => ({ label: job, stroke: strokeAt(i) })), [key]);
  const values = useCallback((f: Frame) => { const c = asCron(f).counts; return series.map((s) => c[s.label]?.runs ?? 0); }, [series]);
  return <FrameChart session={session} frame={frame} series={series} valuesOf={values} />;
}
