import { kubernetesBanner } from '../../components/banner/kubernetes';
import { KUBERNETES_LABELS } from '../../i18n/statechart-labels/kubernetes';
import type { LoopUi } from '../../loop-ui-types';
import { strokeAt } from '../chart-types';
import { replicaCounts } from './kubernetesView';

/** Kubernetes controllers in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const KUBERNETES_UI: LoopUi<'kubernetes'> = {
  chart: ({ t }) => ({
    series: [
      { label: t('desiredReplicas'), stroke: strokeAt(1) },
      { label: t('readyPods'), stroke: strokeAt(0) },
    ],
    valuesOf: (f) => replicaCounts(f.world),
  }),
  banner: kubernetesBanner,
  card: {
    year: 2014,
    name: 'Kubernetes',
    observe: { en: 'informers watch objects', 'pt-BR': 'informers observam os objetos' },
    compare: { en: 'spec against status in syncHandler', 'pt-BR': 'spec contra status no syncHandler' },
    act: { en: 'create/delete, requeue with backoff', 'pt-BR': 'cria/apaga, reenfileira com backoff' },
  },
  tour: {
    scenario: 'kubernetes-replicaset',
    moment: 'pod-crashed',
    point: {
      en: 'The pattern made general: informers observe, the reconcile compares spec with status, the workqueue retries with backoff.',
      'pt-BR': 'O padrão generalizado: informers observam, o reconcile compara spec com status, a workqueue tenta de novo com backoff.',
    },
  },
  comparison: {
    // The replicas the HPA wrote to its target (the ReplicaSets' spec, as the world holds it).
    decision: (f) => replicaCounts(f.world)[0],
    // sim/loops/kubernetes-hpa-options.ts: options.policy, the upstream algorithm when absent.
    ownPolicy: ({ options: { policy } }) => (policy === undefined ? 'kubernetes' : typeof policy === 'string' ? policy : undefined),
  },
  labels: KUBERNETES_LABELS,
};
