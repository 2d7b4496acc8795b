import type { Frame } from '../../../sim/trace';
import { useT } from '../../i18n/i18n';
import { FrameChart, strokeAt } from '../FrameChart';
import type { WorldViewProps } from '../types';
import { asPuppet } from './puppetView';

const values = (f: Frame) => { const w = asPuppet(f); return [w.agentChanges, w.drifts]; };

/** Changes the agent made and changes made outside it: two controllers fighting show as two staircases. */
export function PuppetCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  return <FrameChart session={session} frame={frame} valuesOf={values}
    series={[{ label: t('agentChanges'), stroke: strokeAt(0) }, { label: t('driftsSeries'), stroke: strokeAt(1) }]} />;
}
