import type { FrameOf } from '../../../sim/trace';
import { controllerOf } from '../../../sim/trace';
import { NOUNS, count } from '../../i18n/plural';
import { formatDuration } from './duration';
import type { BannerOf } from './types';
import { EMPTY, pick } from './types';

// Counted phrases agree with their count (Intl.PluralRules): "of 1 pod", "of 3 pods".
const EXIST = { en: { one: 'pod exist', other: 'pods exist' }, 'pt-BR': { one: 'pod existente', other: 'pods existentes' } };
const WAITING = { en: { one: 'waiting', other: 'waiting' }, 'pt-BR': { one: 'esperando', other: 'esperando' } };
const RECONCILE_ERRORS = {
  en: { one: 'reconcile error', other: 'reconcile errors' },
  'pt-BR': { one: 'erro de reconcile', other: 'erros de reconcile' },
};
const UP_TO_DATE = { en: { one: 'up to date', other: 'up to date' }, 'pt-BR': { one: 'atualizado', other: 'atualizados' } };

/** kubernetes: the request being reconciled, the cache's view of its objects (pods that exist AND pods ready), Reconcile's result, the queue. */
export const kubernetesBanner: BannerOf<FrameOf<'kubernetes'>> = (frames, index, lang) => {
  const frame = frames[index]!;
  const c = controllerOf(frame, 'kubernetes');
  if (!c) return EMPTY;
  const q = c.queue;
  const queue = pick(
    lang,
    `queue: ${q.length} ready, ${q.waiting} waiting, ${q.processing} in progress`,
    `fila: ${count(q.length, lang, NOUNS.ready)}, ${count(q.waiting, lang, WAITING)}, ${q.processing} em andamento`,
  );
  const observed = !c.synced
    ? pick(lang, 'informers listing (WaitForCacheSync)', 'informers listando (WaitForCacheSync)')
    : c.request
      ? pick(lang, `request ${c.request} (${c.reconciler}); ${queue}`, `requisição ${c.request} (${c.reconciler}); ${queue}`)
      : pick(lang, `watching (${c.reconciler}); ${queue}`, `observando (${c.reconciler}); ${queue}`);
  // What the world holds for the request's object: pods counted AND pods ready (a reconcile counts pods, readiness is the kubelet's).
  const world = frame.world;
  const name = c.request?.split('/').pop();
  const rs = world.replicasets.find((r) => r.name === name) ?? (world.replicasets.length === 1 ? world.replicasets[0] : undefined);
  const dep = world.deployments.find((d) => d.name === name);
  const compared = rs
    ? pick(
        lang,
        `ReplicaSet ${rs.name}: ${rs.current}/${count(rs.desired, lang, EXIST)}, ${rs.ready}/${rs.desired} ready`,
        `ReplicaSet ${rs.name}: ${rs.current}/${count(rs.desired, lang, EXIST)}, ${rs.ready}/${count(rs.desired, lang, NOUNS.ready)}`,
      )
    : dep
      ? pick(
          lang,
          `Deployment ${dep.name}: ${dep.ready} ready, ${dep.upToDate} up to date`,
          `Deployment ${dep.name}: ${dep.ready} prontos, ${count(dep.upToDate, lang, UP_TO_DATE)}`,
        )
      : '';
  const r = c.result;
  const decided = !r
    ? ''
    : r.kind === 'ok'
      ? r.requeueAfterMs !== null
        ? pick(
            lang,
            `Reconcile #${c.reconciles}: ok, requeue after ${formatDuration(r.requeueAfterMs)}`,
            `Reconcile nº ${c.reconciles}: ok, de volta à fila em ${formatDuration(r.requeueAfterMs)}`,
          )
        : r.requeue
          ? pick(
              lang,
              `Reconcile #${c.reconciles}: ok, requeue (rate limited)`,
              `Reconcile nº ${c.reconciles}: ok, de volta à fila (com limite)`,
            )
          : pick(
              lang,
              `Reconcile #${c.reconciles}: ok, Forget (until the next change)`,
              `Reconcile nº ${c.reconciles}: ok, Forget (até a próxima mudança)`,
            )
      : r.kind === 'error'
        ? pick(
            lang,
            `Reconcile #${c.reconciles}: error, retried with backoff: ${r.message}`,
            `Reconcile nº ${c.reconciles}: erro, nova tentativa com backoff: ${r.message}`,
          )
        : pick(
            lang,
            `Reconcile #${c.reconciles}: terminal error, not retried: ${r.message}`,
            `Reconcile nº ${c.reconciles}: erro terminal, sem nova tentativa: ${r.message}`,
          );
  const acted = world
    ? `${count(world.apiWrites, lang, NOUNS.apiWrite)}, ${count(world.conflicts, lang, NOUNS.conflict)}; ${count(c.errors, lang, RECONCILE_ERRORS)}`
    : '';
  return { observed, compared, decided, acted };
};
