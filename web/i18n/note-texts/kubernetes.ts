import type { HandledResult, ReconcileSummary, RolloutStep, WorkersDecision } from '../../../machines/kubernetes';
import type { TranslationOf } from '../../../sim/notes/catalog';
import { verbatim } from '../../../sim/notes/catalog';
import type { KUBERNETES_NOTES } from '../../../sim/notes/kubernetes';
import { requestLines, warningLine } from '../../../sim/notes/kubernetes';
import { isOne, ptCount } from '../plural';

function result(r: HandledResult): string {
  switch (r.kind) {
    case 'error':
      return `erro “${verbatim(r.message)}”: de volta à fila com backoff de ${r.backoffMs}ms (falha nº ${r.failures})${warningLine(r.warning)}`;
    case 'terminal':
      return `erro terminal “${verbatim(r.message)}”: não volta à fila${warningLine(r.warning)}`;
    case 'requeueAfter':
      return `concluído, de volta à fila em ${r.afterMs / 1000}s`;
    case 'requeue':
      return `concluído, ${verbatim('Requeue: true')} → de volta à fila com limite de taxa em ${r.delayMs}ms`;
    case 'forget':
      return 'concluído: Forget';
  }
}

const step = (s: RolloutStep): string => {
  switch (s.kind) {
    case 'createReplicaSet':
      return `criar o ReplicaSet ${s.name} com ${s.replicas}`;
    case 'scaleNew':
      return `escalar o novo ${s.name} ${s.from} → ${s.to}`;
    case 'scaleOld':
      return `escalar o antigo ${s.name} ${s.from} → ${s.to}`;
  }
};

const workers = (w: WorkersDecision): string =>
  w.kind === 'hold'
    ? `quer ${w.wanted}, mas o último aumento foi há ${w.agoSeconds}s < ${w.delaySeconds}s: manter`
    : `ceil(${w.length} / ${w.perWorker}) limitado a [${w.min}, ${w.max}] = ${w.wanted}`;

function summary(s: ReconcileSummary): string {
  switch (s.kind) {
    case 'replicaSetGone':
      return `${s.request} não encontrado: esquecer suas expectativas`;
    case 'replicaSetWaiting':
      return `${s.active}/${s.desired} pods no cache, mas as expectativas não foram cumpridas (add ${s.add}, del ${s.del}): esperar o watch`;
    case 'replicaSetCreate':
      return `${s.active}/${s.desired} pods: criar ${s.count} em lotes de ${s.batches.join(', ')}`;
    case 'replicaSetDelete':
      return `${s.active}/${s.desired} pods: apagar ${s.pods.join(', ')}`;
    case 'replicaSetInSync':
      return `${s.active}/${s.desired} pods: em conformidade`;
    case 'deploymentGone':
      return `${s.request} não encontrado (seus ReplicaSets são removidos pelo coletor de lixo)`;
    case 'applicationGone':
      return `${s.request} não encontrado: ignorar (${verbatim('IsNotFound')})`;
    case 'applicationAddFinalizer':
      return 'sem finalizer: adicioná-lo';
    case 'applicationDeleting':
      return `sendo apagado: ${s.deleting.length ? `apagar ${s.deleting.join(', ')}, depois ` : ''}remover o finalizer`;
    case 'applicationSync':
      return `${s.deploymentExists ? `atualizar ${s.name}-deployment (réplicas ${s.replicas}, imagem ${s.image})` : `criar ${s.name}-deployment`}${s.serviceExists ? '' : `, criar ${s.name}-service`}`;
    case 'queueScaled':
      return `fila com ${ptCount(s.length, 'message')}, ${ptCount(s.current, 'worker')}: ${workers(s.why)}${s.to === null ? '' : ` → escalar para ${s.to}`}`;
    case 'deploymentRollout':
      return `${s.available}/${s.desired} disponíveis, ${s.updated} ${isOne(s.updated, 'pt-BR') ? 'atualizado' : 'atualizados'} (maxSurge ${s.maxSurge}, maxUnavailable ${s.maxUnavailable}): ${s.steps.length ? s.steps.map(step).join('; ') : 'nada a escalar'}`;
  }
}

/** A Kubernetes controller's loop and the cluster's faults in Portuguese (sim/notes/kubernetes.ts); the API's and kubectl's words stay quoted. */
export const KUBERNETES_PT = {
  'kubernetes.reconcile': ({ key, summary: s }) => `reconcile ${key}: ${summary(s)}`,
  'kubernetes.informer': ({ events, added, got, queued }) =>
    `informer: ${verbatim(events)} → na fila [${added}]${got ? ` → Get ${got}` : ''}${queued ? `, na fila [${queued}]` : ''}`,
  'kubernetes.writes': ({ requests, done }) =>
    `${requestLines(requests, 'ignorado')}${done ? ` → ${done.key}: ${result(done.result)}` : ''}`,
  'kubernetes.result': ({ key, result: r }) => `${key}: ${result(r)}`,
  'kubernetes.error': ({ error }) => `erro: ${verbatim(error)}`,
  'kubernetes.config': ({ reconciler }) => `configuração: controlador ${reconciler}`,
  'kubernetes.kubectl': ({ output }) => verbatim(output),
  'kubernetes.kubectlNotFound': ({ command, object }) => `${verbatim(command)}: ${object} não encontrado`,
  'kubernetes.load': ({ app, cpuMilli }) => `carga em app=${app} → ${cpuMilli}m de CPU`,
  'kubernetes.queueRate': ({ queue, perSecond }) => `fila ${queue}: chegam ${perSecond} mensagens/s`,
  'kubernetes.noSuchPod': ({ action, pod }) => `${action === 'crash' ? 'derrubar' : 'apagar'}: pod inexistente (${pod})`,
  'kubernetes.podCrashed': ({ pod, restarts, backoffSeconds }) =>
    `o pod ${pod} caiu (reinício nº ${restarts}, ${verbatim(`back-off ${backoffSeconds}s`)})`,
  'kubernetes.nodeFailed': ({ node }) => `o nó ${node} falhou (o kubelet para de reportar)`,
  'kubernetes.nodeBack': ({ node }) => `o nó ${node} voltou`,
  'kubernetes.watchDelayed': ({ kind, bySeconds, forSeconds }) =>
    `watch de ${kind ?? 'todos os tipos'} atrasado em ${bySeconds}s por ${forSeconds}s`,
  'kubernetes.watchDropped': ({ count, kind }) =>
    `${isOne(count, 'pt-BR') ? 'o próximo evento' : `os próximos ${count} eventos`} do watch de ${kind ?? 'qualquer tipo'} se ${isOne(count, 'pt-BR') ? 'perde' : 'perdem'} (até uma nova listagem)`,
  'kubernetes.watchReordered': ({ count, maxMs }) =>
    `${isOne(count, 'pt-BR') ? 'o próximo evento do watch chega' : `os próximos ${count} eventos do watch chegam`} fora de ordem (atraso de até ${maxMs}ms)`,
  'kubernetes.writesFail': ({ count }) =>
    isOne(count, 'pt-BR') ? 'a próxima escrita na API falha' : `as próximas ${count} escritas na API falham`,
  'kubernetes.controllerRestart': () => 'reinício do controlador',
  'kubernetes.crashWriteLands': () => 'o controlador cai: a escrita em trânsito ainda chega',
  'kubernetes.crashWriteLost': () => 'o controlador cai: a escrita em trânsito se perde',
} satisfies TranslationOf<typeof KUBERNETES_NOTES>;
