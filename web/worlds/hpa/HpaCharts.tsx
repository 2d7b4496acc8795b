import type { Frame } from '../../../sim/trace';
import { useT } from '../../i18n/i18n';
import { FrameChart } from '../FrameChart';
import type { WorldViewProps } from '../types';
import { hpaNumbers } from './summary';

const values = (f: Frame) => { const n = hpaNumbers(f); return [n.avg, n.threshold, n.running]; };

/** Average memory against the threshold (a time series: an edit changes it from then on) and running pods. */
export function HpaCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  return <FrameChart session={session} frame={frame} valuesOf={values} series={[
    { label: t('avgMemory'), stroke: '#1f6feb', scale: 'pct' },
    { label: t('threshold'), stroke: '#1b1f24', scale: 'pct', dash: [6, 4] },
    { label: t('replicas'), stroke: '#cf6a00' },
  ]} />;
}
