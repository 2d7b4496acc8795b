import { memo } from 'react';
import type { HpaWorldSummary } from '../../../sim/loops/incus-hpa-world-schema';
import { formatBytes } from '../../../sim/units';
import { useLanguage } from '../../i18n/i18n';
import { statusText } from '../../i18n/incus-hpa-status';

type Pod = HpaWorldSummary['pods'][number];

/** One instance: name, status, a memory bar against the threshold line. A compact box (many pods on a projector)
 * is the bar with the percentage's number across it, a dash for a pod with none (its status is in the tooltip and the border). */
export const PodBox = memo(
  function PodBox({ pod, threshold, compact = false }: { pod: Pod; threshold: number | null; compact?: boolean }) {
    const fill = pod.total > 0 ? Math.min(100, (pod.usage * 100) / pod.total) : 0;
    const hot = threshold !== null && pod.pct !== null && pod.pct >= threshold;
    const lang = useLanguage();
    const status = statusText(pod.status, lang);
    return (
      <div
        className={`pod status-${pod.status.toLowerCase()}${pod.owned ? '' : ' unowned'}${hot ? ' hot' : ''}`}
        data-testid="pod"
        data-name={pod.name}
        data-status={pod.status}
        title={`${pod.name}: ${status}, ${formatBytes(pod.usage)} / ${formatBytes(pod.total)}${pod.owned ? '' : lang === 'pt-BR' ? ' (não é dele)' : ' (not owned)'}`}
      >
        <div className="pod-name">{pod.name}</div>
        <div className="bar">
          <div className="bar-fill" style={{ height: `${fill}%` }} />
          {threshold !== null && <div className="bar-threshold" style={{ bottom: `${threshold}%` }} />}
        </div>
        <div className="pod-meta">{pod.pct !== null ? `${pod.pct}${compact ? '' : '%'}` : compact ? '–' : status}</div>
      </div>
    );
  },
  (a, b) => a.threshold === b.threshold && a.compact === b.compact && samePod(a.pod, b.pod),
);

// Summaries are rebuilt every frame: compare pods by value so unchanged boxes skip rendering.
const samePod = (a: Pod, b: Pod) =>
  a.name === b.name && a.status === b.status && a.usage === b.usage && a.total === b.total && a.pct === b.pct && a.owned === b.owned;
