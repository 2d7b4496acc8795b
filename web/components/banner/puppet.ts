import type { PuppetController } from '../../../sim/loops/puppet-controller-schema';
import { controllerOf } from '../../../sim/trace';
import { reportStatusText } from '../../worlds/puppet/puppetView';
import type { BannerOf } from './types';
import { EMPTY, list, pick } from './types';
import { NOUNS, count } from '../../i18n/plural';

type Resource = NonNullable<PuppetController['report']>['resources'][number];

const refs = (rs: Resource[], status: Resource['status']) => rs.filter((r) => r.status === status).map((r) => r.ref);

/** puppet: the run in progress (its catalog, what was compared, what it decided to sync and what syncing did), else the last report. */
export const puppetBanner: BannerOf = (frames, index, lang) => {
  const c = controllerOf(frames[index]!, 'puppet');
  if (!c) return EMPTY;
  const tx = c.transaction;
  const r = c.report;
  const run = tx?.run ?? r?.run;
  if (run === undefined)
    return {
      ...EMPTY,
      observed: pick(lang, 'no run yet (waiting for the splay / runinterval)', 'nenhuma execução ainda (esperando o splay / runinterval)'),
    };
  const resources = tx ? tx.resources : r!.resources;
  const total = tx ? tx.total : r!.resources.length;
  const observed = pick(
    lang,
    `run ${run}: catalog version ${tx?.catalogVersion ?? r!.catalogVersion}, current state of ${count(total, lang, NOUNS.resource)}`,
    `execução ${run}: catálogo versão ${tx?.catalogVersion ?? r!.catalogVersion}, estado atual de ${count(total, lang, NOUNS.resource)}`,
  );
  const inSync = refs(resources, 'in sync').length;
  const out = resources.length - inSync;
  const compared = pick(
    lang,
    `${resources.length}/${total} compared: ${inSync} in sync, ${out} not`,
    `${resources.length}/${total} comparados: ${inSync} em conformidade, ${out} não`,
  );
  const toSync = [...refs(resources, 'changed'), ...refs(resources, 'failed')];
  const noop = refs(resources, 'noop');
  const skipped = refs(resources, 'skipped');
  const decided =
    [
      toSync.length ? pick(lang, `sync ${list(toSync)}`, `sincronizar ${list(toSync)}`) : '',
      noop.length ? pick(lang, `noop: would change ${list(noop)}`, `noop: mudaria ${list(noop)}`) : '',
      skipped.length ? pick(lang, `skip ${list(skipped)} (a dependency failed)`, `pular ${list(skipped)} (uma dependência falhou)`) : '',
    ]
      .filter(Boolean)
      .join('; ') || (resources.length ? pick(lang, 'nothing to change so far', 'nada a mudar até aqui') : '');
  const changed = refs(resources, 'changed');
  const failed = refs(resources, 'failed');
  const acted =
    !tx && r
      ? pick(
          lang,
          `report of run ${r.run}: ${r.status}, exit code ${r.exitCode}, ${count(r.changes, lang, NOUNS.change)}`,
          `relatório da execução ${r.run}: ${reportStatusText(r.status, lang)}, código de saída ${r.exitCode}, ${count(r.changes, lang, NOUNS.change)}`,
        )
      : [
          changed.length ? pick(lang, `changed ${list(changed)}`, `alterou ${list(changed)}`) : '',
          failed.length ? pick(lang, `failed ${list(failed)}`, `falhou ${list(failed)}`) : '',
        ]
          .filter(Boolean)
          .join('; ');
  return { observed, compared, decided, acted };
};
