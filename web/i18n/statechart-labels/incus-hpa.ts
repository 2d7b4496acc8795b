import type { incusHpaMachine } from '../../../machines/incus-hpa/machine';
import type { ChartLabels } from './types';

/** The Incus HPA's statechart in words (machines/incus-hpa/machine.ts). */
export const INCUS_HPA_LABELS: ChartLabels<typeof incusHpaMachine> = {
  states: {
    observing: { en: 'observing', 'pt-BR': 'observando' },
    comparing: { en: 'comparing', 'pt-BR': 'comparando' },
    acting: { en: 'acting', 'pt-BR': 'agindo' },
    next: { en: 'next action', 'pt-BR': 'próxima ação' },
    creating: { en: 'creating a pod', 'pt-BR': 'criando um pod' },
    deleting: { en: 'deleting a pod', 'pt-BR': 'apagando um pod' },
    waiting: { en: 'waiting', 'pt-BR': 'esperando' },
    backoff: { en: 'backing off', 'pt-BR': 'em backoff' },
  },
  events: {
    'CONFIG.UPDATE': { en: 'hpa.yaml edited', 'pt-BR': 'hpa.yaml editado' },
  },
  actors: {
    observe: {
      done: { en: 'instances listed', 'pt-BR': 'instâncias listadas' },
      error: { en: 'listing failed', 'pt-BR': 'a listagem falhou' },
    },
    createPod: { done: { en: 'pod created', 'pt-BR': 'pod criado' }, error: { en: 'create failed', 'pt-BR': 'a criação falhou' } },
    deletePod: { done: { en: 'pod deleted', 'pt-BR': 'pod apagado' }, error: { en: 'delete failed', 'pt-BR': 'a remoção falhou' } },
  },
  delays: {
    compareTime: { en: 'decided', 'pt-BR': 'decidiu' },
    period: { en: 'period elapsed', 'pt-BR': 'fim do período' },
    backoff: { en: 'backoff elapsed', 'pt-BR': 'fim do backoff' },
  },
  guards: {
    hasActions: { en: 'actions to do', 'pt-BR': 'há ações' },
    policyFailed: { en: 'policy failed', 'pt-BR': 'a política falhou' },
    nextIsCreate: { en: 'next: create', 'pt-BR': 'próxima: criar' },
    nextIsDelete: { en: 'next: delete', 'pt-BR': 'próxima: apagar' },
  },
};
