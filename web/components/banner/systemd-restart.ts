import { controllerOf } from '../../../sim/trace';
import { activeStateText, restartReasonText, resultText, subStateText } from '../../i18n/systemd-restart-states';
import { NOUNS, count } from '../../i18n/plural';
import { formatDuration } from './duration';
import type { BannerOf } from './types';
import { EMPTY, pick } from './types';

/** systemd-restart: the unit as systemctl shows it, the start limit, service_shall_restart()'s answer. */
export const systemdRestartBanner: BannerOf = (frames, index, lang) => {
  const c = controllerOf(frames[index]!, 'systemd-restart');
  if (!c) return EMPTY;
  const pid = c.mainPid ?? pick(lang, 'none', 'nenhum');
  const observed = pick(
    lang,
    `${c.unit}: ${c.active} (${c.sub}), result ${c.result}, main PID ${pid}`,
    `${c.unit}: ${activeStateText(c.active, lang)} (${subStateText(c.sub, lang)}), resultado ${resultText(c.result, lang)}, PID principal ${pid}`,
  );
  const limit =
    c.startLimit.burst && c.startLimit.intervalMs
      ? pick(
          lang,
          `${c.startLimit.count}/${count(c.startLimit.burst, lang, NOUNS.start)} in ${formatDuration(c.startLimit.intervalMs)}`,
          `${c.startLimit.count}/${count(c.startLimit.burst, lang, NOUNS.start)} em ${formatDuration(c.startLimit.intervalMs)}`,
        )
      : pick(lang, 'start limit off', 'limite de partidas desligado');
  const compared = pick(lang, `NRestarts ${c.nRestarts}; ${limit}`, `NRestarts ${c.nRestarts}; ${limit}`);
  const d = c.decision;
  const decided = !d
    ? ''
    : d.restart
      ? pick(
          lang,
          `restart in ${formatDuration(d.delayMs)} (${d.reason})`,
          `reiniciar em ${formatDuration(d.delayMs)} (${restartReasonText(d.reason, lang)})`,
        )
      : pick(lang, `no restart (${d.reason})`, `não reiniciar (${restartReasonText(d.reason, lang)})`);
  const acted =
    c.result === 'start-limit-hit'
      ? pick(lang, 'start limit hit: the unit stays failed', 'limite de partidas atingido: a unit fica em falha')
      : c.active === 'activating'
        ? pick(lang, `starting (restart #${c.nRestarts})`, `iniciando (reinício nº ${c.nRestarts})`)
        : c.nRestarts
          ? pick(lang, `${count(c.nRestarts, lang, NOUNS.restart)} so far`, `${count(c.nRestarts, lang, NOUNS.restart)} até agora`)
          : '';
  return { observed, compared, decided, acted };
};
