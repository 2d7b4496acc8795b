import type { KObject, NewObject, PodSpec, PodStatus, WatchEvent, Write } from '../../../machines/kubernetes';
import { RECONCILERS, outcomeOf, patchPrecondition, patched, type ReconcilerName, specOf, statusOf } from '../../../machines/kubernetes';
import type { CacheView, WriteOutcome } from '../../../machines/kubernetes';
import type { RngState } from '../../random';
import { drawInt, seedRng } from '../../random';
import type { Store } from './store';
import * as st from './store';
import { objectsOfKind } from './store-index';

/**
 * The simulated control plane: the API server's store, the focal controller's informer (its
 * watch stream, with faults), kube-scheduler, kubelets, the node lifecycle and garbage
 * collectors, and any built-in controllers running in kube-controller-manager. Plain data;
 * everything that happens on its own is an agenda item processed in time order by `settle`.
 */

export interface KubeParams {
  /** API round trip for a write, and the watch delay from commit to the informer. */
  apiLatencyMs: number;
  watchDelayMs: number;
  schedulerDelayMs: number;
  /** Image pull + container start, then the readiness probe's first success. */
  startMs: number;
  readyMs: number;
  terminationGraceMs: number;
  /** node-monitor-grace-period (40 s) and the NoExecute not-ready toleration (300 s). */
  nodeMonitorGraceMs: number;
  podEvictionMs: number;
  /** Delay before a built-in controller in the world reacts to an event. */
  builtinDelayMs: number;
  /** Informer resync (a relist that also repairs dropped events); 0: never. */
  resyncMs: number;
  /** The longest a watch waits without news before the controller looks again. */
  heartbeatMs: number;
  /** CrashLoopBackOff: 10 s doubling to 5 min. */
  crashBackoffMs: number;
  /** Dynamic provisioning of a PersistentVolume for a new claim. */
  provisionMs: number;
}

export const DEFAULT_KUBE_PARAMS: KubeParams = {
  apiLatencyMs: 20,
  watchDelayMs: 50,
  schedulerDelayMs: 10,
  startMs: 2_000,
  readyMs: 3_000,
  terminationGraceMs: 2_000,
  nodeMonitorGraceMs: 40_000,
  podEvictionMs: 300_000,
  builtinDelayMs: 100,
  resyncMs: 10 * 60_000,
  heartbeatMs: 10_000,
  crashBackoffMs: 10_000,
  provisionMs: 3_000,
};

export interface Informer {
  /** Bumped by each (re)list: a watch begun for an older informer must not take this one's events. */
  generation: number;
  kinds: string[];
  cache: Record<string, KObject>;
  /** Delivered to the cache, not yet handed to the event handlers. */
  pending: WatchEvent[];
  /** Watch streams are ordered per kind: the last delivery time of each. */
  lastDeliverAt: Record<string, number>;
  nextResyncAt: number;
}

export type AgendaItem =
  | { at: number; seq: number; kind: 'deliver'; event: WatchEvent }
  | { at: number; seq: number; kind: 'schedule' | 'kubeletStart' | 'kubeletReady' | 'kubeletKill'; pod: string }
  /** The volume provisioner binds a new PersistentVolumeClaim. */
  | { at: number; seq: number; kind: 'bindVolume'; claim: string }
  | { at: number; seq: number; kind: 'nodeNotReady' | 'evict'; node: string }
  | { at: number; seq: number; kind: 'builtin'; controller: ReconcilerName; key: string };

type NewAgendaItem = AgendaItem extends infer A ? (A extends AgendaItem ? Omit<A, 'seq'> : never) : never;

export interface KubeEventRecord {
  t: number;
  type: 'Normal' | 'Warning';
  object: string;
  reason: string;
  message: string;
}

/** A message queue whose length the talk's worker scaler reads (an external metric). */
export interface MessageQueue {
  name: string;
  length: number;
  arrivalsPerSec: number;
  perWorkerPerSec: number;
  workerSelector: Record<string, string>;
  at: number;
}

export interface WatchFaults {
  /** Extra delay on the watch of a kind (or of every kind), until a time. */
  delays: { kind: string | null; extraMs: number; until: number }[];
  /** The next `count` events of a kind (or any) are lost until the next relist. */
  drops: { kind: string | null; count: number }[];
  /** The next `count` events get a random extra delay in [0, maxMs] (cross-kind reordering). */
  reorder: { count: number; maxMs: number };
}

type PendingOp =
  | { id: number; kind: 'watch'; doneAt: number; informer: number }
  | { id: number; kind: 'read'; doneAt: number; request: string }
  | { id: number; kind: 'write'; doneAt: number; batch: Write[] };

/** What the monitor keeps about the reconcile in progress (world.idempotence.reading; sim/properties/kubernetes/idempotence.ts). */
export interface ReconcileWatch {
  key: string;
  /** The watched objects the reconcile read: store key → [resourceVersion, uid, owner uids]. */
  view: Record<string, [number, string, string[]]>;
  /** Objects its writes left, with the resourceVersion they left (null: gone). */
  ours: Record<string, number | null>;
  /** uids of objects it deleted (their dependents may go with them). */
  deleted: string[];
  /** No one else has changed a watched object since the read (checked after every batch). */
  clean: boolean;
}

export interface KubeWorld {
  rng: RngState;
  params: KubeParams;
  store: Store;
  agenda: AgendaItem[];
  seq: number;
  informer: Informer | null;
  builtins: ReconcilerName[];
  builtinMemory: Record<string, unknown>;
  ops: PendingOp[];
  nextOpId: number;
  faults: WatchFaults & { failWrites: number };
  /** CPU demand (millicores) of each app (pods labelled app=<name>), shared by its ready pods. */
  load: Record<string, number>;
  /** Extra CPU a new pod of an app uses for its first `forMs` after creation (a warm-up); none if absent. */
  startupLoad?: Record<string, { cpuMilli: number; forMs: number }>;
  queues: MessageQueue[];
  /** Times when the scenario's timeline changes the world (a watch wakes for them). */
  wakeups: number[];
  events: KubeEventRecord[];
  counters: { apiWrites: number; conflicts: number; podsCreated: number; watchDropped: number };
  /** A monitor: dependents the garbage collector deleted because their last owner went, by the
   * owner's kind (an owner whose finalizer cleaned up first leaves it nothing to do). */
  collected: Record<string, number>;
  /** A monitor, for a user's controller only (sim/properties/kubernetes/idempotence.ts): the
   * reconcile in progress (what it read and wrote), and the last one whose writes all went through
   * and left the store as it read it plus those writes, with the store revision then (a reconcile
   * of that key on exactly that state must change nothing). */
  idempotence?: { reading: ReconcileWatch | null; armed: { key: string; revision: number } | null };
}

export function createKubeWorld(seed: number, params: KubeParams, builtins: ReconcilerName[], wakeups: number[] = []): KubeWorld {
  const builtinMemory: Record<string, unknown> = {};
  for (const b of builtins) builtinMemory[b] = RECONCILERS[b].initialMemory();
  return {
    rng: seedRng(seed),
    params,
    store: st.emptyStore(),
    agenda: [],
    seq: 0,
    informer: null,
    builtins,
    builtinMemory,
    ops: [],
    nextOpId: 1,
    faults: { delays: [], drops: [], reorder: { count: 0, maxMs: 0 }, failWrites: 0 },
    load: {},
    queues: [],
    wakeups: [...wakeups].sort((a, b) => a - b),
    events: [],
    counters: { apiWrites: 0, conflicts: 0, podsCreated: 0, watchDropped: 0 },
    collected: {},
  };
}

const byTime = (a: AgendaItem, b: AgendaItem) => a.at - b.at || a.seq - b.seq;

export function schedule(world: KubeWorld, item: NewAgendaItem): KubeWorld {
  const seq = world.seq + 1;
  return { ...world, seq, agenda: [...world.agenda, { ...item, seq } as AgendaItem] }; // cast: item plus its seq is one member of the agenda union (TypeScript does not distribute the spread)
}

export function recordEvent(world: KubeWorld, e: KubeEventRecord): KubeWorld {
  return { ...world, events: [...world.events, e].slice(-30) };
}

/** Sends store changes to everyone who watches: the informer, the scheduler, built-in controllers. */
export function emit(world0: KubeWorld, changes: WatchEvent[], now: number): KubeWorld {
  let world = world0;
  for (const event of changes) {
    const kind = event.object.kind;
    if (world.informer?.kinds.includes(kind)) world = toInformer(world, event, now);
    if (kind === 'Pod' && event.type === 'ADDED' && !specOf<PodSpec>(event.object).nodeName) {
      world = schedule(world, { at: now + world.params.schedulerDelayMs, kind: 'schedule', pod: st.storeKeyOf(event.object) });
    }
    if (kind === 'PersistentVolumeClaim' && event.type === 'ADDED') {
      world = schedule(world, { at: now + world.params.provisionMs, kind: 'bindVolume', claim: st.storeKeyOf(event.object) });
    }
    for (const name of world.builtins) {
      const r = RECONCILERS[name];
      if (r.forKind !== kind && !r.watches.includes(kind)) continue;
      const mapped = r.mapEvent(event, world.builtinMemory[name], now);
      world = { ...world, builtinMemory: { ...world.builtinMemory, [name]: mapped.memory } };
      for (const key of mapped.requests) {
        const queued = world.agenda.some((a) => a.kind === 'builtin' && a.controller === name && a.key === key);
        if (!queued)
          world = schedule(world, { at: now + (mapped.addAfterMs ?? world.params.builtinDelayMs), kind: 'builtin', controller: name, key });
      }
    }
  }
  return world;
}

/** The watch stream of the focal controller: delay, drop and reorder faults apply here. */
function toInformer(world: KubeWorld, event: WatchEvent, now: number): KubeWorld {
  const kind = event.object.kind;
  const dropIdx = world.faults.drops.findIndex((d) => d.count > 0 && (d.kind === null || d.kind === kind));
  if (dropIdx >= 0) {
    const drops = world.faults.drops.map((d, i) => (i === dropIdx ? { ...d, count: d.count - 1 } : d));
    return { ...world, faults: { ...world.faults, drops }, counters: { ...world.counters, watchDropped: world.counters.watchDropped + 1 } };
  }
  let delay = world.params.watchDelayMs;
  for (const d of world.faults.delays) if (now < d.until && (d.kind === null || d.kind === kind)) delay += d.extraMs;
  let w = world;
  let reordered = false;
  if (w.faults.reorder.count > 0) {
    const [extra, rng] = drawInt(w.rng, 0, w.faults.reorder.maxMs);
    delay += extra;
    reordered = true;
    w = { ...w, rng, faults: { ...w.faults, reorder: { ...w.faults.reorder, count: w.faults.reorder.count - 1 } } };
  }
  const informer = w.informer!;
  // One watch stream per kind is ordered: a later event is never delivered before an earlier one.
  const at = reordered ? now + delay : Math.max(now + delay, informer.lastDeliverAt[kind] ?? 0);
  w = {
    ...w,
    informer: { ...informer, lastDeliverAt: { ...informer.lastDeliverAt, [kind]: Math.max(at, informer.lastDeliverAt[kind] ?? 0) } },
  };
  return schedule(w, { at, kind: 'deliver', event });
}

export const podRequestMilli = (p: KObject) => specOf<PodSpec>(p).containers.reduce((s, c) => s + c.cpuMilli, 0);

export const objectsOf = (world: KubeWorld, kind: string): readonly KObject[] => objectsOfKind(world.store.objects, kind);

const podsOnNode = (world: KubeWorld, node: string) => objectsOf(world, 'Pod').filter((p) => specOf<PodSpec>(p).nodeName === node);

function change(world: KubeWorld, r: st.StoreResult, type: WatchEvent['type'], now: number, old?: KObject): KubeWorld {
  if (r.error !== undefined) return world;
  return emit({ ...world, store: r.store }, [{ type, object: r.object, ...(old ? { old } : {}) }], now);
}

function mutateObject(world: KubeWorld, key: string, now: number, f: (o: KObject) => KObject): KubeWorld {
  const old = world.store.objects[key];
  if (!old) return world;
  return change(world, st.mutate(world.store, key, f), 'MODIFIED', now, old);
}

const setPodStatus = (o: KObject, s: Partial<PodStatus>): KObject => ({ ...o, status: { ...o.status, ...s } });

/**
 * DELETE: an object with finalizers only gets a deletionTimestamp; a pod on a node is deleted
 * gracefully (the kubelet kills it, then it goes); anything else goes at once, and the garbage
 * collector then deletes dependents whose owners are all gone (background propagation).
 */
export function deleteObject(world: KubeWorld, key: string, now: number): { world: KubeWorld; error?: string } {
  const obj = world.store.objects[key];
  if (!obj) return { world, error: `NotFound: ${key} not found` };
  const onNode = obj.kind === 'Pod' && !!specOf<PodSpec>(obj).nodeName;
  if (obj.metadata.finalizers.length > 0 || onNode) {
    if (obj.metadata.deletionTimestamp !== undefined) return { world };
    let w = mutateObject(world, key, now, (o) => ({
      ...o,
      metadata: { ...o.metadata, deletionTimestamp: now },
      ...(o.kind === 'Pod' ? { status: { ...o.status, ready: false } } : {}),
    }));
    if (onNode && obj.metadata.finalizers.length === 0)
      w = schedule(w, { at: now + w.params.terminationGraceMs, kind: 'kubeletKill', pod: key });
    return { world: w };
  }
  return { world: removeObject(world, key, now) };
}

/** The object leaves the store; then the garbage collector looks for orphans. */
function removeObject(world: KubeWorld, key: string, now: number): KubeWorld {
  const r = st.remove(world.store, key);
  if (r.error !== undefined) return world;
  let w = emit({ ...world, store: r.store }, [{ type: 'DELETED', object: r.object }], now);
  const goneUid = r.object.metadata.uid;
  const alive = new Set(Object.values(w.store.objects).map((o) => o.metadata.uid));
  for (const dep of Object.values(w.store.objects)) {
    const refs = dep.metadata.ownerReferences;
    if (!refs.some((ref) => ref.uid === goneUid)) continue;
    if (refs.every((ref) => !alive.has(ref.uid))) {
      w = deleteObject(w, st.storeKeyOf(dep), now).world;
      w = { ...w, collected: { ...w.collected, [r.object.kind]: (w.collected[r.object.kind] ?? 0) + 1 } };
    }
  }
  return w;
}

/** One API write from a client (a controller or kubectl). */
export function applyWrite(world: KubeWorld, write: Write, now: number): { world: KubeWorld; error?: string; object?: KObject } {
  let w: KubeWorld = { ...world, counters: { ...world.counters, apiWrites: world.counters.apiWrites + 1 } };
  switch (write.verb) {
    case 'create': {
      const r = st.create(w.store, write.object, now, w.rng);
      w = { ...w, rng: r.rng };
      if (r.error !== undefined) return { world: w, error: r.error };
      if (r.object.kind === 'Pod') w = { ...w, counters: { ...w.counters, podsCreated: w.counters.podsCreated + 1 } };
      return { world: change(w, r, 'ADDED', now), object: r.object };
    }
    case 'update':
    case 'updateStatus': {
      const key = st.storeKeyOf(write.object);
      const old = w.store.objects[key];
      let r = write.verb === 'update' ? st.update(w.store, write.object) : st.updateStatus(w.store, write.object);
      if (r.error?.startsWith('Conflict') && write.verb === 'updateStatus' && write.retryOnConflict && old) {
        r = st.updateStatus(w.store, { ...old, status: write.object.status });
      }
      if (r.error !== undefined) {
        if (r.error.startsWith('Conflict')) w = { ...w, counters: { ...w.counters, conflicts: w.counters.conflicts + 1 } };
        return { world: w, error: r.error };
      }
      w = change(w, r, 'MODIFIED', now, old);
      // The last finalizer removed from an object being deleted: now it really goes.
      if (r.object.metadata.deletionTimestamp !== undefined && r.object.metadata.finalizers.length === 0) {
        const onNode = r.object.kind === 'Pod' && !!specOf<PodSpec>(r.object).nodeName;
        if (!onNode) w = removeObject(w, key, now);
      }
      return { world: w, object: r.object };
    }
    case 'delete': {
      const r = deleteObject(w, st.storeKey(write.kind, write.namespace, write.name), now);
      return r.error !== undefined ? { world: r.world, error: r.error } : { world: r.world };
    }
    case 'patch': {
      // The server applies the patch to what it holds now: no Conflict unless the patch carries a resourceVersion.
      const current = w.store.objects[st.storeKey(write.kind, write.namespace, write.name)];
      if (!current) return { world: w, error: `NotFound: ${write.kind.toLowerCase()} ${write.name} not found` };
      const rv = patchPrecondition(write.patch);
      const after = patched(current, write.patch, write.status === true);
      const next = { ...after, metadata: { ...after.metadata, resourceVersion: rv ?? current.metadata.resourceVersion } };
      return applyWrite(world, { verb: write.status ? 'updateStatus' : 'update', object: next }, now);
    }
    case 'scale': {
      const current = w.store.objects[st.storeKey(write.kind, write.namespace, write.name)];
      if (!current) return { world: w, error: `NotFound: ${write.kind.toLowerCase()} ${write.name} not found` };
      return applyWrite(world, { verb: 'update', object: { ...current, spec: { ...current.spec, replicas: write.replicas } } }, now);
    }
    case 'event':
      return { world: recordEvent(w, { t: now, type: write.type, object: write.object, reason: write.reason, message: write.message }) };
  }
}

/** kubectl apply of a whole object (create, or update keeping the server's metadata). */
export function kubectlApply(world: KubeWorld, obj: NewObject, now: number): { world: KubeWorld; error?: string } {
  const key = st.storeKey(obj.kind, obj.metadata.namespace, obj.metadata.name ?? '');
  const current = world.store.objects[key];
  if (!current) return applyWrite(world, { verb: 'create', object: obj }, now);
  const next: KObject = {
    ...current,
    metadata: { ...current.metadata, labels: { ...(obj.metadata.labels ?? current.metadata.labels) } },
    spec: structuredClone(obj.spec),
  };
  return applyWrite(world, { verb: 'update', object: next }, now);
}

function nodeReady(world: KubeWorld, name: string | undefined): boolean {
  if (!name) return false;
  const node = world.store.objects[st.storeKey('Node', '', name)];
  return !!node && (node.status as { ready?: boolean }).ready === true; // cast: unchecked: a Node's status/spec as the cluster model writes them (sim/worlds/kubernetes/world.ts)
}

/** kube-scheduler: filter nodes that fit (ready, CPU, pod count), score LeastAllocated, bind. */
/**
 * A node that reports again: its kubelet re-syncs the pods bound to it (kubelet syncLoop → SyncPod),
 * starting those that never started and reporting Ready again for running ones that the node
 * lifecycle controller marked NotReady. Pods already evicted are gone and not touched.
 */
export function kubeletResync(world: KubeWorld, node: string, now: number): KubeWorld {
  let w = world;
  for (const pod of objectsOf(w, 'Pod')) {
    if (specOf<PodSpec>(pod).nodeName !== node || pod.metadata.deletionTimestamp !== undefined) continue;
    const status = statusOf<PodStatus>(pod);
    const key = st.storeKeyOf(pod);
    if (status.phase !== 'Running') w = schedule(w, { at: now + w.params.startMs, kind: 'kubeletStart', pod: key });
    else if (!status.ready) w = schedule(w, { at: now + w.params.readyMs, kind: 'kubeletReady', pod: key });
  }
  return w;
}

function schedulePod(world: KubeWorld, key: string, now: number): KubeWorld {
  const pod = world.store.objects[key];
  if (!pod || specOf<PodSpec>(pod).nodeName || pod.metadata.deletionTimestamp !== undefined) return world;
  const need = podRequestMilli(pod);
  let best: { name: string; free: number } | undefined;
  for (const node of objectsOf(world, 'Node')) {
    if ((node.status as { ready?: boolean }).ready !== true) continue; // cast: unchecked: a Node's status/spec as the cluster model writes them (sim/worlds/kubernetes/world.ts)
    const spec = node.spec as { cpuMilli: number; maxPods: number }; // cast: unchecked: a Node's status/spec as the cluster model writes them (sim/worlds/kubernetes/world.ts)
    const pods = podsOnNode(world, node.metadata.name).filter((p) => p.metadata.deletionTimestamp === undefined);
    const free = spec.cpuMilli - pods.reduce((s, p) => s + podRequestMilli(p), 0);
    if (free < need || pods.length >= spec.maxPods) continue;
    if (!best || free > best.free || (free === best.free && node.metadata.name < best.name)) best = { name: node.metadata.name, free };
  }
  if (!best) {
    const w = recordEvent(world, {
      t: now,
      type: 'Warning',
      object: `pod/${pod.metadata.name}`,
      reason: 'FailedScheduling',
      message: `0 nodes available: insufficient cpu (needs ${need}m)`,
    });
    return schedule(w, { at: now + 10_000, kind: 'schedule', pod: key });
  }
  const node = best.name;
  let w = mutateObject(world, key, now, (o) => ({ ...o, spec: { ...o.spec, nodeName: node } }));
  w = recordEvent(w, { t: now, type: 'Normal', object: `pod/${pod.metadata.name}`, reason: 'Scheduled', message: `assigned to ${node}` });
  return schedule(w, { at: now + w.params.startMs, kind: 'kubeletStart', pod: key });
}

function process(world: KubeWorld, item: AgendaItem): KubeWorld {
  const now = item.at;
  switch (item.kind) {
    case 'deliver': {
      const inf = world.informer;
      if (!inf) return world;
      const key = st.storeKeyOf(item.event.object);
      const cache = { ...inf.cache };
      if (item.event.type === 'DELETED') delete cache[key];
      else cache[key] = item.event.object;
      return { ...world, informer: { ...inf, cache, pending: [...inf.pending, item.event] } };
    }
    case 'schedule':
      return schedulePod(world, item.pod, now);
    case 'kubeletStart': {
      const pod = world.store.objects[item.pod];
      if (!pod || pod.metadata.deletionTimestamp !== undefined || !nodeReady(world, specOf<PodSpec>(pod).nodeName)) return world;
      const w = mutateObject(world, item.pod, now, (o) => setPodStatus(o, { phase: 'Running' }));
      return schedule(w, { at: now + w.params.readyMs, kind: 'kubeletReady', pod: item.pod });
    }
    case 'kubeletReady': {
      const pod = world.store.objects[item.pod];
      if (!pod || pod.metadata.deletionTimestamp !== undefined || !nodeReady(world, specOf<PodSpec>(pod).nodeName)) return world;
      if (statusOf<PodStatus>(pod).ready) return world;
      return mutateObject(world, item.pod, now, (o) => setPodStatus(o, { phase: 'Running', ready: true, readySince: now }));
    }
    case 'kubeletKill':
      return removeObject(world, item.pod, now);
    case 'bindVolume':
      return mutateObject(world, item.claim, now, (o) => ({ ...o, status: { ...o.status, phase: 'Bound' } }));
    case 'nodeNotReady': {
      // NodeLifecycleController: MarkPodsNotReady once the node stopped reporting.
      if (nodeReady(world, item.node)) return world;
      let w = world;
      for (const p of podsOnNode(w, item.node)) w = mutateObject(w, st.storeKeyOf(p), now, (o) => setPodStatus(o, { ready: false }));
      w = recordEvent(w, {
        t: now,
        type: 'Warning',
        object: `node/${item.node}`,
        reason: 'NodeNotReady',
        message: 'Node is not ready; pods marked NotReady',
      });
      return schedule(w, { at: now + w.params.podEvictionMs, kind: 'evict', node: item.node });
    }
    case 'evict': {
      // Taint-based eviction (node.kubernetes.io/not-ready:NoExecute, tolerationSeconds).
      if (nodeReady(world, item.node)) return world;
      let w = world;
      for (const p of podsOnNode(w, item.node)) {
        w = recordEvent(w, {
          t: now,
          type: 'Warning',
          object: `pod/${p.metadata.name}`,
          reason: 'TaintManagerEviction',
          message: `evicting from ${item.node}`,
        });
        w = deleteObject(w, st.storeKeyOf(p), now).world;
      }
      return w;
    }
    case 'builtin':
      return runBuiltin(world, item.controller, item.key, now);
  }
}

/** The live view a built-in controller reads (kube-controller-manager's informers, assumed fresh). */
export function viewOf(world: KubeWorld, objects: KObject[], now: number): CacheView {
  // metrics.k8s.io (metrics-server): a sample for every running pod on a ready node. A ready pod (a Service
  // endpoint) carries 10m plus its share of its app's demand; a running pod that is not ready
  // only 10m; a pod of an app with a startup load uses that much more for its first seconds
  // after creation (a JVM warming up), ready or not.
  const podCpuMilli: Record<string, number> = {};
  const running = objects.filter(
    (o) => o.kind === 'Pod' && statusOf<PodStatus>(o).phase === 'Running' && nodeReady(world, specOf<PodSpec>(o).nodeName),
  );
  const readyByApp = new Map<string, number>();
  for (const p of running)
    if (statusOf<PodStatus>(p).ready) {
      const app = p.metadata.labels.app ?? '';
      readyByApp.set(app, (readyByApp.get(app) ?? 0) + 1);
    }
  for (const p of running) {
    const app = p.metadata.labels.app ?? '';
    const share = statusOf<PodStatus>(p).ready ? (world.load[app] ?? 0) / (readyByApp.get(app) ?? 1) : 0;
    const startup = world.startupLoad?.[app];
    const warming = startup && now - p.metadata.creationTimestamp < startup.forMs ? startup.cpuMilli : 0;
    podCpuMilli[`${p.metadata.namespace}/${p.metadata.name}`] = Math.round(10 + share + warming);
  }
  const external: Record<string, number> = {};
  for (const q of world.queues) external[q.name] = Math.round(q.length);
  // The cache is cluster-wide (controller-runtime's default): reconcilers pick what they need.
  return { objects, podCpuMilli, external };
}

function runBuiltin(world: KubeWorld, name: ReconcilerName, key: string, now: number): KubeWorld {
  const r = RECONCILERS[name];
  const plan = r.reconcile({
    request: key,
    view: viewOf(world, Object.values(world.store.objects), now),
    memory: world.builtinMemory[name],
    now,
    options: {},
  });
  let w: KubeWorld = { ...world, builtinMemory: { ...world.builtinMemory, [name]: plan.memory } };
  const done: WriteOutcome[] = [];
  for (const batch of plan.batches) {
    for (const write of batch) {
      const res = applyWrite(w, write, now);
      w = res.world;
      done.push(outcomeOf(write, res.error));
    }
  }
  if (r.afterWrites) w = { ...w, builtinMemory: { ...w.builtinMemory, [name]: r.afterWrites(w.builtinMemory[name], key, done, [], now) } };
  const failed = done.some((d) => d.error !== undefined) || plan.outcome.kind === 'error';
  const again = failed ? 1_000 : plan.outcome.kind === 'ok' ? (plan.outcome.requeueAfterMs ?? (plan.outcome.requeue ? 1_000 : 0)) : 0;
  if (again > 0) w = schedule(w, { at: now + again, kind: 'builtin', controller: name, key });
  return w;
}

/** Message queues fill and drain continuously: arrivals minus what ready workers consume. */
function advanceQueues(world: KubeWorld, t: number): KubeWorld {
  if (!world.queues.length) return world;
  const pods = objectsOf(world, 'Pod');
  const queues = world.queues.map((q) => {
    if (t <= q.at) return q;
    const workers = pods.filter(
      (p) => statusOf<PodStatus>(p).ready && Object.entries(q.workerSelector).every(([k, v]) => p.metadata.labels[k] === v),
    ).length;
    const dt = (t - q.at) / 1000;
    return { ...q, length: Math.max(0, q.length + (q.arrivalsPerSec - workers * q.perWorkerPerSec) * dt), at: t };
  });
  return { ...world, queues };
}

/** Processes every agenda item due by t, in time order (items may schedule more). */
export function settle(world0: KubeWorld, t: number): KubeWorld {
  let world = world0;
  for (;;) {
    let next: AgendaItem | undefined;
    for (const a of world.agenda) if (a.at <= t && (!next || byTime(a, next) < 0)) next = a;
    if (!next) break;
    const item = next;
    world = advanceQueues(world, item.at);
    world = process({ ...world, agenda: world.agenda.filter((a) => a !== item) }, item);
  }
  return advanceQueues(world, t);
}

export function nextAgendaAt(world: KubeWorld): number | undefined {
  let min: number | undefined;
  for (const a of world.agenda) if (min === undefined || a.at < min) min = a.at;
  return min;
}

export { st as store };
