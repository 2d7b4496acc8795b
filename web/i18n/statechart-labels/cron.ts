import type { cronMachine } from '../../../machines/cron/machine';
import type { ChartLabels } from './types';

/** crond's statechart in words (machines/cron/machine.ts). */
export const CRON_LABELS: ChartLabels<typeof cronMachine> = {
  states: {
    sleeping: { en: 'sleeping', 'pt-BR': 'dormindo' },
    readingClock: { en: 'reading the clock', 'pt-BR': 'lendo o relógio' },
    comparing: { en: 'comparing', 'pt-BR': 'comparando' },
    running: { en: 'starting jobs', 'pt-BR': 'iniciando tarefas' },
  },
  events: {
    'CONFIG.UPDATE': { en: 'crontab edited', 'pt-BR': 'crontab editado' },
  },
  actors: {
    readClock: { done: { en: 'clock read', 'pt-BR': 'relógio lido' }, error: { en: 'clock unreadable', 'pt-BR': 'relógio ilegível' } },
    runJobs: {
      done: { en: 'jobs started', 'pt-BR': 'tarefas iniciadas' },
      error: { en: 'jobs failed to start', 'pt-BR': 'tarefas não iniciaram' },
    },
  },
  delays: {
    untilNextMinute: { en: 'next minute', 'pt-BR': 'próximo minuto' },
    compareTime: { en: 'compared', 'pt-BR': 'comparou' },
  },
  guards: {
    sameMinute: { en: 'same minute', 'pt-BR': 'mesmo minuto' },
    hasRuns: { en: 'jobs due', 'pt-BR': 'tarefas na hora' },
  },
};
