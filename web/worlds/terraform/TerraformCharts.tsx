import type { Frame } from '../../../sim/trace';
import { useT } from '../../i18n/i18n';
import { FrameChart, strokeAt } from '../FrameChart';
import type { WorldViewProps } from '../types';
import { asTerraform } from './terraformView';

const values = (f: Frame) => { const w = asTerraform(f); return [w.serial, w.calls, w.dataLostGb]; };

/** The state serial (one step per write), the cloud calls, and data destroyed with replaced objects. */
export function TerraformCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  return <FrameChart session={session} frame={frame} valuesOf={values}
    series={[{ label: t('stateSerial'), stroke: strokeAt(0) }, { label: t('cloudCalls'), stroke: strokeAt(1) }, { label: t('dataLost'), stroke: strokeAt(4) }]} />;
}
