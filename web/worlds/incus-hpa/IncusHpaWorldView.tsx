import type { CSSProperties } from 'react';
import { useRef } from 'react';
import { formatBytes } from '../../../sim/units';
import { useLanguage, useT } from '../../i18n/i18n';
import { statusText } from '../../i18n/incus-hpa-status';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';
import { PodBox } from './PodBox';
import { usePodFit } from './podFit';
import { incusHpaNumbers } from './summary';

/** The HPA's world: every instance as a box with its memory bar against the threshold. In presenter mode the
 * boxes are sized to fill the panel (smaller, and only bar and percentage, when there are many). */
export function IncusHpaWorldView({ frame }: WorldViewProps<FrameOf<'incus-hpa'>>) {
  const t = useT();
  const world = frame.world;
  const { running, avg, threshold } = incusHpaNumbers(frame);
  const pods = useRef<HTMLDivElement>(null);
  const lang = useLanguage();
  // The widest line of a box: its name, or the status written where a stopped pod has no percentage.
  const chars = Math.max(0, ...world.pods.map((p) => Math.max(p.name.length, p.pct === null ? statusText(p.status, lang).length : 4)));
  const fit = usePodFit(pods, world.pods.length, chars);
  const style: CSSProperties | undefined = fit
    ? {
        gridTemplateColumns: `repeat(${fit.cols}, ${fit.width}px)`,
        gridAutoRows: `${fit.height}px`,
        gap: `${fit.gap}px`,
        fontSize: `${fit.font}px`,
      }
    : undefined;
  return (
    <section className="world incus-hpa-world" data-testid="world">
      <h3>
        {t('pods')}: <span data-testid="pods-running">{running}</span> {t('running')}
        {avg !== null && (
          <>
            {' '}
            · {t('avgShort')} <span data-testid="avg">{avg}%</span>
          </>
        )}
        {threshold !== null && (
          <>
            {' '}
            · {t('threshold')} {threshold}%
          </>
        )}{' '}
        · {t('demand')} {formatBytes(world.demand)} · {t('apiCalls')} {world.apiCalls}
      </h3>
      <div ref={pods} className={`pods${fit ? ' fitted' : ''}${fit?.compact ? ' compact' : ''}`} data-testid="pods" style={style}>
        {world.pods.map((pod) => (
          <PodBox key={pod.name} pod={pod} threshold={threshold} compact={fit?.compact ?? false} />
        ))}
      </div>
    </section>
  );
}
