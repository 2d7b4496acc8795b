import { useState } from 'react';
import type { KubeFault } from '../../../sim/worlds/kubernetes/model';
import { objectsOf } from '../../../sim/worlds/kubernetes/world';
import { useT } from '../../i18n/i18n';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';

/** Timeline faults the lab can inject now (sim/worlds/kubernetes/model.ts KubeFault). */
export function KubernetesInterventions({ session, frame }: WorldViewProps<FrameOf<'kubernetes'>>) {
  const t = useT();
  const world = frame.world;
  const pods = world.pods.filter((p) => p.status !== 'Terminating').map((p) => p.name);
  const nodes = world.nodes;
  const [pod, setPod] = useState('');
  const [node, setNode] = useState('');
  const podName = pods.includes(pod) ? pod : (pods[0] ?? '');
  const nodeName = nodes.some((n) => n.name === node) ? node : (nodes[0]?.name ?? '');
  const nodeReady = nodes.find((n) => n.name === nodeName)?.ready ?? false;
  const inject = (fault: KubeFault) => session.inject(fault);
  // The summary drops namespaces; the live world (interventions only show on a live run) has them.
  const namespaceOf = (name: string) =>
    objectsOf(session.runnerOf('kubernetes')!.world, 'Pod').find((p) => p.metadata.name === name)?.metadata.namespace ?? 'default';
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{t('interventions')}</h3>
      <div className="row">
        <select data-testid="k8s-pod" value={podName} onChange={(e) => setPod(e.target.value)}>
          {pods.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button
          data-testid="k8s-crash-pod"
          disabled={!podName}
          onClick={() => inject({ kind: 'crashPod', namespace: namespaceOf(podName), pod: { name: podName } })}
        >
          {t('crashPod')}
        </button>
      </div>
      <div className="row">
        <select data-testid="k8s-node" value={nodeName} onChange={(e) => setNode(e.target.value)}>
          {nodes.map((n) => (
            <option key={n.name} value={n.name}>
              {n.name}
            </option>
          ))}
        </select>
        <button data-testid="k8s-fail-node" disabled={!nodeName || !nodeReady} onClick={() => inject({ kind: 'nodeFail', node: nodeName })}>
          {t('failNode')}
        </button>
        <button
          data-testid="k8s-recover-node"
          disabled={!nodeName || nodeReady}
          onClick={() => inject({ kind: 'nodeRecover', node: nodeName })}
        >
          {t('recoverNode')}
        </button>
      </div>
      <div className="row">
        <button
          data-testid="k8s-delay-watch"
          onClick={() => inject({ kind: 'delayWatch', objectKind: null, extraMs: 5_000, forMs: 60_000 })}
        >
          {t('delayWatch')}
        </button>
      </div>
    </section>
  );
}
