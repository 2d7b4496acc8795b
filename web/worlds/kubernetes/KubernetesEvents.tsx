import { useLanguage, useT } from '../../i18n/i18n';
import { KUBERNETES_TEXT } from './messages';
import { clock } from '../../lab/format';
import type { KubeSummary } from '../../../sim/loops/kubernetes-world-schema';

/** `kubectl get events`: the latest few (the `shown` last ones), newest last. */
export function KubernetesEvents({ world, shown }: { world: KubeSummary; shown: number }) {
  const t = useT();
  const head = KUBERNETES_TEXT[useLanguage()].eventsHead;
  const w = world.watch;
  return (
    <div className="kubernetes-events">
      <h4>{t('events')}</h4>
      {shown > 0 && (
        <table className="world-table" data-testid="kubernetes-events">
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {world.events.slice(world.events.length - shown).map((e, i) => (
              <tr key={`${e.t}-${i}`} className={e.type === 'Warning' ? 'warning' : ''}>
                <td>{clock(e.t)}</td>
                <td lang="en">{e.type}</td>
                <td lang="en">{e.reason}</td>
                <td>{e.object}</td>
                <td lang="en">{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="muted" data-testid="kubernetes-watch">
        {t('watchStream')}: {w.cached} {t('cached')} · {w.inFlight} {t('inFlight')} · {w.dropped} {t('dropped')} · {t('apiWrites')}{' '}
        {world.apiWrites} · {t('conflicts')} {world.conflicts}
      </div>
    </div>
  );
}
