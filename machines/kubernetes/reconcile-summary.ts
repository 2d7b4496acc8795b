/**
 * What one Reconcile of the ReplicaSet, Deployment, Application and queue-scaler controllers found and decided, as data: the
 * simulator narrates it from its note catalog (sim/notes/kubernetes.ts), in either language. The other
 * reconcilers still say it in English text (Plan.summary as a string).
 */
export type RolloutStep =
  | { kind: 'createReplicaSet'; name: string; replicas: number }
  | { kind: 'scaleNew'; name: string; from: number; to: number }
  | { kind: 'scaleOld'; name: string; from: number; to: number };

/** The queue scaler's pure decision: hold after a recent scale-up, or the clamped ceiling. */
export type WorkersDecision =
  | { kind: 'hold'; wanted: number; agoSeconds: number; delaySeconds: number }
  | { kind: 'clamped'; length: number; perWorker: number; min: number; max: number; wanted: number };

/** `active`/`desired`: the ReplicaSet's active pods in the cache and its spec.replicas. */
export type ReconcileSummary =
  | { kind: 'replicaSetGone'; request: string }
  | { kind: 'replicaSetWaiting'; active: number; desired: number; add: number; del: number }
  | { kind: 'replicaSetCreate'; active: number; desired: number; count: number; batches: number[] }
  | { kind: 'replicaSetDelete'; active: number; desired: number; pods: string[] }
  | { kind: 'replicaSetInSync'; active: number; desired: number }
  | { kind: 'deploymentGone'; request: string }
  | { kind: 'applicationGone'; request: string }
  | { kind: 'applicationAddFinalizer' }
  /** `deleting`: the children it deletes before removing its finalizer. */
  | { kind: 'applicationDeleting'; deleting: string[] }
  /** The seed's sync: the Deployment updated (or created when missing), the Service created when missing. */
  | { kind: 'applicationSync'; name: string; replicas: number; image: string; deploymentExists: boolean; serviceExists: boolean }
  /** `to`: the workers it scales to, null when it keeps them. */
  | { kind: 'queueScaled'; length: number; current: number; why: WorkersDecision; to: number | null }
  | {
      kind: 'deploymentRollout';
      available: number;
      desired: number;
      updated: number;
      maxSurge: number;
      maxUnavailable: number;
      steps: RolloutStep[];
    };
