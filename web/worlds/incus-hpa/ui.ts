import { controllerOf } from '../../../sim/trace';
import { incusHpaBanner } from '../../components/banner/incus-hpa';
import { INCUS_HPA_LABELS } from '../../i18n/statechart-labels/incus-hpa';
import type { LoopUi } from '../../loop-ui-types';
import { incusHpaNumbers } from './summary';

/** The Incus HPA (the talk's lab) in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const INCUS_HPA_UI: LoopUi<'incus-hpa'> = {
  chart: ({ t }) => ({
    series: [
      { label: t('avgMemory'), stroke: '#1f6feb', scale: 'pct' },
      { label: t('threshold'), stroke: '#1b1f24', scale: 'pct', dash: [6, 4] },
      { label: t('replicas'), stroke: '#cf6a00' },
    ],
    valuesOf: (f) => {
      const n = incusHpaNumbers(f);
      return [n.avg, n.threshold, n.running];
    },
  }),
  banner: incusHpaBanner,
  card: {
    year: null,
    name: { en: 'Incus HPA (the talk’s lab)', 'pt-BR': 'Incus HPA (o laboratório da palestra)' },
    observe: { en: 'list instances and their memory', 'pt-BR': 'lista instâncias e sua memória' },
    compare: { en: 'average memory % against the threshold', 'pt-BR': 'memória média % contra o limite' },
    act: { en: 'create or delete one pod', 'pt-BR': 'cria ou apaga um pod' },
  },
  tour: {
    scenario: 'talk-lab',
    moment: 'first-scale-up',
    point: {
      en: 'The talk’s lab: a memory autoscaler for Incus containers. Load arrives, the average crosses the threshold, the loop creates a pod.',
      'pt-BR':
        'O laboratório da palestra: um autoscaler de memória para contêineres Incus. A carga chega, a média passa do limite, o laço cria um pod.',
    },
  },
  comparison: {
    // The last decision's desired pod count (frame.controller).
    decision: (f) => controllerOf(f, 'incus-hpa')?.decision?.desired ?? null,
    ownPolicy: (config) => config.policy,
  },
  labels: INCUS_HPA_LABELS,
};
