import { puppetBanner } from '../../components/banner/puppet';
import { PUPPET_LABELS } from '../../i18n/statechart-labels/puppet';
import type { LoopUi } from '../../loop-ui-types';
import { strokeAt } from '../chart-types';

/** Puppet in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const PUPPET_UI: LoopUi<'puppet'> = {
  chart: ({ t }) => ({
    series: [
      { label: t('agentChanges'), stroke: strokeAt(0) },
      { label: t('driftsSeries'), stroke: strokeAt(1) },
    ],
    valuesOf: ({ world: w }) => [w.agentChanges, w.drifts],
  }),
  banner: puppetBanner,
  card: {
    year: 2005,
    name: 'Puppet',
    observe: { en: 'facts and each resource’s current state', 'pt-BR': 'fatos e o estado atual de cada recurso' },
    compare: { en: 'the catalog (desired) against the system', 'pt-BR': 'o catálogo (desejado) com o sistema' },
    act: { en: 'fix drifted resources, every 30 minutes', 'pt-BR': 'corrige recursos divergentes, a cada 30 minutos' },
  },
  tour: {
    scenario: 'puppet-webserver',
    moment: 'drift-reverted',
    point: {
      en: 'Desired state as a catalog: every 30 minutes the agent finds what drifted and puts it back (a corrective change).',
      'pt-BR': 'Estado desejado como catálogo: a cada 30 minutos o agente encontra o que divergiu e corrige (uma mudança corretiva).',
    },
  },
  labels: PUPPET_LABELS,
};
