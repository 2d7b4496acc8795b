/**
 * The Kubernetes object model the controllers see: plain data, shaped like the API's
 * (k8s.io/apimachinery pkg/apis/meta/v1 ObjectMeta, OwnerReference). No world, no I/O.
 */

export interface OwnerReference {
  kind: string;
  name: string;
  uid: string;
  /** The managing controller (at most one per object). */
  controller: boolean;
}

export interface ObjectMeta {
  namespace: string;
  name: string;
  uid: string;
  /** etcd's modification revision, as a number (opaque to clients upstream; compared only for equality). */
  resourceVersion: number;
  /** Bumped by the API server on every spec change (not on status or metadata writes). */
  generation: number;
  creationTimestamp: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReference[];
  finalizers: string[];
  /** Set by a DELETE of an object that still has finalizers; the object stays until they are gone.
   * Test it against undefined: 0 is a time (a delete at the first instant). */
  deletionTimestamp?: number;
}

export interface KObject<S = Record<string, unknown>, St = Record<string, unknown>> {
  kind: string;
  metadata: ObjectMeta;
  spec: S;
  status: St;
}

/** What a client sends to create an object: the server fills uid, resourceVersion, generation… */
export interface NewObject {
  kind: string;
  metadata: {
    namespace: string;
    name?: string;
    generateName?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    finalizers?: string[];
  };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** One write a reconcile issues against the API server. */
export type Write =
  /** tolerate: error reasons treated as success (client.IgnoreAlreadyExists, IgnoreNotFound). */
  | { verb: 'create'; object: NewObject; tolerate?: string[] }
  /** Optimistic concurrency: fails with Conflict when metadata.resourceVersion is stale. */
  | { verb: 'update'; object: KObject }
  /** retryOnConflict: GET the latest and retry once (ReplicaSet updateReplicaSetStatus, statusUpdateRetries = 1). */
  | { verb: 'updateStatus'; object: KObject; retryOnConflict?: boolean }
  | { verb: 'delete'; kind: string; namespace: string; name: string; tolerate?: string[] }
  /** PATCH with a JSON merge patch (machines/kubernetes/merge-patch.ts), of the object or (status) its /status. */
  | { verb: 'patch'; kind: string; namespace: string; name: string; patch: Record<string, unknown>; status?: boolean }
  /** The /scale subresource: GET the latest, set spec.replicas, PUT (the HPA's scaleNamespacer). */
  | { verb: 'scale'; kind: string; namespace: string; name: string; replicas: number }
  /** An Event (kubectl get events), recorded by the controller's EventRecorder. */
  | { verb: 'event'; namespace: string; object: string; reason: string; message: string; type: 'Normal' | 'Warning' };

export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One watch event as an informer hands it to the event handlers. */
export interface WatchEvent {
  type: WatchType;
  object: KObject;
  /** The object before the change (MODIFIED only), as UpdateFunc(old, new) receives it. */
  old?: KObject;
}

/** reconcile.Result plus the error, as controller-runtime's reconcileHandler receives them. */
export type ReconcileOutcome =
  | { kind: 'ok'; requeue?: boolean; requeueAfterMs?: number }
  /** `result`: a Result returned together with the error — ignored, with a warning (reconcileHandler). */
  | { kind: 'error'; message: string; result?: RequeueResult }
  /** reconcile.TerminalError: logged, not retried (controller.go: "terminal error, not requeuing"). */
  | { kind: 'terminal'; message: string; result?: RequeueResult };

/** The requeue fields of a reconcile.Result. */
export interface RequeueResult {
  requeue?: boolean;
  requeueAfterMs?: number;
}

/** The desired pod template: labels and containers. */
export interface Container {
  name: string;
  image: string;
  cpuMilli: number;
  port?: number;
}
export interface PodTemplate {
  labels: Record<string, string>;
  containers: Container[];
}

export interface PodSpec {
  nodeName?: string;
  containers: Container[];
}
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';
export interface PodStatus {
  phase: PodPhase;
  ready: boolean;
  readySince?: number;
  restarts: number;
}

export interface ReplicaSetSpec {
  replicas: number;
  selector: Record<string, string>;
  template: PodTemplate;
  minReadySeconds?: number;
}
export interface ReplicaSetStatus {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration: number;
}

export interface DeploymentStrategy {
  maxSurge: number | string;
  maxUnavailable: number | string;
}
export interface DeploymentSpec {
  replicas: number;
  selector: Record<string, string>;
  template: PodTemplate;
  strategy: DeploymentStrategy;
}
export interface DeploymentStatus {
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  unavailableReplicas: number;
  observedGeneration: number;
}

export const keyOf = (o: { metadata: { namespace: string; name: string } }) => `${o.metadata.namespace}/${o.metadata.name}`;
export const splitKey = (key: string) => {
  const i = key.indexOf('/');
  return { namespace: key.slice(0, i), name: key.slice(i + 1) };
};

/** The controlling owner (metav1.GetControllerOf). */
export const controllerOf = (o: KObject) => o.metadata.ownerReferences.find((r) => r.controller);

export function ownerRef(owner: KObject): OwnerReference {
  return { kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true };
}

/** A label selector with matchLabels only: every pair must be present. */
export const matches = (selector: Record<string, string>, labels: Record<string, string>) => {
  const keys = Object.keys(selector);
  return keys.length > 0 && keys.every((k) => labels[k] === selector[k]);
};

export const isPodReady = (p: KObject) => statusOf<PodStatus>(p).ready === true && p.metadata.deletionTimestamp === undefined;

/** Typed views of spec/status: the store keeps them as plain records, and each kind's reconciler
 * knows its own shape (the only casts of spec and status; every reader goes through these). */
export const specOf = <S extends object>(o: KObject): S => o.spec as S; // unchecked by design: the store holds any kind's spec as a record, the caller names its kind's shape
export const statusOf = <S extends object>(o: KObject): S => o.status as S; // unchecked by design, as specOf: the caller names its kind's status shape
