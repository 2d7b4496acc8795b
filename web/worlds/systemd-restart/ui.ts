import { systemdRestartBanner } from '../../components/banner/systemd-restart';
import { SYSTEMD_RESTART_LABELS } from '../../i18n/statechart-labels/systemd-restart';
import type { LoopUi } from '../../loop-ui-types';
import { strokeAt } from '../chart-types';

/** systemd's restart policy in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const SYSTEMD_RESTART_UI: LoopUi<'systemd-restart'> = {
  chart: ({ t }) => ({
    series: [
      { label: t('startsSeries'), stroke: strokeAt(0) },
      { label: t('cleanExitsSeries'), stroke: strokeAt(2) },
    ],
    valuesOf: ({ world: w }) => [w.starts, w.cleanExits],
  }),
  banner: systemdRestartBanner,
  card: {
    year: 2010,
    name: 'systemd',
    observe: { en: 'the service’s main process exits', 'pt-BR': 'o processo principal do serviço termina' },
    compare: { en: 'Restart= policy and the start-limit window', 'pt-BR': 'a política Restart= e a janela do limite de partidas' },
    act: { en: 'restart after RestartSec, or give up (failed)', 'pt-BR': 'reinicia após RestartSec, ou desiste (estado “failed”)' },
  },
  tour: {
    scenario: 'systemd-crash-loop',
    moment: 'start-limit-hit',
    point: {
      en: 'Restart= watches one process: it restarts it on failure — until the start limit says a loop that only restarts is not converging.',
      'pt-BR':
        'Restart= observa um processo: reinicia quando falha — até o limite de partidas dizer que um laço que só reinicia não está convergindo.',
    },
  },
  labels: SYSTEMD_RESTART_LABELS,
};
