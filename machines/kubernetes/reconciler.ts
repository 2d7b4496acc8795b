import type { KObject, ReconcileOutcome, WatchEvent, Write } from './types';

import type { ReconcileSummary } from './reconcile-summary';
/** What a reconcile reads: the informer cache of the request's namespace, plus metrics. */
export interface CacheView {
  objects: KObject[];
  /** metrics.k8s.io: CPU use of each pod (namespace/name → millicores). */
  podCpuMilli: Record<string, number>;
  /** External metrics, e.g. a message queue's length (name → value). */
  external: Record<string, number>;
}

/** A reconcile's decision: the writes to issue in batches (a batch's writes run in parallel;
 * a failed batch stops the rest, like slowStartBatch), the Result, and the controller's memory. */
export interface Plan<M = unknown> {
  batches: Write[][];
  outcome: ReconcileOutcome;
  memory: M;
  /** The comparison (shown as the frame's note): as data the simulator narrates, or in English words. */
  summary: ReconcileSummary | string;
}

/** error: the write failed; tolerated: it failed in a way the reconciler accepts (e.g. AlreadyExists). */
export interface WriteOutcome {
  write: Write;
  error?: string;
  tolerated?: string;
}

/** Applies a write's `tolerate` list to the API server's answer. */
export function outcomeOf(write: Write, error: string | undefined): WriteOutcome {
  if (error === undefined) return { write };
  const tolerate = 'tolerate' in write ? (write.tolerate ?? []) : [];
  return tolerate.some((reason) => error.startsWith(reason)) ? { write, tolerated: error } : { write, error };
}

export interface ReconcileInput<M> {
  request: string;
  view: CacheView;
  memory: M;
  now: number;
  options: Record<string, unknown>;
}

/**
 * A controller's logic as pure functions (the Reconciler of controller-runtime, plus its
 * event handlers). `mapEvent` is the handler.EventHandler: it turns a watch event into
 * level-triggered requests (namespace/name only) and may update memory (expectations).
 */
export interface Reconciler<M = unknown> {
  name: string;
  /** The primary kind (For) and the other kinds whose informers the controller runs. */
  forKind: string;
  watches: string[];
  initialMemory(): M;
  /** addAfterMs: enqueue with AddAfter instead of Add (the HPA's queue re-adds after its sync period). */
  mapEvent(event: WatchEvent, memory: M, now: number): { requests: string[]; memory: M; addAfterMs?: number };
  reconcile(input: ReconcileInput<M>): Plan<M>;
  /** Called with what happened to the plan's writes (failed and skipped ones too). */
  afterWrites?(memory: M, request: string, done: WriteOutcome[], skipped: Write[], now: number): M;
}

/** handler.EnqueueRequestForObject + EnqueueRequestForOwner(OnlyControllerOwner) for `forKind`. */
export function enqueueForAndOwner(forKind: string, event: WatchEvent): string[] {
  const o = event.object;
  if (o.kind === forKind) return [`${o.metadata.namespace}/${o.metadata.name}`];
  const owner = o.metadata.ownerReferences.find((r) => r.controller && r.kind === forKind);
  const oldOwner = event.old?.metadata.ownerReferences.find((r) => r.controller && r.kind === forKind);
  const keys = new Set<string>();
  if (owner) keys.add(`${o.metadata.namespace}/${owner.name}`);
  if (oldOwner) keys.add(`${o.metadata.namespace}/${oldOwner.name}`);
  return [...keys];
}
