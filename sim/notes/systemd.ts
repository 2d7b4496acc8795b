// systemd's restart logic as loopscope narrates it (sim/loops/systemd-restart.ts,
// sim/worlds/systemd-restart.ts). The journal's own lines and the unit's settings are quoted verbatim.
import type { MessageOf, NoteCatalog } from './catalog';
import { messagesOf, verbatim } from './catalog';

/** Why systemd restarts or not after an exit (machines/systemd-restart's RestartDecision), other than a manual stop. */
export type ExitReason = 'prevented by exit status' | 'forced by exit status' | 'service type and exit status' | 'restart setting';
/** How the next run of a replaced program ends. */
export type NextRun = {
  kind: 'exit' | 'signal' | 'oom' | 'hang';
  code: number | null;
  signal: string | null;
  seconds: number;
  ignores: string[];
};
/** The restart's delay as the machine words it: a fixed RestartSec=, a random delay on top, RestartMode=direct. */
export type RestartDelay = { delay: string; random: boolean; direct: boolean };

/** The reason as the note says it: the Restart= setting by its name and value. */
const why = (reason: ExitReason, restart: string) => (reason === 'restart setting' ? verbatim(`Restart=${restart}`) : reason);
const restartIn = ({ delay, random, direct }: RestartDelay) =>
  `restart in ${delay}${random ? ' + a random delay' : ''}${direct ? ` (${verbatim('RestartMode=direct')}: no failed/inactive state in between)` : ''}`;
/** "Main process exited, …" (after the OOM killer's sentence when there is one) and the result: the journal's. */
const exited = (exit: string, result: string) => `${verbatim(exit)} → result ${verbatim(`'${result}'`)}`;

export const SYSTEMD_NOTES = {
  /** A line of the journal (or a systemctl command, a unit's settings), as systemd prints it. */
  'systemd.journal': ({ line }: { line: string }) => verbatim(line),
  'systemd.startLimitHit': ({ unit, starts, interval, burst }: { unit: string; starts: number; interval: string; burst: number }) =>
    `${verbatim(`${unit}: Start request repeated too quickly.`)} (${starts} starts within ${interval} > ${verbatim(`StartLimitBurst=${burst}`)})`,
  'systemd.started': ({ unit, pid, restarts }: { unit: string; pid: number | null; restarts: number }) =>
    `${verbatim(`Started ${unit}`)}: main PID ${pid}${restarts ? ` (NRestarts=${restarts})` : ''}`,
  /** `watchdog`: when the watchdog fires, null when there is none. */
  'systemd.hung': ({ pid, watchdog }: { pid: number | null; watchdog: string | null }) =>
    `main PID ${pid} stopped answering (no WATCHDOG=1)${watchdog !== null ? `; watchdog fires in ${watchdog}` : ' — no watchdog: nothing notices'}`,
  'systemd.caughtSignal': ({ pid }: { pid: number | null }) => `main PID ${pid} caught the signal and keeps running`,
  'systemd.exitedManualStop': ({ exit, result }: { exit: string; result: string }) => `${exited(exit, result)}; manual stop: no restart`,
  'systemd.exitedRemains': ({ exit, result }: { exit: string; result: string }) =>
    `${exited(exit, result)}; ${verbatim('RemainAfterExit=yes')}: active (exited)`,
  'systemd.exitedRestart': ({
    exit,
    result,
    reason,
    restart,
    delay,
  }: {
    exit: string;
    result: string;
    reason: ExitReason;
    restart: string;
    delay: RestartDelay;
  }) => `${exited(exit, result)}; ${why(reason, restart)}: ${restartIn(delay)}`,
  'systemd.exitedNoRestart': ({ exit, result, reason, restart }: { exit: string; result: string; reason: ExitReason; restart: string }) =>
    `${exited(exit, result)}; ${why(reason, restart)}: no restart`,
  'systemd.randomDelay': ({ setting, delay }: { setting: string; delay: string }) => `${verbatim(setting)}: restart in ${delay}`,
  'systemd.unitEdited': ({ settings }: { settings: string }) => `unit edited + daemon-reload: ${verbatim(settings)}`,
  'systemd.error': ({ error }: { error: string }) => `error: ${verbatim(error)}`,
  'systemd.programReplaced': ({ run }: { run: NextRun }) => {
    const end =
      run.kind === 'exit'
        ? `exits ${run.code}`
        : run.kind === 'signal'
          ? `dies of ${run.signal}`
          : run.kind === 'oom'
            ? 'is OOM-killed'
            : 'hangs';
    return `program replaced: next run ${end} after ${run.seconds}s${run.ignores.length ? ` (ignores ${run.ignores.join(', ')})` : ''}`;
  },
} satisfies NoteCatalog;

export const systemdNote = messagesOf<typeof SYSTEMD_NOTES>();
export type SystemdNote = MessageOf<typeof SYSTEMD_NOTES>;
