import type { Plan, Reconciler } from '../reconciler';
import type { WorkersDecision } from '../reconcile-summary';
import type { DeploymentSpec, Write } from '../types';
import { specOf, splitKey } from '../types';

/**
 * The talk's example operator (seed 000): "Kubernetes scales pods on CPU and memory — what if we
 * scale on the length of a message queue?" A QueueScaler custom resource names a queue, a
 * Deployment of workers and how many waiting messages one worker should have; the operator
 * observes the queue (an external metric), compares, and scales the Deployment through its
 * /scale subresource. It polls (RequeueAfter, like KEDA's pollingInterval) because a queue sends no
 * watch events, and it scales down only after `scaleDownDelaySeconds` without a scale-up, so a
 * queue that empties in bursts does not make the workers flap.
 */

export interface QueueScalerSpec {
  queue: string;
  scaleTargetRef: { kind: 'Deployment'; name: string };
  messagesPerWorker: number;
  minReplicas: number;
  maxReplicas: number;
  pollingIntervalSeconds: number;
  scaleDownDelaySeconds: number;
}
export interface QueueScalerStatus {
  desiredReplicas?: number;
  queueLength?: number;
  lastScaleUp?: number;
  summary?: string;
}

/** The pure decision: workers for a queue length, clamped, with the scale-down delay. */
export function workersFor(
  spec: QueueScalerSpec,
  length: number,
  current: number,
  lastScaleUp: number | undefined,
  now: number,
): { replicas: number; why: WorkersDecision } {
  const wanted = Math.min(spec.maxReplicas, Math.max(spec.minReplicas, Math.ceil(length / spec.messagesPerWorker)));
  if (wanted < current && lastScaleUp !== undefined && now - lastScaleUp < spec.scaleDownDelaySeconds * 1000) {
    return {
      replicas: current,
      why: { kind: 'hold', wanted, agoSeconds: Math.round((now - lastScaleUp) / 1000), delaySeconds: spec.scaleDownDelaySeconds },
    };
  }
  return {
    replicas: wanted,
    why: { kind: 'clamped', length, perWorker: spec.messagesPerWorker, min: spec.minReplicas, max: spec.maxReplicas, wanted },
  };
}

export const queueScalerReconciler: Reconciler<null> = {
  name: 'queue-scaler',
  forKind: 'QueueScaler',
  watches: ['Deployment'],
  initialMemory: () => null,
  // predicate.GenerationChangedPredicate: its own status writes (every poll) must not re-trigger it.
  mapEvent: (event, memory) => {
    const o = event.object;
    const specChanged = event.type !== 'MODIFIED' || !event.old || event.old.metadata.generation !== o.metadata.generation;
    return { requests: o.kind === 'QueueScaler' && specChanged ? [`${o.metadata.namespace}/${o.metadata.name}`] : [], memory };
  },

  reconcile({ request, view, now }): Plan<null> {
    const { namespace, name } = splitKey(request);
    const qs = view.objects.find((o) => o.kind === 'QueueScaler' && o.metadata.namespace === namespace && o.metadata.name === name);
    if (!qs) return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: `${request} is gone` };
    const spec = specOf<QueueScalerSpec>(qs);
    const status = qs.status as QueueScalerStatus; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
    const poll = { kind: 'ok' as const, requeueAfterMs: spec.pollingIntervalSeconds * 1000 };
    const target = view.objects.find(
      (o) => o.kind === 'Deployment' && o.metadata.namespace === namespace && o.metadata.name === spec.scaleTargetRef.name,
    );
    const length = view.external[spec.queue];
    if (!target || length === undefined) {
      const why = !target ? `deployment ${spec.scaleTargetRef.name} not found` : `queue ${spec.queue} has no metric`;
      return { batches: [], outcome: { kind: 'error', message: why }, memory: null, summary: why };
    }
    const current = specOf<DeploymentSpec>(target).replicas;
    const d = workersFor(spec, length, current, status.lastScaleUp, now);
    const writes: Write[] = [];
    if (d.replicas !== current)
      writes.push({ verb: 'scale', kind: 'Deployment', namespace, name: target.metadata.name, replicas: d.replicas });
    const next: QueueScalerStatus = {
      desiredReplicas: d.replicas,
      queueLength: length,
      ...(d.replicas > current ? { lastScaleUp: now } : status.lastScaleUp !== undefined ? { lastScaleUp: status.lastScaleUp } : {}),
      summary: `queue ${spec.queue}: ${length} messages, workers ${current}${d.replicas !== current ? ` → ${d.replicas}` : ''}`,
    };
    const batches = writes.length ? [writes] : [];
    batches.push([{ verb: 'updateStatus', object: { ...qs, status: { ...next } }, retryOnConflict: true }]);
    return {
      batches,
      outcome: poll,
      memory: null,
      summary: { kind: 'queueScaled', length, current, why: d.why, to: d.replicas !== current ? d.replicas : null },
    };
  },
};
