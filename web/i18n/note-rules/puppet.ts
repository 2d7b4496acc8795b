import type { Rule } from './types';
import { pt } from '../plural';
import { opt } from './types';

/** The Puppet agent's run as loopscope narrates it (sim/worlds/puppet); Puppet's own log lines are quoted. */
export const PUPPET: Rule[] = [
  [/^changed outside Puppet: (.+)$/, 'alterado fora do Puppet: ⟦$1⟧'],
  [/^new catalog version (\d+) \((\d+) resources\), (.+): used from the next run$/, 'nova versão do catálogo $1 ($2 recursos), ⟦$3⟧: usada a partir da próxima execução'],
  [/^next run in (\S+)$/, 'próxima execução em $1'],
  [/^repository mirror broken for (\S+): the next (\d+) installs? will fail$/, 'espelho do repositório quebrado para $1: as próximas $2 instalações vão falhar'],
  [/^repository publishes (\S+) (\S+)$/, 'o repositório publica $1 $2'],
  [/^run (\d+) report: (\w+), exit code (\d+) — (?:(\d+) changes?(?: \((\d+) corrective\))?|(\d+) out of sync, not changed \(noop(?:, (\d+) corrective)?\)), (\d+) failed, (\d+) skipped(?:, (\d+) restarted)?$/,
    (_m, run, status, exit, changes, corrective, out, noopCorrective, failed, skipped, restarted) =>
      `relatório da execução ${run}: ⟦${status}⟧, código de saída ${exit} — ${changes !== undefined ? `${pt(changes, 'change')}${opt(corrective, (c) => ` (${pt(c, 'corrective')})`)}`
        : `${out} fora de conformidade, sem mudança (noop${opt(noopCorrective, (c) => `, ${pt(c, 'corrective')}`)})`}, ${failed} com falha, ${pt(skipped, 'skipped')}${opt(restarted, (r) => `, ${pt(r, 'restarted')}`)}`],
  [/^run (\d+): (Applying configuration version '[^']*'(?: \(noop\))?) — order (.+)$/, 'execução $1: ⟦$2⟧ — ordem $3'],
  [/^drift on (\S+) failed: (.+)$/, 'o desvio em $1 falhou: ⟦$2⟧'],
  [/^run (\d+): retrieving facts, catalog and the current state of (\d+) resources$/, 'execução $1: obtendo os fatos, o catálogo e o estado atual de $2 recursos'],
  [/^puppet agent: (.+); catalog of (\d+) resources$/, '⟦puppet agent: $1⟧; catálogo de $2 recursos'],
  // What syncing sets (a property to a value of the catalog's: data, quoted) and a service's queued refresh.
  [/^(\w+\[[^\]]+\]): (\w+) → (.*)$/, '$1: ⟦$2⟧ → ⟦$3⟧'],
  [/^(\w+\[[^\]]+\]): restart \((\d+) queued events?\)$/, (_m, ref, n) => `${ref}: reinício (${pt(n, 'event')} na fila)`],
  [/^((?:Notice|Warning|Error|Info): .+)$/, '⟦$1⟧'],
  [/^(Sleeping for \d+ seconds \(splay is enabled\))$/, '⟦$1⟧'],
];
