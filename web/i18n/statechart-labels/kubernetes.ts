import type { controllerMachine } from '../../../machines/kubernetes/machine';
import type { ChartLabels } from './types';

/** A Kubernetes controller's statechart in words (machines/kubernetes/machine.ts): informers, workqueue, Reconcile. */
export const KUBERNETES_LABELS: ChartLabels<typeof controllerMachine> = {
  states: {
    watching: { en: 'watching', 'pt-BR': 'observando' },
    dequeue: { en: 'taking from the queue', 'pt-BR': 'tirando da fila' },
    reading: { en: 'reading the cache', 'pt-BR': 'lendo o cache' },
    deciding: { en: 'reconciling', 'pt-BR': 'reconciliando' },
    writing: { en: 'writing to the API', 'pt-BR': 'escrevendo na API' },
    batchDone: { en: 'writes sent', 'pt-BR': 'escritas enviadas' },
    result: { en: 'result', 'pt-BR': 'resultado' },
    choose: { en: 'error?', 'pt-BR': 'erro?' },
    ok: { en: 'succeeded', 'pt-BR': 'sucesso' },
    failed: { en: 'failed: requeued', 'pt-BR': 'falhou: de volta à fila' },
  },
  events: {
    'CONFIG.UPDATE': { en: 'configuration edited', 'pt-BR': 'configuração editada' },
  },
  actors: {
    watchNext: { done: { en: 'watch event', 'pt-BR': 'evento do watch' }, error: { en: 'watch failed', 'pt-BR': 'o watch falhou' } },
    readCache: {
      done: { en: 'cache read', 'pt-BR': 'cache lido' },
      error: { en: 'cache read failed', 'pt-BR': 'a leitura do cache falhou' },
    },
    apiWrite: { done: { en: 'written', 'pt-BR': 'escrito' }, error: { en: 'write failed', 'pt-BR': 'a escrita falhou' } },
  },
  delays: {
    instant: { en: 'next step', 'pt-BR': 'passo seguinte' },
  },
  guards: {
    hasWork: { en: 'queue not empty', 'pt-BR': 'fila com itens' },
    hasWrites: { en: 'writes to make', 'pt-BR': 'há escritas' },
    batchFailed: { en: 'a write failed', 'pt-BR': 'uma escrita falhou' },
    moreBatches: { en: 'more writes', 'pt-BR': 'mais escritas' },
    isError: { en: 'error', 'pt-BR': 'erro' },
  },
};
