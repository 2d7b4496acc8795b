import { isOne } from '../plural';
import type { Rule } from './types';
import { opt } from './types';

const plural = (n: string, one: string, many: string) => (isOne(Number(n), 'pt-BR') ? one : many);

/** A scheduled `terraform apply` as loopscope narrates it (sim/worlds/terraform); what terraform prints is quoted. */
export const TERRAFORM: Rule[] = [
  [/^changed in the console, outside Terraform: (.+)$/, 'alterado no console, fora do Terraform: ⟦$1⟧'],
  [/^deleted outside Terraform: (\S+) \((\S+)\)$/, 'apagado fora do Terraform: $1 ($2)'],
  [/^(terraform apply .+?) run once \(no scheduler: a tool, not a loop\); (\d+) resources, as (\S+)$/, '⟦$1⟧ executado uma vez (sem agendador: uma ferramenta, não um laço); $2 recursos, como $3'],
  [/^(terraform apply .+?) every (\S+) \(a scheduler makes it a loop\); (\d+) resources, as (\S+)$/, '⟦$1⟧ a cada $2 (um agendador faz dele um laço); $3 recursos, como $4'],
  [/^configuration edited: (\d+) resources, (terraform .+?)(?: every (\S+))?$/, (_m, n, cmd, every) => `configuração editada: ${n} recursos, ⟦${cmd}⟧${opt(every, (e) => ` a cada ${e}`)}`],
  [/^(terraform .+) \(by hand\)$/, '⟦$1⟧ (à mão)'],
  [/^(terraform force-unlock \S+): (.+)$/, '⟦$1⟧: ⟦$2⟧'],
  [/^run (\d+): (Acquiring state lock…) ID (\S+); state serial (\d+), (\d+) resources?$/, 'execução $1: ⟦$2⟧ ID $3; serial do estado $4, $5 recursos'],
  [/^run (\d+): (Error: .+)$/, 'execução $1: ⟦$2⟧'],
  [/^(Refreshing state…) (\d+) objects?, no changes outside Terraform$/, (_m, t, n = '') => `⟦${t}⟧ ${n} ${plural(n, 'objeto', 'objetos')}, nenhuma mudança fora do Terraform`],
  [/^refresh-only: the state will be updated to match (\d+) remote objects?; no infrastructure changes$/,
    (_m, n = '') => `⟦refresh-only⟧: o estado será atualizado para corresponder a ${n} ${plural(n, 'objeto remoto', 'objetos remotos')}; nenhuma mudança na infraestrutura`],
  [/^state written: serial (\d+)$/, 'estado gravado: serial $1'],
  [/^(Releasing state lock\.) Apply failed \(exit (\d+)\): (\d+) added, (\d+) changed, (\d+) destroyed(?:; (\d+) not applied \(their dependencies failed\))?\. The next run plans from this partial state\.$/,
    (_m, rel, exit, a, c, d, na) => `⟦${rel}⟧ O apply falhou (saída ${exit}): ${a} criados, ${c} alterados, ${d} destruídos${opt(na, (k) => `; ${k} não aplicados (suas dependências falharam)`)}. A próxima execução planeja a partir deste estado parcial.`],
  [/^(Releasing state lock\.) Planning failed \(exit (\d+)\): nothing was changed\.$/, '⟦$1⟧ O plano falhou (saída $2): nada foi alterado.'],
  [/^(Releasing state lock\.) plan exit code (\d+) \((\d+) to add, (\d+) to change, (\d+) to destroy\)$/, '⟦$1⟧ código de saída do plan: $2 ($3 a criar, $4 a alterar, $5 a destruir)'],
  [/^the cloud will fail the next (\d+|every) creates? of (\S+)( after the object exists \(tainted\))?$/,
    (_m, n = '', what, tainted) => `a nuvem vai falhar ${n === 'every' ? 'todas as próximas criações' : isOne(Number(n), 'pt-BR') ? 'a próxima criação' : `as próximas ${n} criações`} de ${what}${opt(tainted, () => ' depois que o objeto existir (tainted)')}`],
  [/^the application writes (\d+) GB to (\S+) \((\S+)\)$/, 'a aplicação grava $1 GB em $2 ($3)'],
  [/^console edit of (\S+): no such object$/, 'edição de $1 no console: objeto inexistente'],
  [/^delete of (\S+): no such object$/, 'remoção de $1: objeto inexistente'],
  [/^no object for (\S+) to write to$/, 'nenhum objeto de $1 onde gravar'],
  [/^(terraform force-unlock): no lock held$/, '⟦$1⟧: nenhum lock ativo'],
  [/^the terraform process is killed$/, 'o processo terraform é morto'],
  [/^(Error: .+) — the object exists: marked tainted$/, '⟦$1⟧ — o objeto existe: marcado como tainted'],
  [/^error: (.+)$/, 'erro: ⟦$1⟧'],
  [/^scheduler: run (\d+) starts$/, 'agendador: começa a execução $1'],
  // Terraform's own output: the plan, the apply's progress, its summary and its errors.
  [/^((?:Plan: |Releasing state lock\.|No changes\.|Note: Objects have changed|Error: |Apply complete!).*)$/, '⟦$1⟧'],
  [/^(\S+: (?:Creating|Creation complete|Destroying|Destruction complete|Modifying|Modifications complete|Still).*)$/, '⟦$1⟧'],
];
