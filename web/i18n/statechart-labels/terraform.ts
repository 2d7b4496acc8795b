import type { terraformMachine } from '../../../machines/terraform/machine';
import type { ChartLabels } from './types';

/** A scheduled `terraform apply`'s statechart in words (machines/terraform/machine.ts). */
export const TERRAFORM_LABELS: ChartLabels<typeof terraformMachine> = {
  states: {
    starting: { en: 'starting', 'pt-BR': 'iniciando' },
    locking: { en: 'locking the state', 'pt-BR': 'travando o estado' },
    refreshing: { en: 'refresh', 'pt-BR': 'refresh' },
    planning: { en: 'plan', 'pt-BR': 'plano' },
    scheduling: { en: 'next change', 'pt-BR': 'próxima mudança' },
    applying: { en: 'applying a change', 'pt-BR': 'aplicando uma mudança' },
    checkpoint: { en: 'checkpoint', 'pt-BR': 'ponto de controle' },
    persisting: { en: 'saving the state', 'pt-BR': 'salvando o estado' },
    deciding: { en: 'finishing the run', 'pt-BR': 'concluindo a execução' },
    writingState: { en: 'writing the state', 'pt-BR': 'gravando o estado' },
    unlocking: { en: 'unlocking the state', 'pt-BR': 'destravando o estado' },
    idle: { en: 'idle until the next run', 'pt-BR': 'parado até a próxima execução' },
    failed: { en: 'run failed', 'pt-BR': 'execução falhou' },
  },
  events: {
    'CONFIG.UPDATE': { en: 'configuration edited', 'pt-BR': 'configuração editada' },
    'TERRAFORM.RUN': { en: 'run now', 'pt-BR': 'executar agora' },
  },
  actors: {
    acquireLock: { done: { en: 'lock acquired', 'pt-BR': 'lock obtido' }, error: { en: 'lock refused', 'pt-BR': 'lock recusado' } },
    refresh: { done: { en: 'refreshed', 'pt-BR': 'refresh feito' }, error: { en: 'refresh failed', 'pt-BR': 'o refresh falhou' } },
    applyChange: {
      done: { en: 'change applied', 'pt-BR': 'mudança aplicada' },
      error: { en: 'change failed', 'pt-BR': 'a mudança falhou' },
    },
    persistState: { done: { en: 'state saved', 'pt-BR': 'estado salvo' }, error: { en: 'saving failed', 'pt-BR': 'falha ao salvar' } },
    releaseLock: { done: { en: 'lock released', 'pt-BR': 'lock liberado' }, error: { en: 'unlock failed', 'pt-BR': 'falha ao liberar' } },
  },
  delays: {
    compareTime: { en: 'planned', 'pt-BR': 'planejado' },
    every: { en: 'schedule', 'pt-BR': 'agendamento' },
  },
  guards: {
    planFailed: { en: 'plan failed', 'pt-BR': 'o plano falhou' },
    modeIs: ({ mode }) =>
      mode === 'plan'
        ? { en: 'plan only', 'pt-BR': 'só o plano' }
        : mode === 'refresh-only'
          ? { en: 'refresh only', 'pt-BR': 'só o refresh' }
          : { en: 'apply', 'pt-BR': 'aplicar' },
    hasOp: { en: 'changes left', 'pt-BR': 'restam mudanças' },
    workingStateChanged: { en: 'state changed', 'pt-BR': 'o estado mudou' },
    mustWrite: { en: 'state to write', 'pt-BR': 'há estado a gravar' },
    scheduled: { en: 'scheduled', 'pt-BR': 'agendado' },
  },
};
