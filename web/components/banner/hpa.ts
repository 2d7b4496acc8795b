import { controllerOf } from '../../../sim/trace';
import { clock } from '../../lab/format';
import type { BannerOf } from './types';
import { EMPTY, pick } from './types';

/** incus-hpa: the last decision (its observation, numbers and actions) and how far its actions got. */
export const hpaBanner: BannerOf = (frames, index, lang) => {
  const c = controllerOf(frames[index]!, 'incus-hpa');
  if (!c) return EMPTY;
  const d = c.decision;
  const avg = (v: number | null) => (v === null ? '—' : `${v}%`);
  const observed = d ? pick(lang, `@${clock(d.observedAt)}: ${d.running} running pods, average ${avg(d.averagePercent)}`, `@${clock(d.observedAt)}: ${d.running} pods em execução, média ${avg(d.averagePercent)}`) : '';
  const compared = d ? pick(lang, `average ${avg(d.averagePercent)} vs threshold ${c.threshold}% (min ${c.minPods}, max ${c.maxPods}, policy ${c.policy})`,
    `média ${avg(d.averagePercent)} vs limite ${c.threshold}% (mín ${c.minPods}, máx ${c.maxPods}, política ${c.policy})`) : '';
  const creates = d?.actions.filter((a) => a.kind === 'create').length ?? 0;
  const deletes = d?.actions.flatMap((a) => (a.kind === 'delete' ? [a.name] : [])) ?? [];
  const what = [creates ? pick(lang, `create ${creates}`, `criar ${creates}`) : '', deletes.length ? pick(lang, `delete ${deletes.join(', ')}`, `remover ${deletes.join(', ')}`) : ''].filter(Boolean).join('; ');
  const decided = !d ? '' : d.actions.length
    ? pick(lang, `${d.desired} pods wanted (now ${d.running}): ${what}`, `${d.desired} pods desejados (agora ${d.running}): ${what}`)
    : pick(lang, `keep ${d.running} pods: no action`, `manter ${d.running} pods: nenhuma ação`);
  const total = d?.actions.length ?? 0;
  const acted = c.lastError
    ? pick(lang, `failed: ${c.lastError} (${c.consecutiveErrors} in a row)`, `falhou: “${c.lastError}” (${c.consecutiveErrors} seguidas)` /* Incus's own message, quoted */)
    : total ? pick(lang, `${total - c.pending.length}/${total} actions done`, `${total - c.pending.length}/${total} ações feitas`) : '';
  return { observed, compared, decided, acted };
};
