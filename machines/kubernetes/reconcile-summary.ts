/**
 * What one Reconcile of the ReplicaSet, Deployment and Application controllers found and decided, as data: the
 * simulator narrates it from its note catalog (sim/notes/kubernetes.ts), in either language. The other
 * reconcilers still say it in English text (Plan.summary as a string).
 */
export type RolloutStep =
  | { kind: 'createReplicaSet'; name: string; replicas: number }
  | { kind: 'scaleNew'; name: string; from: number; to: number }
  | { kind: 'scaleOld'; name: string; from: number; to: number };

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
  | { kind: 'deploymentRollout'; available: number; desired: number; updated: number; maxSurge: number; maxUnavailable: number; steps: RolloutStep[] };
