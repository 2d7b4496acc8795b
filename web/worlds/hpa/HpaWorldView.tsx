import { formatBytes } from '../../../sim/units';
import { useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';
import { PodBox } from './PodBox';
import { asHpa, hpaNumbers } from './summary';

/** The HPA's world: every instance as a box with its memory bar against the threshold. */
export function HpaWorldView({ frame }: WorldViewProps) {
  const t = useT();
  const world = asHpa(frame);
  const { running, avg, threshold } = hpaNumbers(frame);
  return (
    <section className="world hpa-world" data-testid="world">
      <h3>
        {t('pods')}: <span data-testid="pods-running">{running}</span> {t('running')}
        {avg !== null && <> · {t('avgShort')} <span data-testid="avg">{avg}%</span></>}
        {threshold !== null && <> · {t('threshold')} {threshold}%</>}
        {' '}· {t('demand')} {formatBytes(world.demand)} · {t('apiCalls')} {world.apiCalls}
      </h3>
      <div className="pods" data-testid="pods">
        {world.pods.map((pod) => <PodBox key={pod.name} pod={pod} threshold={threshold} />)}
      </div>
    </section>
  );
}
