import { pt } from '../plural';
import { HPA_ALGORITHM } from './hpa';
import type { Rule } from './types';
import { applyAll, eachOf, firstMatch, opt } from './types';

/** One action a reconciler decided on (a child to create, update, recreate or delete). */
const ACTION: Rule[] = [
  [/^create (\S+)$/, 'criar $1'],
  [/^recreate (\S+)$/, 'recriar $1'],
  [/^update (\S+) \(replicas (\d+), image (\S+)\)$/, 'atualizar $1 (réplicas $2, imagem $3)'],
  [/^update (\S+)$/, 'atualizar $1'],
  [/^delete (\S+)$/, 'apagar $1'],
];
const actions = eachOf(ACTION, ', ');

/** The database operator's steps (machines/kubernetes/reconcilers: one reconcile can take several, joined by "; "). */
const DATABASE_STEP: Rule[] = [
  [/^(\d)\. provision volume (\S+) \((\S+)\)$/, '$1. provisionar o volume $2 ($3)'],
  [/^(\d)\. volume (\S+) is Pending: wait for it$/, '$1. o volume $2 está ⟦Pending⟧: esperar'],
  [/^(\d)\. start the primary$/, '$1. iniciar o primário'],
  [/^(\d)\. wait for primary (\S+) to be ready$/, '$1. esperar o primário $2 ficar pronto'],
  [/^(\d)\. start (\d+) replica\(s\)$/, (_m, k, n) => `${k}. iniciar ${pt(n, 'replica')}`],
  [/^(\d)\. configure replication$/, '$1. configurar a replicação'],
  [/^(\d)\. replication: (.+)$/, '$1. replicação: $2'],
  [/^(\d)\. schedule backups \((.+)\)$/, '$1. agendar backups ($2)'],
  [/^(\d)\. backups now from (\S+)$/, '$1. backups agora a partir de $2'],
];

/** What one Reconcile found and decided, per reconciler (machines/kubernetes/reconcilers). */
const RECONCILE: Rule[] = [
  [/^(\S+) not found \(its objects are garbage collected\)$/, '$1 não encontrado (seus objetos são removidos pelo coletor de lixo)'],
  [/^(\S+) is gone \(children are garbage collected\)$/, '$1 não existe mais (os filhos são removidos pelo coletor de lixo)'],
  [/^(\S+) is gone or going$/, '$1 não existe mais ou está sendo apagado'],
  [/^((?:create|update|recreate|delete) .+)$/, (_m, list = '') => actions(list)],
  [
    /^sync hook → (\d+) desired children; (?:children match|(.+))$/,
    (_m, n, list) => `hook de sync → ${n} filhos desejados; ${list ? actions(list) : 'os filhos conferem'}`,
  ],
  [
    /^decorate (\S+): add labels\/annotations(?:, attach (\S+))?$/,
    (_m, pod, cm) => `decorar ${pod}: adicionar labels/anotações${opt(cm, (c) => `, anexar ${c}`)}`,
  ],
  [/^decorate (\S+): already decorated$/, 'decorar $1: já decorado'],
  [/^failover: primary (\S+) unready for (\S+) → promote (\S+)$/, 'failover: primário $1 não pronto há $2 → promover $3'],
  [/^primary unready for (\S+) \(failover after (\S+)\)$/, 'primário não pronto há $1 (failover após $2)'],
  [/^(Configuring|Degraded|Ready): nothing to do$/, '⟦$1⟧: nada a fazer'],
];

function reconcileBody(body: string): string {
  // The HPA's calculation (machines/hpa-algorithm), piece by piece; the database operator's steps, one by one.
  if (body.startsWith('cpu ') || body.startsWith('FailedGetResourceMetric:')) return applyAll(HPA_ALGORITHM, body);
  if (/^\d\. /.test(body)) return eachOf(DATABASE_STEP, '; ')(body);
  return firstMatch(RECONCILE, body) ?? body;
}

/**
 * What one Reconcile found and decided (sim/loops/kubernetes-notes.ts: the reconciler's summary, still
 * English text); the controller's other notes and the cluster's faults are messages (sim/notes/kubernetes.ts).
 */
export const KUBERNETES: Rule[] = [[/^reconcile (\S+): (.+)$/, (_m, key, body = '') => `reconcile ${key}: ${reconcileBody(body)}`]];
