import { controllerOf } from '../../../sim/trace';
import { count } from '../../i18n/plural';
import type { BannerOf } from './types';
import { EMPTY, list, pick } from './types';

/** Portuguese participles agree with their count (Intl.PluralRules); English ones do not change. */
const n = (k: number, one: string, other = `${one}s`) => count(k, 'pt-BR', { en: { one, other }, 'pt-BR': { one, other } });

/** terraform: this run's refresh (drift), its plan, what apply does with it, and the operations' results. */
export const terraformBanner: BannerOf = (frames, index, lang) => {
  const c = controllerOf(frames[index]!, 'terraform');
  if (!c) return EMPTY;
  const refreshed = c.plan !== null || c.drift.length > 0;
  const observed = !refreshed
    ? pick(
        lang,
        `run ${c.run}: ${c.lockId ? 'state locked, refreshing' : 'locking the state'}`,
        `execução ${c.run}: ${c.lockId ? 'estado travado, atualizando' : 'travando o estado'}`,
      )
    : c.drift.length
      ? pick(
          lang,
          `run ${c.run}: changed outside Terraform: ${list(c.drift.map((d) => `${d.address} (${d.kind})`))}`,
          `execução ${c.run}: mudou fora do Terraform: ${list(c.drift.map((d) => `${d.address} (${d.kind === 'deleted' ? 'apagado' : 'alterado'})`))}`,
        )
      : pick(
          lang,
          `run ${c.run}: refresh found no changes outside Terraform`,
          `execução ${c.run}: o refresh não achou mudanças fora do Terraform`,
        );
  const p = c.plan;
  const count = (a: string) => p?.changes.filter((x) => x.action === a).length ?? 0;
  const add = count('create') + count('replace'),
    change = count('update'),
    destroy = count('delete') + count('replace');
  const compared = !p
    ? ''
    : p.errors.length
      ? pick(lang, `plan failed: ${p.errors[0]}`, `o plano falhou: ${p.errors[0]}`)
      : pick(
          lang,
          `Plan: ${add} to add, ${change} to change, ${destroy} to destroy`,
          `Plano: ${add} a criar, ${change} a alterar, ${destroy} a destruir`,
        );
  const changes = p?.changes.filter((x) => x.action !== 'no-op').map((x) => `${x.symbol} ${x.address}`) ?? [];
  const decided =
    !p || p.errors.length
      ? ''
      : c.mode === 'plan'
        ? pick(lang, 'plan only (-mode plan): nothing is applied', 'só o plano: nada é aplicado')
        : c.mode === 'refresh-only'
          ? pick(
              lang,
              'refresh-only: update the state, change nothing in the cloud',
              'só o refresh: atualizar o estado, nada muda na nuvem',
            )
          : changes.length
            ? pick(lang, `apply ${list(changes)}`, `aplicar ${list(changes)}`)
            : pick(
                lang,
                'no changes: infrastructure matches the configuration',
                'sem mudanças: a infraestrutura confere com a configuração',
              );
  const verb = (k: string) =>
    k === 'create'
      ? pick(lang, 'creating', 'criando')
      : k === 'update'
        ? pick(lang, 'modifying', 'modificando')
        : pick(lang, 'destroying', 'destruindo');
  const r = c.result;
  const a = c.applied;
  const acted = r
    ? r.ok
      ? pick(
          lang,
          `Apply complete! ${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed`,
          `Aplicação concluída! ${n(r.added, 'criado')}, ${n(r.changed, 'alterado')}, ${n(r.destroyed, 'destruído')}`,
        )
      : pick(
          lang,
          `apply failed (exit ${r.exitCode}): ${r.notApplied} not applied${c.lastError ? ` — ${c.lastError}` : ''}`,
          `a aplicação falhou (saída ${r.exitCode}): ${n(r.notApplied, 'não aplicado')}${c.lastError ? ` — ${c.lastError}` : ''}`,
        )
    : c.applying
      ? pick(
          lang,
          `${c.applying.address}: ${verb(c.applying.kind)}… (${a?.done.length ?? 0} done)`,
          `${c.applying.address}: ${verb(c.applying.kind)}… (${n(a?.done.length ?? 0, 'feito')})`,
        )
      : a
        ? pick(
            lang,
            `${a.done.length} done${a.failed.length ? `, ${a.failed.length} failed` : ''}`,
            `${n(a.done.length, 'feito')}${a.failed.length ? `, ${n(a.failed.length, 'falhou', 'falharam')}` : ''}`,
          )
        : '';
  return { observed, compared, decided, acted };
};
