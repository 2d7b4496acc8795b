import { useT } from '../../i18n/i18n';
import { clock } from '../../lab/format';
import type { KubeSummary } from '../../../sim/worlds/kubernetes/summary';

/** `kubectl get events`: the latest few, newest last. */
export function KubeEvents({ world }: { world: KubeSummary }) {
  const t = useT();
  const w = world.watch;
  return (
    <div className="kube-events">
      <h4>{t('events')}</h4>
      <table className="kube-table" data-testid="kube-events">
        <thead><tr><th>LAST SEEN</th><th>TYPE</th><th>REASON</th><th>OBJECT</th><th>MESSAGE</th></tr></thead>
        <tbody>{world.events.map((e, i) => (
          <tr key={`${e.t}-${i}`} className={e.type === 'Warning' ? 'warning' : ''}><td>{clock(e.t)}</td><td>{e.type}</td><td>{e.reason}</td><td>{e.object}</td><td>{e.message}</td></tr>
        ))}</tbody>
      </table>
      <div className="muted" data-testid="kube-watch">
        {t('watchStream')}: {w.cached} {t('cached')} · {w.inFlight} {t('inFlight')} · {w.dropped} {t('dropped')} · {t('apiWrites')} {world.apiWrites} · {t('conflicts')} {world.conflicts}
      </div>
    </div>
  );
}
