import { useLanguage, useT } from '../../i18n/i18n';
import { KUBE_TEXT } from './messages';
import type { WorldViewProps } from '../types';
import '../worlds.css';
import { KubeEvents } from './KubeEvents';
import { asKube } from './kubeView';
import { KubeTables } from './KubeTables';
import { NodeColumns } from './NodeColumns';

/** The simulated cluster: pods under their nodes, workload tables, recent events. */
export function KubeWorldView({ frame }: WorldViewProps) {
  const t = useT();
  const k = KUBE_TEXT[useLanguage()];
  const world = asKube(frame);
  const ready = world.pods.filter((p) => p.ready).length;
  return (
    <section className="world kube-world" data-testid="world">
      <h3>{t('pods')}: <span data-testid="kube-ready">{ready}</span>/{world.pods.length} {k.ready} · {t('nodes')}: {world.nodes.length}</h3>
      <NodeColumns world={world} />
      <KubeTables world={world} />
      <KubeEvents world={world} />
    </section>
  );
}
