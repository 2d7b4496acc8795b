import type { Frame } from '../../../sim/trace';
import { useT } from '../../i18n/i18n';
import { FrameChart, strokeAt } from '../FrameChart';
import type { WorldViewProps } from '../types';
import { asKube, replicaCounts } from './kubeView';

const values = (f: Frame) => replicaCounts(asKube(f));

/** Desired replicas (the ReplicaSets' spec) against ready pods: the gap is the loop's work. */
export function KubeCharts({ session, frame }: WorldViewProps) {
  const t = useT();
  return <FrameChart session={session} frame={frame} valuesOf={values}
    series={[{ label: t('desiredReplicas'), stroke: strokeAt(1) }, { label: t('readyPods'), stroke: strokeAt(0) }]} />;
}
