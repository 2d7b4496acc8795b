// A Kubernetes controller's loop as loopscope narrates it (sim/loops/kubernetes-notes.ts: informer,
// API writes, reconcileHandler) and the cluster's faults (sim/worlds/kubernetes/model.ts). What
// Kubernetes itself says (watch events, API requests and their errors, kubectl's command lines and
// output, controller-runtime's log lines) is quoted verbatim. What one Reconcile decided
// (machines/kubernetes/reconcilers) is a message for the ReplicaSet, Deployment, Application and queue-scaler controllers; the
// other reconcilers' summaries are still English text, translated by the lab's rules.
import type { HandledResult, ReconcileSummary, RolloutStep, WorkersDecision } from '../../machines/kubernetes';
import { RESULT_WITH_ERROR_WARNING } from '../../machines/kubernetes/reconcile-handler';
import type { MessageOf, NoParams, NoteCatalog } from './catalog';
import { messagesOf, verbatim } from './catalog';

/** One API request a batch sent: the request line, and the reason it failed with or the one tolerated. */
export type SentRequest = { request: string; failed: string | null; tolerated: string | null };
/** A batch's requests: the first few of them and how many more were sent. */
export type SentRequests = { shown: readonly SentRequest[]; more: number };
/** What reconcileHandler did with a key's result. */
export type KeyResult = { key: string; result: HandledResult };

const more = (n: number) => (n ? ` … +${n}` : '');

/** Parts each language shares: the API's own words. */
export const requestLines = ({ shown, more: n }: SentRequests, ignored: string): string =>
  `${shown.map((r) => `${verbatim(r.request)}${r.failed ? ` ✗ ${verbatim(r.failed)}` : r.tolerated ? ` (${verbatim(r.tolerated)}, ${ignored})` : ''}`).join(', ')}${more(n)}`;
export const warningLine = (warning: boolean): string => (warning ? `; ${verbatim(RESULT_WITH_ERROR_WARNING)}` : '');

function resultEn(r: HandledResult): string {
  switch (r.kind) {
    case 'error':
      return `error "${verbatim(r.message)}": requeue with backoff ${r.backoffMs}ms (failure #${r.failures})${warningLine(r.warning)}`;
    case 'terminal':
      return `terminal error "${verbatim(r.message)}": not requeued${warningLine(r.warning)}`;
    case 'requeueAfter':
      return `done, requeue after ${r.afterMs / 1000}s`;
    case 'requeue':
      return `done, ${verbatim('Requeue: true')} → rate-limited requeue in ${r.delayMs}ms`;
    case 'forget':
      return 'done: Forget';
  }
}

const step = (s: RolloutStep): string => {
  switch (s.kind) {
    case 'createReplicaSet':
      return `create ReplicaSet ${s.name} with ${s.replicas}`;
    case 'scaleNew':
      return `scale new ${s.name} ${s.from} → ${s.to}`;
    case 'scaleOld':
      return `scale old ${s.name} ${s.from} → ${s.to}`;
  }
};

const workers = (w: WorkersDecision): string =>
  w.kind === 'hold'
    ? `wants ${w.wanted} but last scale-up ${w.agoSeconds}s ago < ${w.delaySeconds}s: hold`
    : `ceil(${w.length} / ${w.perWorker}) clamped to [${w.min}, ${w.max}] = ${w.wanted}`;

function summaryEn(s: ReconcileSummary): string {
  switch (s.kind) {
    case 'replicaSetGone':
      return `${s.request} not found: forget its expectations`;
    case 'replicaSetWaiting':
      return `${s.active}/${s.desired} pods in cache, but expectations unmet (add ${s.add}, del ${s.del}): wait for the watch`;
    case 'replicaSetCreate':
      return `${s.active}/${s.desired} pods: create ${s.count} in batches ${s.batches.join(', ')}`;
    case 'replicaSetDelete':
      return `${s.active}/${s.desired} pods: delete ${s.pods.join(', ')}`;
    case 'replicaSetInSync':
      return `${s.active}/${s.desired} pods: in sync`;
    case 'deploymentGone':
      return `${s.request} not found (its ReplicaSets are garbage collected)`;
    case 'applicationGone':
      return `${s.request} not found: ignore (${verbatim('IsNotFound')})`;
    case 'applicationAddFinalizer':
      return 'no finalizer: add it';
    case 'applicationDeleting':
      return `being deleted: ${s.deleting.length ? `delete ${s.deleting.join(', ')}, then ` : ''}remove the finalizer`;
    case 'applicationSync':
      return `${s.deploymentExists ? `update ${s.name}-deployment (replicas ${s.replicas}, image ${s.image})` : `create ${s.name}-deployment`}${s.serviceExists ? '' : `, create ${s.name}-service`}`;
    case 'queueScaled':
      return `queue ${s.length} messages, ${s.current} workers: ${workers(s.why)}${s.to === null ? '' : ` → scale to ${s.to}`}`;
    case 'deploymentRollout':
      return `${s.available}/${s.desired} available, ${s.updated} updated (maxSurge ${s.maxSurge}, maxUnavailable ${s.maxUnavailable}): ${s.steps.length ? s.steps.map(step).join('; ') : 'nothing to scale'}`;
  }
}

export const KUBERNETES_NOTES = {
  /** What one Reconcile of `key` found and decided. */
  'kubernetes.reconcile': ({ key, summary }: { key: string; summary: ReconcileSummary }) => `reconcile ${key}: ${summaryEn(summary)}`,
  /** `events`: the watch events as the informer received them; `queued`: the keys still waiting, null when none. */
  'kubernetes.informer': ({ events, added, got, queued }: { events: string; added: string; got: string | null; queued: string | null }) =>
    `informer: ${verbatim(events)} → add [${added}]${got ? ` → Get ${got}` : ''}${queued ? `, queue [${queued}]` : ''}`,
  /** A batch of API requests; `done`: the reconcile it ended, with what reconcileHandler did, null mid-reconcile. */
  'kubernetes.writes': ({ requests, done }: { requests: SentRequests; done: KeyResult | null }) =>
    `${requestLines(requests, 'ignored')}${done ? ` → ${done.key}: ${resultEn(done.result)}` : ''}`,
  'kubernetes.result': ({ key, result }: KeyResult) => `${key}: ${resultEn(result)}`,
  'kubernetes.error': ({ error }: { error: string }) => `error: ${verbatim(error)}`,
  'kubernetes.config': ({ reconciler }: { reconciler: string }) => `config: controller ${reconciler}`,
  /** A kubectl command line, or what kubectl (the API server) answered. */
  'kubernetes.kubectl': ({ output }: { output: string }) => verbatim(output),
  'kubernetes.kubectlNotFound': ({ command, object }: { command: string; object: string }) => `${verbatim(command)}: ${object} not found`,
  'kubernetes.load': ({ app, cpuMilli }: { app: string; cpuMilli: number }) => `load on app=${app} → ${cpuMilli}m CPU`,
  'kubernetes.queueRate': ({ queue, perSecond }: { queue: string; perSecond: number }) =>
    `queue ${queue}: ${perSecond} messages/s arriving`,
  /** `pod`: the selector as the scenario wrote it (JSON). */
  'kubernetes.noSuchPod': ({ action, pod }: { action: 'crash' | 'delete'; pod: string }) => `${action}: no such pod (${pod})`,
  'kubernetes.podCrashed': ({ pod, restarts, backoffSeconds }: { pod: string; restarts: number; backoffSeconds: number }) =>
    `pod ${pod} crashed (restart #${restarts}, ${verbatim(`back-off ${backoffSeconds}s`)})`,
  'kubernetes.nodeFailed': ({ node }: { node: string }) => `node ${node} failed (kubelet stops reporting)`,
  'kubernetes.nodeBack': ({ node }: { node: string }) => `node ${node} is back`,
  /** `kind` null: every kind's watch. */
  'kubernetes.watchDelayed': ({ kind, bySeconds, forSeconds }: { kind: string | null; bySeconds: number; forSeconds: number }) =>
    `watch of ${kind ?? 'every kind'} delayed by ${bySeconds}s for ${forSeconds}s`,
  'kubernetes.watchDropped': ({ count, kind }: { count: number; kind: string | null }) =>
    `the next ${count} watch events of ${kind ?? 'any kind'} are lost (until a relist)`,
  'kubernetes.watchReordered': ({ count, maxMs }: { count: number; maxMs: number }) =>
    `the next ${count} watch events are reordered (up to ${maxMs}ms)`,
  'kubernetes.writesFail': ({ count }: { count: number }) => `the next ${count} API writes fail`,
  'kubernetes.controllerRestart': (_: NoParams) => 'controller restart',
  'kubernetes.crashWriteLands': (_: NoParams) => 'controller crash: the write on the wire still lands',
  'kubernetes.crashWriteLost': (_: NoParams) => 'controller crash: the write on the wire is lost',
} satisfies NoteCatalog;

export const kubernetesNote = messagesOf<typeof KUBERNETES_NOTES>();
export type KubernetesNote = MessageOf<typeof KUBERNETES_NOTES>;
