import { memo } from 'react';
import { useLanguage, useT } from '../../i18n/i18n';
import type { Language } from '../../i18n/messages';
import { KUBERNETES_TEXT, podStatusText } from './messages';
import type { KubeSummary } from '../../../sim/loops/kubernetes-world-schema';
import type { KubePod } from './kubernetesView';
import { podsByNode } from './kubernetesView';

/** Each node with its pods as boxes (kubectl get pods -o wide, grouped by NODE). `compact`: a projector short of
 * room shows each pod on one line, by the generated part of its name, its status only when it is not ready. */
export function NodeColumns({ world, compact }: { world: KubeSummary; compact: boolean }) {
  const t = useT();
  const lang = useLanguage();
  return (
    <div className={`kubernetes-nodes${compact ? ' compact' : ''}`} data-testid="kubernetes-nodes">
      {podsByNode(world).map((g) => (
        <div
          key={g.node ?? '<none>'}
          className={`kubernetes-node${g.ready === false ? ' not-ready' : ''}`}
          data-testid="kubernetes-node"
          data-node={g.node ?? ''}
          data-ready={g.ready ?? ''}
        >
          <div className="kubernetes-node-head">
            <b>{g.node ?? t('notScheduled')}</b>
            {g.ready === false && <span className="down"> {t('notReady')}</span>}
            {g.cpu && <span className="muted"> · cpu {g.cpu}</span>}
          </div>
          <div className="pods">
            {g.pods.map((p) => (
              <KubernetesPodBox key={p.name} pod={p} lang={lang} compact={compact} />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

/** What tells a pod from its siblings: the part after the last dash (ReplicaSet pods share everything before it). */
const shortName = (name: string) => {
  const cut = name.lastIndexOf('-');
  return cut > 0 ? `…${name.slice(cut + 1)}` : name;
};

const KubernetesPodBox = memo(
  function KubernetesPodBox({ pod, lang, compact }: { pod: KubePod; lang: Language; compact: boolean }) {
    const status = podStatusText(pod.status, lang);
    const tone = pod.ready
      ? 'ready'
      : pod.status === 'Terminating'
        ? 'terminating'
        : pod.status.startsWith('CrashLoop')
          ? 'crash'
          : 'pending';
    return (
      <div
        className={`kubernetes-pod kubernetes-pod-${tone}`}
        data-testid="kubernetes-pod"
        data-name={pod.name}
        data-status={pod.status}
        data-ready={pod.ready}
        title={`${pod.name} · ${status.text} · ${KUBERNETES_TEXT[lang].restarts} ${pod.restarts}${pod.owner ? ` · ${pod.owner}` : ''}`}
      >
        {compact ? (
          <div className="pod-name">
            {shortName(pod.name)}
            {!pod.ready && (
              <>
                {' '}
                <span {...(status.quoted ? { lang: 'en' } : {})}>{status.text}</span>
              </>
            )}
            {pod.restarts ? ` ↻${pod.restarts}` : ''}
          </div>
        ) : (
          <>
            <div className="pod-name">{pod.name}</div>
            <div className="pod-meta">
              <span {...(status.quoted ? { lang: 'en' } : {})}>{status.text}</span>
              {pod.restarts ? ` ↻${pod.restarts}` : ''}
            </div>
          </>
        )}
      </div>
    );
  },
  (a, b) =>
    a.lang === b.lang &&
    a.compact === b.compact &&
    a.pod.name === b.pod.name &&
    a.pod.status === b.pod.status &&
    a.pod.ready === b.pod.ready &&
    a.pod.restarts === b.pod.restarts &&
    a.pod.owner === b.pod.owner,
);
