import type { TranslationOf } from '../../../sim/notes/catalog';
import { verbatim } from '../../../sim/notes/catalog';
import type { TERRAFORM_NOTES } from '../../../sim/notes/terraform';
import { isOne, ptCount } from '../plural';

/** A scheduled `terraform apply` in Portuguese (sim/notes/terraform.ts); what terraform prints stays quoted. */
export const TERRAFORM_PT = {
  'terraform.output': ({ text }) => verbatim(text),
  'terraform.started': ({ command, every, resources, who }) =>
    `${verbatim(command)} ${every === null ? 'executado uma vez (sem agendador: uma ferramenta, não um laço)' : `a cada ${every} (um agendador faz dele um laço)`}; ${ptCount(resources, 'resource')}, como ${who}`,
  'terraform.lockAcquired': ({ run, lockId, serial, resources }) =>
    `execução ${run}: ${verbatim('Acquiring state lock…')} ID ${lockId}; serial do estado ${serial}, ${ptCount(resources, 'resource')}`,
  'terraform.lockFailed': ({ run, error }) => `execução ${run}: ${verbatim(error)}`,
  'terraform.refreshed': ({ objects }) =>
    `${verbatim('Refreshing state…')} ${ptCount(objects, 'object')}, nenhuma mudança fora do Terraform`,
  'terraform.refreshOnly': ({ objects }) =>
    `${verbatim('refresh-only')}: o estado será atualizado para corresponder a ${objects} ${isOne(objects, 'pt-BR') ? 'objeto remoto' : 'objetos remotos'}; nenhuma mudança na infraestrutura`,
  'terraform.changeFailed': ({ error, tainted }) => `${verbatim(error)}${tainted ? ' — o objeto existe: marcado como tainted' : ''}`,
  'terraform.stateWritten': ({ serial }) => `estado gravado: serial ${serial}`,
  'terraform.planExit': ({ unlock, exitCode, planned }) =>
    `${verbatim(unlock)} código de saída do plan: ${exitCode}${planned ? ` (${planned.add} a criar, ${planned.change} a alterar, ${planned.destroy} a destruir)` : ''}`,
  'terraform.planningFailed': ({ unlock }) => `${verbatim(unlock)} O plano falhou (saída 1): nada foi alterado.`,
  'terraform.applyFailed': ({ unlock, added, changed, destroyed, notApplied }) =>
    `${verbatim(unlock)} O apply falhou (saída 1): ${added} criados, ${changed} alterados, ${destroyed} destruídos${notApplied ? `; ${notApplied} não aplicados (suas dependências falharam)` : ''}. A próxima execução planeja a partir deste estado parcial.`,
  'terraform.scheduled': ({ run }) => `agendador: começa a execução ${run}`,
  'terraform.byHand': ({ command }) => `${verbatim(command)} (à mão)`,
  'terraform.configEdited': ({ resources, command, every }) =>
    `configuração editada: ${ptCount(resources, 'resource')}, ${verbatim(command)}${every === null ? '' : ` a cada ${every}`}`,
  'terraform.consoleEdit': ({ change }) => `alterado no console, fora do Terraform: ${verbatim(change)}`,
  'terraform.consoleEditMissing': ({ address }) => `edição de ${address} no console: objeto inexistente`,
  'terraform.deletedOutside': ({ address, id }) => `apagado fora do Terraform: ${address} (${id})`,
  'terraform.deleteMissing': ({ address }) => `remoção de ${address}: objeto inexistente`,
  'terraform.createsWillFail': ({ address, times, tainted }) =>
    `a nuvem vai falhar ${times < 0 ? 'todas as próximas criações' : times === 1 ? 'a próxima criação' : `as próximas ${times} criações`} de ${address}${tainted ? ' depois que o objeto existir (tainted)' : ''}`,
  'terraform.dataWritten': ({ gb, address, id }) => `a aplicação grava ${gb} GB em ${address} (${id})`,
  'terraform.writeMissing': ({ address }) => `nenhum objeto de ${address} onde gravar`,
  'terraform.forceUnlockNoLock': () => `${verbatim('terraform force-unlock')}: nenhum lock ativo`,
  'terraform.forceUnlocked': ({ lockId }) =>
    `${verbatim(`terraform force-unlock ${lockId}`)}: ${verbatim('Terraform state has been successfully unlocked!')}`,
  'terraform.killed': () => 'o processo terraform é morto',
} satisfies TranslationOf<typeof TERRAFORM_NOTES>;
