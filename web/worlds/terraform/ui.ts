import { terraformBanner } from '../../components/banner/terraform';
import { TERRAFORM_LABELS } from '../../i18n/statechart-labels/terraform';
import type { LoopUi } from '../../loop-ui-types';
import { strokeAt } from '../chart-types';

/** Terraform in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const TERRAFORM_UI: LoopUi<'terraform'> = {
  chart: ({ t }) => ({
    series: [
      { label: t('stateSerial'), stroke: strokeAt(0) },
      { label: t('cloudCalls'), stroke: strokeAt(1) },
      { label: t('dataLost'), stroke: strokeAt(4) },
    ],
    valuesOf: ({ world: w }) => [w.serial, w.calls, w.dataLostGb],
  }),
  banner: terraformBanner,
  card: {
    year: 2011,
    name: 'Terraform',
    observe: { en: 'refresh: read the real infrastructure', 'pt-BR': 'refresh: lê a infraestrutura real' },
    compare: { en: 'plan: configuration against state', 'pt-BR': 'plan: configuração contra o estado' },
    act: { en: 'apply the diff (when a human says so)', 'pt-BR': 'apply do diff (quando um humano manda)' },
  },
  tour: {
    scenario: 'terraform-drift',
    moment: 'drift-reverted',
    point: {
      en: 'refresh, plan, apply: the same three steps, run by a scheduler here; drift made in the console is reverted by the next apply.',
      'pt-BR':
        'refresh, plan, apply: os mesmos três passos, aqui executados por um agendador; o desvio feito no console é revertido pelo próximo apply.',
    },
  },
  labels: TERRAFORM_LABELS,
};
