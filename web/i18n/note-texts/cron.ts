import type { CronJobEvent } from '../../../machines/cron';
import type { TranslationOf } from '../../../sim/notes/catalog';
import { verbatim } from '../../../sim/notes/catalog';
import type { CRON_NOTES, LateWakeup } from '../../../sim/notes/cron';
import { ptCount } from '../plural';

const WAKEUPS: Record<LateWakeup, string> = {
  small: 'acordou atrasado: cada minuto perdido executa',
  medium:
    'o relógio saltou para a frente (início do horário de verão?): tarefas com curinga uma vez, tarefas de hora fixa para cada minuto pulado',
  negative: 'o relógio voltou (fim do horário de verão?): só as tarefas com curinga, as de hora fixa não se repetem',
  large: 'o relógio saltou mais de 3 h: tratado como correção, o tempo virtual recomeça',
};

const cronJobEvent = (e: CronJobEvent) => {
  switch (e.kind) {
    case 'event':
      return `${e.cronJob}: ${verbatim(e.text)}`;
    case 'deleting':
      return `${e.cronJob}: apagando ${e.jobs.join(', ')} (${verbatim('concurrencyPolicy Replace')})`;
    case 'missed':
      return `${e.cronJob}: horários de início perdidos (estimados: ${e.estimate}), só o mais recente (${e.started}) é iniciado`;
    case 'anacron':
      return verbatim(e.line);
  }
};

/** crond's, anacron's and the CronJob controller's narration in Portuguese (sim/notes/cron.ts); their own lines stay quoted. */
export const CRON_PT = {
  'cron.cronJobSync': ({ at, created, events }) =>
    `${at}: ${[...(created.length ? [`${verbatim('SuccessfulCreate')}: ${created.map((c) => `${c.job} (para ${c.for})`).join(', ')}`] : []), ...events.map(cronJobEvent)].join('; ')}`,
  'cron.anacron': ({ at, lines }) => `${at} ${verbatim(`anacron -s: ${lines.join('; ')}`)}`,
  'cron.started': ({ at, reboot, randomDelay }) =>
    `crond iniciado em ${at}: execuções perdidas não são recuperadas${reboot ? `; ${verbatim(`@reboot: ${reboot}`)}` : ''}${randomDelay ? `; ${verbatim(randomDelay)}` : ''}`,
  'cron.due': ({ at, runs }) => `${at}: na hora de ${runs}`,
  'cron.wokeUp': ({ at, diff, kind, runs }) =>
    `${at}: timeDiff ${diff > 0 ? '+' : ''}${diff} min — ${WAKEUPS[kind]}; ${runs ? `executar ${runs}` : 'nada a executar'}`,
  'cron.crontabReloaded': ({ entries, flock }) =>
    `crontab recarregado: ${ptCount(entries, 'entry')}${flock ? `, ${verbatim('flock -n')}` : ''}`,
  'cron.clockJumps': ({ by, to }) => `o relógio salta ${by} min → ${to}`,
  'cron.overrun': ({ job, minutes }) => `${job} se estende: sua execução leva ${minutes} min a mais`,
  'cron.controllerDown': ({ minutes }) =>
    `${verbatim('kube-controller-manager')} fora do ar por ${minutes} min (os Jobs em execução continuam)`,
  'cron.hostDown': ({ minutes }) => `host fora do ar por ${minutes} min`,
} satisfies TranslationOf<typeof CRON_NOTES>;
