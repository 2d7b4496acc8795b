import type { Rule } from './types';
import { eachOf, firstMatch } from './types';

/** How crond classified a wake-up (sim/loops/cron.ts KIND_WORDS, after cronie's cron.c). */
const WAKEUP: Rule[] = [
  [/^woke late: every missed minute runs$/, 'acordou atrasado: cada minuto perdido executa'],
  [/^clock jumped forward \(DST starts\?\): wildcard jobs once, fixed-time jobs for each skipped minute$/,
    'o relógio saltou para a frente (início do horário de verão?): tarefas com curinga uma vez, tarefas de hora fixa para cada minuto pulado'],
  [/^clock went back \(DST ends\?\): wildcard jobs only, fixed-time jobs are not repeated$/,
    'o relógio voltou (fim do horário de verão?): só as tarefas com curinga, as de hora fixa não se repetem'],
  [/^clock jumped more than 3 h: treated as a correction, virtual time reset$/, 'o relógio saltou mais de 3 h: tratado como correção, o tempo virtual recomeça'],
];

/** One part of a Kubernetes CronJob controller's minute (sim/loops/cron.ts kubernetesNote): its events are the API's. */
const CRONJOB_PARTS: Rule[] = [
  [/^SuccessfulCreate: (.+)$/, (_m, jobs = '') => `⟦SuccessfulCreate⟧: ${jobs.replace(/ \(for ([\d:]+)\)/g, ' (para $1)')}`],
  [/^(\S+): missed start times \(estimated (\d+)\), only the most recent \((\S+)\) is started$/,
    '$1: horários de início perdidos (estimados: $2), só o mais recente ($3) é iniciado'],
  [/^(\S+): ((?:Warning \w+|JobAlreadyActive): .+)$/, '$1: ⟦$2⟧'],
  [/^(\S+): deleting (\S+) \(concurrencyPolicy Replace\)$/, '$1: apagando $2 (⟦concurrencyPolicy: Replace⟧)'],
];

/** crond's and the CronJob controller's narration (sim/worlds/cron*, sim/loops/cron.ts); anacron's lines are anacron's. */
export const CRON: Rule[] = [
  [/^clock jumps ([+−-]\d+ min) → (.+)$/, 'o relógio salta $1 → $2'],
  [/^host down for (\d+) min$/, 'host fora do ar por $1 min'],
  [/^crond started at ([^:]+:\d\d): missed runs are not made up(.*)$/, 'crond iniciado em $1: execuções perdidas não são recuperadas⟦$2⟧'],
  [/^crontab reloaded: (\d+) entries(.*)$/, 'crontab recarregado: $1 entradas⟦$2⟧'],
  [/^kube-controller-manager down for (\d+) min \(running Jobs continue\)$/, '⟦kube-controller-manager⟧ fora do ar por $1 min (os Jobs em execução continuam)'],
  [/^(\S+) overruns: its run takes (\d+) min longer$/, '$1 se estende: sua execução leva $2 min a mais'],
  [/^(\S+ \S+) (anacron -s: .+)$/, '$1 ⟦$2⟧'],
  [/^([\d-]+ [\d:]+): timeDiff ([+-]?\d+ min) — ([^;]+); (?:nothing due|run (.+))$/,
    (_m, at, diff, kind = '', runs) => `${at}: timeDiff ${diff} — ${firstMatch(WAKEUP, kind) ?? kind}; ${runs ? `executar ${runs}` : 'nada a executar'}`],
  [/^([\d-]+ [\d:]+): due (.+)$/, '$1: na hora de $2'],
  [/^([\d-]+ [\d:]+): ((?:SuccessfulCreate|\S+: (?:missed|Warning|JobAlreadyActive|deleting)).*)$/, (_m, at, parts = '') => `${at}: ${eachOf(CRONJOB_PARTS, '; ')(parts)}`],
];
