import type { Frame } from '../../../sim/trace';
import { useT } from '../../i18n/i18n';
import { FrameChart, strokeAt } from '../FrameChart';
import type { WorldViewProps } from '../types';
import { asSystemd } from './unitView';

const values = (f: Frame) => { const w = asSystemd(f); return [w.starts, w.cleanExits]; };

/** Starts (every exec: the first start plus each restart) and clean exits over time. */
export function SystemdCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  return <FrameChart session={session} frame={frame} valuesOf={values}
    series={[{ label: t('startsSeries'), stroke: strokeAt(0) }, { label: t('cleanExitsSeries'), stroke: strokeAt(2) }]} />;
}
