import type { Rule } from './types';
import { opt } from './types';

/** "Main process exited, …" with the OOM killer's sentence before it when there is one: systemd's journal, quoted. */
const EXIT = String.raw`((?:A process of this unit has been killed by the OOM killer \(OOMPolicy=\w+\)\. )?Main process exited, [^→]+)`;
/** The restart's delay as the machine words it: a fixed RestartSec=, or with RestartRandomizedDelaySec= on top. */
const RESTART_IN = String.raw`restart in (\S+)( \+ a random delay)?( \(RestartMode=direct: no failed/inactive state in between\))?`;
const restartIn = (delay = '', random?: string, direct?: string) =>
  `reinício em ${delay}${opt(random, () => ' + um atraso aleatório')}${opt(direct, () => ' (⟦RestartMode=direct⟧: sem passar por ⟦failed⟧ ou ⟦inactive⟧)')}`;

/** systemd's restart logic as loopscope narrates it (machines/systemd-restart); journal lines and unit settings are quoted. */
export const SYSTEMD: Rule[] = [
  [/^program replaced: next run (?:exits (\d+)|dies of (\S+)|(is OOM-killed)|hangs) after (\S+)(?: \(ignores (.+)\))?$/, (_m, code, sig, oom, after, ignores) =>
    `programa substituído: a próxima execução ${code ? `sai com ${code}` : sig ? `morre por ${sig}` : oom ? 'é morta pelo OOM killer' : 'trava'} após ${after}${opt(ignores, (x) => ` (ignora ${x})`)}`],
  [/^main PID (\d+) stopped answering \(no WATCHDOG=1\); watchdog fires in (\S+)$/, 'o PID principal $1 parou de responder (sem WATCHDOG=1); o watchdog dispara em $2'],
  [/^main PID (\d+) stopped answering \(no WATCHDOG=1\) — no watchdog: nothing notices$/, 'o PID principal $1 parou de responder (sem WATCHDOG=1) — sem watchdog: ninguém percebe'],
  [/^(\S+: Start request repeated too quickly\.) \((\d+) starts within (\S+) > (StartLimitBurst=\d+)\)$/, '⟦$1⟧ ($2 partidas em $3 > ⟦$4⟧)'],
  [/^error: (.+)$/, 'erro: ⟦$1⟧'],
  [/^main PID (\d+) caught the signal and keeps running$/, 'o PID principal $1 capturou o sinal e continua rodando'],
  [new RegExp(`^${EXIT} → result '([^']+)'; manual stop: no restart$`), '⟦$1⟧ → resultado ⟦$2⟧; parada manual: sem reinício'],
  [new RegExp(`^${EXIT} → result '([^']+)'; forced by exit status: ${RESTART_IN}$`), (_m, exit, result, d, r, x) => `⟦${exit}⟧ → resultado ⟦${result}⟧; forçado pelo status de saída: ${restartIn(d, r, x)}`],
  [new RegExp(`^${EXIT} → result '([^']+)'; prevented by exit status: no restart$`), '⟦$1⟧ → resultado ⟦$2⟧; impedido pelo status de saída: sem reinício'],
  [new RegExp(`^${EXIT} → result '([^']+)'; (RemainAfterExit=yes): active \\(exited\\)$`), '⟦$1⟧ → resultado ⟦$2⟧; ⟦$3⟧: ativo (encerrado)'],
  [new RegExp(`^${EXIT} → result '([^']+)'; (.+?): ${RESTART_IN}$`), (_m, exit, result, why, d, r, x) => `⟦${exit}⟧ → resultado ⟦${result}⟧; ⟦${why}⟧: ${restartIn(d, r, x)}`],
  [new RegExp(`^${EXIT} → result '([^']+)'; (.+): no restart$`), '⟦$1⟧ → resultado ⟦$2⟧; ⟦$3⟧: sem reinício'],
  [/^(RestartRandomizedDelaySec=\S+): restart in (\S+)$/, '⟦$1⟧: reinício em $2'],
  [/^(Started \S+): main PID (\d+)(?: \(NRestarts=(\d+)\))?$/, (_m, started, pid, n) => `⟦${started}⟧: PID principal ${pid}${opt(n, (k) => ` (NRestarts=${k})`)}`],
  [/^unit edited \+ daemon-reload: (.+)$/, 'unit editada + daemon-reload: ⟦$1⟧'],
  // The unit's settings as its file has them, and the journal's own lines.
  [/^(\S+\.service: (?:\w+=\S+ ?)+)$/, '⟦$1⟧'],
  [/^(\S+\.service: (?:Scheduled restart job|Failed with result|State '|Watchdog timeout|start operation timed out|Start request repeated|Main process exited|Deactivated successfully|Killing process|Service reached).*)$/, '⟦$1⟧'],
  [/^(systemctl .+)$/, '⟦$1⟧'],
];
