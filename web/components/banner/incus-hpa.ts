import { controllerOf } from '../../../sim/trace';
import { NOUNS, count } from '../../i18n/plural';
import { clock } from '../../lab/format';
import type { BannerOf } from './types';
import { EMPTY, list, pick } from './types';

// Counted phrases: the noun and its adjective agree with the count (Intl.PluralRules).
const RUNNING = { en: { one: 'running pod', other: 'running pods' }, 'pt-BR': { one: 'pod em execução', other: 'pods em execução' } };
const WANTED = { en: { one: 'pod wanted', other: 'pods wanted' }, 'pt-BR': { one: 'pod desejado', other: 'pods desejados' } };
const DONE = { en: { one: 'action done', other: 'actions done' }, 'pt-BR': { one: 'ação feita', other: 'ações feitas' } };

/** incus-hpa: the last decision (its observation, numbers and actions) and how far its actions got. */
export const incusHpaBanner: BannerOf = (frames, index, lang) => {
  const c = controllerOf(frames[index]!, 'incus-hpa');
  if (!c) return EMPTY;
  const d = c.decision;
  const avg = (v: number | null) => (v === null ? '—' : `${v}%`);
  const observed = d
    ? pick(
        lang,
        `@${clock(d.observedAt)}: ${count(d.running, lang, RUNNING)}, average ${avg(d.averagePercent)}`,
        `@${clock(d.observedAt)}: ${count(d.running, lang, RUNNING)}, média ${avg(d.averagePercent)}`,
      )
    : '';
  const compared = d
    ? pick(
        lang,
        `average ${avg(d.averagePercent)} vs threshold ${c.threshold}% (min ${c.minPods}, max ${c.maxPods}, policy ${c.policy})`,
        `média ${avg(d.averagePercent)} vs limite ${c.threshold}% (mín ${c.minPods}, máx ${c.maxPods}, política ${c.policy})`,
      )
    : '';
  const creates = d?.actions.filter((a) => a.kind === 'create').length ?? 0;
  const deletes = d?.actions.flatMap((a) => (a.kind === 'delete' ? [a.name] : [])) ?? [];
  const what = [
    creates ? pick(lang, `create ${creates}`, `criar ${creates}`) : '',
    deletes.length ? pick(lang, `delete ${deletes.length}: ${list(deletes)}`, `remover ${deletes.length}: ${list(deletes)}`) : '',
  ]
    .filter(Boolean)
    .join('; ');
  const decided = !d
    ? ''
    : d.actions.length
      ? pick(
          lang,
          `${count(d.desired, lang, WANTED)} (now ${d.running}): ${what}`,
          `${count(d.desired, lang, WANTED)} (agora ${d.running}): ${what}`,
        )
      : pick(lang, `keep ${count(d.running, lang, NOUNS.pod)}: no action`, `manter ${count(d.running, lang, NOUNS.pod)}: nenhuma ação`);
  const total = d?.actions.length ?? 0;
  const acted = c.lastError
    ? pick(
        lang,
        `failed: ${c.lastError} (${c.consecutiveErrors} in a row)`,
        `falhou: “${c.lastError}” (${c.consecutiveErrors} seguidas)` /* Incus's own message, quoted */,
      )
    : total
      ? `${total - c.pending.length}/${count(total, lang, DONE)}`
      : '';
  return { observed, compared, decided, acted };
};
