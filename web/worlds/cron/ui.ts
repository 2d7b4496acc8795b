import { cronBanner } from '../../components/banner/cron';
import { CRON_LABELS } from '../../i18n/statechart-labels/cron';
import type { LoopUi } from '../../loop-ui-types';
import { strokeAt } from '../chart-types';
import { crontabOf } from './cronView';

/** cron in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const CRON_UI: LoopUi<'cron'> = {
  chart: ({ config, frames }) => {
    const fromCrontab = crontabOf(config).map((e) => e.name);
    // A loaded trace has no crontab: the jobs are the ones that ran.
    const last = frames.at(-1);
    const jobs = fromCrontab.length ? fromCrontab : last ? Object.keys(last.world.counts).sort() : [];
    return {
      series: jobs.map((job, i) => ({ label: job, stroke: strokeAt(i) })),
      valuesOf: (f) => {
        const c = f.world.counts;
        return jobs.map((j) => c[j]?.runs ?? 0);
      },
    };
  },
  banner: cronBanner,
  card: {
    year: 1975,
    name: 'cron',
    observe: { en: 'the clock, once a minute', 'pt-BR': 'o relógio, uma vez por minuto' },
    compare: { en: 'the time against each crontab line', 'pt-BR': 'a hora com cada linha do crontab' },
    act: { en: 'run the jobs that match', 'pt-BR': 'executa as tarefas que casam' },
  },
  tour: {
    scenario: 'cron-normal',
    moment: 'seven-oclock',
    point: {
      en: 'The oldest loop: wake every minute, compare the clock with each crontab line, run what matches. It never checks that a job worked.',
      'pt-BR':
        'O laço mais antigo: acorda a cada minuto, compara o relógio com cada linha do crontab, executa o que casa. Nunca verifica se a tarefa funcionou.',
    },
  },
  labels: CRON_LABELS,
};
