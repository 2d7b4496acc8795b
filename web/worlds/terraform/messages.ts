import type { Language } from '../../i18n/messages';

/** Terraform's interventions and editor (kept beside them). */
export const TERRAFORM_TEXT: Record<
  Language,
  Record<
    | 'interventions'
    | 'resource'
    | 'drift'
    | 'failCreate'
    | 'crash'
    | 'runNow'
    | 'forceUnlock'
    | 'editor'
    | 'apply'
    | 'applied'
    | 'driftHint',
    string
  >
> = {
  en: {
    interventions: 'Interventions',
    resource: 'Resource',
    drift: 'Change it in the console',
    failCreate: 'Fail its next create',
    crash: 'Crash terraform (kill -9)',
    runNow: 'Run now',
    forceUnlock: 'force-unlock',
    editor: 'Desired state (the configuration)',
    apply: 'Apply',
    applied: 'Applied: the next run plans against it.',
    driftHint: 'argument=value',
  },
  'pt-BR': {
    interventions: 'Intervenções',
    resource: 'Recurso',
    drift: 'Alterar no console',
    failCreate: 'Falhar a próxima criação',
    crash: 'Derrubar o terraform (kill -9)',
    runNow: 'Executar agora',
    forceUnlock: 'force-unlock',
    editor: 'Estado desejado (a configuração)',
    apply: 'Aplicar',
    applied: 'Aplicado: a próxima execução planeja contra ela.',
    driftHint: 'argumento=valor',
  },
};
