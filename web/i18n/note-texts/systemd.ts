import type { TranslationOf } from '../../../sim/notes/catalog';
import { verbatim } from '../../../sim/notes/catalog';
import type { ExitReason, RestartDelay, SYSTEMD_NOTES } from '../../../sim/notes/systemd';
import { ptCount } from '../plural';

const REASONS: Record<Exclude<ExitReason, 'restart setting'>, string> = {
  'forced by exit status': 'forçado pelo status de saída',
  'prevented by exit status': 'impedido pelo status de saída',
  'service type and exit status': 'tipo do serviço e status de saída',
};
const why = (reason: ExitReason, restart: string) => (reason === 'restart setting' ? verbatim(`Restart=${restart}`) : REASONS[reason]);
const restartIn = ({ delay, random, direct }: RestartDelay) =>
  `reinício em ${delay}${random ? ' + um atraso aleatório' : ''}${direct ? ` (${verbatim('RestartMode=direct')}: sem passar por ${verbatim('failed')} ou ${verbatim('inactive')})` : ''}`;
const exited = (exit: string, result: string) => `${verbatim(exit)} → resultado ${verbatim(`'${result}'`)}`;

/** systemd's restart logic in Portuguese (sim/notes/systemd.ts); the journal's lines and the unit's settings stay quoted. */
export const SYSTEMD_PT = {
  'systemd.journal': ({ line }) => verbatim(line),
  'systemd.startLimitHit': ({ unit, starts, interval, burst }) =>
    `${verbatim(`${unit}: Start request repeated too quickly.`)} (${ptCount(starts, 'start')} em ${interval} > ${verbatim(`StartLimitBurst=${burst}`)})`,
  'systemd.started': ({ unit, pid, restarts }) =>
    `${verbatim(`Started ${unit}`)}: PID principal ${pid}${restarts ? ` (NRestarts=${restarts})` : ''}`,
  'systemd.hung': ({ pid, watchdog }) =>
    `o PID principal ${pid} parou de responder (sem WATCHDOG=1)${watchdog !== null ? `; o watchdog dispara em ${watchdog}` : ' — sem watchdog: ninguém percebe'}`,
  'systemd.caughtSignal': ({ pid }) => `o PID principal ${pid} capturou o sinal e continua rodando`,
  'systemd.exitedManualStop': ({ exit, result }) => `${exited(exit, result)}; parada manual: sem reinício`,
  'systemd.exitedRemains': ({ exit, result }) => `${exited(exit, result)}; ${verbatim('RemainAfterExit=yes')}: ativo (encerrado)`,
  'systemd.exitedRestart': ({ exit, result, reason, restart, delay }) =>
    `${exited(exit, result)}; ${why(reason, restart)}: ${restartIn(delay)}`,
  'systemd.exitedNoRestart': ({ exit, result, reason, restart }) => `${exited(exit, result)}; ${why(reason, restart)}: sem reinício`,
  'systemd.randomDelay': ({ setting, delay }) => `${verbatim(setting)}: reinício em ${delay}`,
  'systemd.unitEdited': ({ settings }) => `unit editada + daemon-reload: ${verbatim(settings)}`,
  'systemd.error': ({ error }) => `erro: ${verbatim(error)}`,
  'systemd.programReplaced': ({ run }) => {
    const end =
      run.kind === 'exit'
        ? `sai com ${run.code}`
        : run.kind === 'signal'
          ? `morre por ${run.signal}`
          : run.kind === 'oom'
            ? 'é morta pelo OOM killer'
            : 'trava';
    return `programa substituído: a próxima execução ${end} após ${run.seconds}s${run.ignores.length ? ` (ignora ${run.ignores.join(', ')})` : ''}`;
  },
} satisfies TranslationOf<typeof SYSTEMD_NOTES>;
