import type { ReactNode } from 'react';
import { useLanguage, useT } from '../../i18n/i18n';
import type { KubeSummary } from '../../../sim/loops/kubernetes-world-schema';
import { KUBERNETES_TEXT, objectStateParts } from './messages';

/** `kubectl get deploy`, `kubectl get rs` and the other kinds, in kubectl's columns. */
export function KubernetesTables({ world }: { world: KubeSummary }) {
  const t = useT();
  const lang = useLanguage();
  const k = KUBERNETES_TEXT[lang];
  const state = (text: string) =>
    objectStateParts(text, lang).map((p, i) =>
      p.quoted ? (
        <span key={i} lang="en">
          {p.text}
        </span>
      ) : (
        <span key={i}>{p.text}</span>
      ),
    );
  return (
    <div className="world-tables">
      {world.deployments.length > 0 && (
        <Table
          title={t('deployments')}
          testid="kubernetes-deployments"
          head={k.deployHead}
          rows={world.deployments.map((d) => [d.name, d.ready, d.upToDate, d.available, `${d.generation}/${d.observedGeneration}`])}
        />
      )}
      {world.replicasets.length > 0 && (
        <Table
          title={t('replicaSets')}
          testid="kubernetes-replicasets"
          head={k.rsHead}
          rows={world.replicasets.map((r) => [r.name, r.desired, r.current, r.ready])}
        />
      )}
      {world.resources.length > 0 && (
        <Table
          title={t('otherObjects')}
          testid="kubernetes-resources"
          head={k.objectsHead}
          rows={world.resources.map((r) => [r.kind, r.deleting ? `${r.name} (${k.deleting})` : r.name, state(r.state)])}
        />
      )}
      {world.queues.length > 0 && (
        <Table title={k.queues} testid="kubernetes-queues" head={k.queuesHead} rows={world.queues.map((q) => [q.name, q.length])} />
      )}
    </div>
  );
}

function Table({ title, testid, head, rows }: { title: string; testid: string; head: string[]; rows: (string | number | ReactNode)[][] }) {
  return (
    <div>
      <h4>{title}</h4>
      <table className="world-table" data-testid={testid}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r[0]) + String(r[1])}>
              {r.map((c, i) => (
                <td key={i}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
