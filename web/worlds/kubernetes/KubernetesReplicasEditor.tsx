import { useState } from 'react';
import type { KubeFault } from '../../../sim/worlds/kubernetes/model';
import { objectsOf } from '../../../sim/worlds/kubernetes/world';
import { useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';

const SCALABLE = ['Deployment', 'ReplicaSet'] as const;

/** Parses spec.replicas as kubectl scale --replicas does: a whole number ≥ 0. */
function parseReplicas(text: string): { ok: true; replicas: number } | { ok: false; error: string } {
  const s = text.trim();
  return /^\d+$/.test(s) && Number.isSafeInteger(Number(s))
    ? { ok: true, replicas: Number(s) }
    : { ok: false, error: `spec.replicas: expected a whole number ≥ 0, got ${JSON.stringify(text)}` };
}

/** The desired replica count of a Deployment/ReplicaSet; applied as the binding's `scale` fault. */
export function KubernetesReplicasEditor({ session }: WorldViewProps) {
  const t = useT();
  // The summary drops namespaces and spec; the live world (editors only show on a live run) has them.
  const live = session.runnerOf('kubernetes')!.world;
  const targets = SCALABLE.flatMap((kind) =>
    objectsOf(live, kind).map((o) => ({
      key: `${kind}/${o.metadata.namespace}/${o.metadata.name}`,
      kind,
      namespace: o.metadata.namespace,
      name: o.metadata.name,
      replicas: (o.spec as { replicas?: unknown }).replicas, // cast: only an optional unknown field
    })),
  );
  const [picked, setPicked] = useState('');
  const target = targets.find((x) => x.key === picked) ?? targets[0];
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [applied, setApplied] = useState(false);
  const shown = text ?? String(target?.replicas ?? '');
  const apply = () => {
    if (!target) return;
    const r = parseReplicas(shown);
    if (!r.ok) {
      setError(r.error);
      setApplied(false);
      return;
    }
    setError(null);
    session.inject({
      kind: 'scale',
      objectKind: target.kind,
      namespace: target.namespace,
      name: target.name,
      replicas: r.replicas,
    } satisfies KubeFault);
    setText(null);
    setApplied(true);
  };
  return (
    <section className="editor" data-testid="config-editor">
      <h3>{t('replicasEditor')}</h3>
      <div className="row">
        <select
          data-testid="k8s-scale-target"
          value={target?.key ?? ''}
          onChange={(e) => {
            setPicked(e.target.value);
            setText(null);
            setError(null);
            setApplied(false);
          }}
        >
          {targets.map((x) => (
            <option key={x.key} value={x.key}>
              {x.kind.toLowerCase()}/{x.name}
            </option>
          ))}
        </select>
        <label>
          spec.replicas{' '}
          <input
            data-testid="k8s-replicas"
            value={shown}
            size={4}
            aria-invalid={error !== null}
            onChange={(e) => {
              setText(e.target.value);
              setApplied(false);
            }}
          />
        </label>
        <button data-testid="config-apply" disabled={!target} onClick={apply}>
          {t('apply')}
        </button>
        {applied && (
          <span className="ok" data-testid="config-applied">
            {t('applied')}
          </span>
        )}
      </div>
      {error && (
        <ul className="errors" data-testid="config-error">
          <li>{error}</li>
        </ul>
      )}
    </section>
  );
}
