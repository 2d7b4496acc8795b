import type { CronController as Cron } from '../../../sim/loops/cron-controller-schema';
import type { Frame } from '../../../sim/trace';
import { controllerOf } from '../../../sim/trace';
import type { BannerOf } from './types';
import { EMPTY, list, pick } from './types';

/** How crond classified the wake-up (machines/cron/schedule.ts), in Portuguese; English shows the classification's name. */
const KIND_PT: Record<string, string> = {
  small: 'atraso pequeno',
  medium: 'salto para a frente',
  negative: 'relógio voltou',
  large: 'salto grande: correção',
};

/** cron: this minute's cycle only — the clocks read, the wake-up classified, the runs found due and started. */
export const cronBanner: BannerOf = (frames, index, lang) => {
  const now = frames[index]!;
  const c = controllerOf(now, 'cron');
  if (!c) return EMPTY;
  const observed = pick(
    lang,
    `wall clock ${c.wallClock}; crond's clock ${c.virtualTime ?? '—'}`,
    `relógio de parede ${c.wallClock}; relógio do crond ${c.virtualTime ?? '—'}`,
  );
  // Reading the clock starts a new minute's cycle: the last minute's comparison and runs are not this one's.
  if (c.virtualTime === null || now.phase === 'observe') return { ...EMPTY, observed };
  // The cycle: frames since crond last moved its virtual clock to this minute.
  const cycle: { frame: Frame; c: Cron }[] = [];
  for (let i = index; i >= 0; i--) {
    const x = controllerOf(frames[i]!, 'cron');
    if (!x || x.virtualTime !== c.virtualTime) break;
    cycle.unshift({ frame: frames[i]!, c: x });
  }
  const w = c.wakeup;
  const compared = !w
    ? pick(
        lang,
        `crond started at ${c.virtualTime}: missed runs are not made up`,
        `crond iniciou às ${c.virtualTime}: execuções perdidas não são refeitas`,
      )
    : pick(
        lang,
        `woke ${w.diff} min after the last minute (${w.kind}); processed up to ${c.virtualTime}`,
        `acordou ${w.diff} min após o último minuto (${KIND_PT[w.kind] ?? w.kind}); processado até ${c.virtualTime}`,
      );
  // The runs found due this cycle: the largest `due` seen in it (acting empties it as runs start).
  const found =
    cycle.reduce<Cron | undefined>(
      (best, x) => (x.c.due.length + x.c.kill.length > (best ? best.due.length + best.kill.length : -1) ? x.c : best),
      undefined,
    ) ?? c;
  const jobs = found.due.map((r) => r.job);
  const kills = found.kill.map((r) => r.job);
  const decided =
    jobs.length || kills.length
      ? [
          jobs.length ? pick(lang, `run ${list(jobs)}`, `executar ${list(jobs)}`) : '',
          kills.length ? pick(lang, `delete the running Job of ${list(kills)}`, `remover o Job em execução de ${list(kills)}`) : '',
        ]
          .filter(Boolean)
          .join('; ')
      : pick(lang, `nothing due at ${c.virtualTime}`, `nada a executar às ${c.virtualTime}`);
  const actedYet = cycle.some((x) => x.frame.phase === 'act');
  const started = jobs.filter((j) => !c.due.some((r) => r.job === j));
  const acted =
    !actedYet || !jobs.length
      ? ''
      : started.length === jobs.length
        ? pick(lang, `started ${list(jobs)}`, `iniciou ${list(jobs)}`)
        : pick(lang, `starting ${list(jobs)}`, `iniciando ${list(jobs)}`);
  return { observed, compared, decided, acted };
};
