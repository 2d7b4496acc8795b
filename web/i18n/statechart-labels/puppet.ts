import type { puppetMachine } from '../../../machines/puppet/machine';
import type { ChartLabels } from './types';

/** The Puppet agent's statechart in words (machines/puppet/machine.ts). */
export const PUPPET_LABELS: ChartLabels<typeof puppetMachine> = {
  states: {
    boot: { en: 'boot', 'pt-BR': 'boot' },
    drawingSplay: { en: 'drawing the splay', 'pt-BR': 'sorteando o splay' },
    splaying: { en: 'splay', 'pt-BR': 'splay' },
    startingRun: { en: 'starting a run', 'pt-BR': 'iniciando uma execução' },
    retrieving: { en: 'getting the catalog', 'pt-BR': 'obtendo o catálogo' },
    evaluating: { en: 'comparing a resource', 'pt-BR': 'comparando um recurso' },
    syncing: { en: 'syncing a resource', 'pt-BR': 'sincronizando um recurso' },
    refreshing: { en: 'refreshing a service', 'pt-BR': 'reiniciando um serviço' },
    reporting: { en: 'sending the report', 'pt-BR': 'enviando o relatório' },
    finishing: { en: 'finishing the run', 'pt-BR': 'concluindo a execução' },
    sleeping: { en: 'sleeping (runinterval)', 'pt-BR': 'dormindo (runinterval)' },
  },
  events: {
    'CONFIG.UPDATE': { en: 'new catalog', 'pt-BR': 'novo catálogo' },
    'PUPPET.RUN': { en: 'puppet agent -t', 'pt-BR': 'puppet agent -t' },
  },
  actors: {
    drawSplay: { done: { en: 'splay drawn', 'pt-BR': 'splay sorteado' }, error: { en: 'splay failed', 'pt-BR': 'o sorteio falhou' } },
    readClock: { done: { en: 'clock read', 'pt-BR': 'relógio lido' }, error: { en: 'clock unreadable', 'pt-BR': 'relógio ilegível' } },
    retrieve: {
      done: { en: 'catalog received', 'pt-BR': 'catálogo recebido' },
      error: { en: 'catalog failed', 'pt-BR': 'o catálogo falhou' },
    },
    syncResource: {
      done: { en: 'resource synced', 'pt-BR': 'recurso sincronizado' },
      error: { en: 'sync failed', 'pt-BR': 'a sincronização falhou' },
    },
    refreshResource: {
      done: { en: 'service refreshed', 'pt-BR': 'serviço reiniciado' },
      error: { en: 'refresh failed', 'pt-BR': 'o reinício falhou' },
    },
    sendReport: {
      done: { en: 'report sent', 'pt-BR': 'relatório enviado' },
      error: { en: 'report failed', 'pt-BR': 'o relatório falhou' },
    },
    clockAtEnd: { done: { en: 'run timed', 'pt-BR': 'duração medida' }, error: { en: 'clock unreadable', 'pt-BR': 'relógio ilegível' } },
  },
  delays: {
    splay: { en: 'splay elapsed', 'pt-BR': 'fim do splay' },
    compareTime: { en: 'compared', 'pt-BR': 'comparou' },
    untilNextRun: { en: 'runinterval elapsed', 'pt-BR': 'fim do runinterval' },
  },
  guards: {
    splayEnabled: { en: 'splay on', 'pt-BR': 'splay ligado' },
    catalogHasCycle: { en: 'dependency cycle', 'pt-BR': 'ciclo de dependências' },
    stepIs: ({ kind }) => STEP[kind],
  },
};

/** What evaluating a resource decided (machines/puppet/transaction.ts Step). */
const STEP = {
  done: { en: 'all compared', 'pt-BR': 'tudo comparado' },
  sync: { en: 'out of sync', 'pt-BR': 'fora de conformidade' },
  refresh: { en: 'refresh due', 'pt-BR': 'reinício pendente' },
  skip: { en: 'dependency failed', 'pt-BR': 'dependência falhou' },
  insync: { en: 'in sync', 'pt-BR': 'em conformidade' },
  noop: { en: 'noop', 'pt-BR': 'noop' },
  wouldRefresh: { en: 'would refresh (noop)', 'pt-BR': 'reiniciaria (noop)' },
  next: { en: 'next resource', 'pt-BR': 'próximo recurso' },
} as const;
