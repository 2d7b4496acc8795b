import type {
  ApiWriteInput,
  ApiWriteOutput,
  KObject,
  NewObject,
  PodStatus,
  ReadCacheInput,
  ReadCacheOutput,
  WatchEvent,
  WatchNextInput,
  WatchNextOutput,
  WriteOutcome,
} from '../../../machines/kubernetes';
import { outcomeOf, statusOf } from '../../../machines/kubernetes';
import type { OpResult, WorldModel } from '../../model';
import type { KubeWorld, MessageQueue } from './world';
import {
  applyWrite,
  deleteObject,
  emit,
  kubectlApply,
  kubeletResync,
  nextAgendaAt,
  recordEvent,
  schedule,
  settle,
  store as st,
  viewOf,
} from './world';
import type { KubeSummary } from '../../loops/kubernetes-world-schema';
import type { KubernetesNote } from '../../notes/kubernetes';
import { kubernetesNote } from '../../notes/kubernetes';
import { kubeSummary } from './summary';

/** A pod by name, or the first ready pod labelled app=<app> (by name). */
export type PodSelector = { name: string } | { app: string };

/** Faults and changes a scenario's timeline (or the lab) applies to the control plane. */
export type KubeFault =
  | { kind: 'apply'; object: NewObject }
  | { kind: 'delete'; objectKind: string; namespace: string; name: string }
  | { kind: 'scale'; objectKind: string; namespace: string; name: string; replicas: number }
  | { kind: 'setImage'; namespace: string; name: string; image: string }
  | { kind: 'load'; app: string; cpuMilli: number }
  | { kind: 'queue'; queue: string; arrivalsPerSec: number }
  | { kind: 'crashPod'; namespace: string; pod: PodSelector }
  | { kind: 'deletePod'; namespace: string; pod: PodSelector }
  | { kind: 'nodeFail'; node: string }
  | { kind: 'nodeRecover'; node: string }
  | { kind: 'delayWatch'; objectKind: string | null; extraMs: number; forMs: number }
  | { kind: 'dropWatch'; objectKind: string | null; count: number }
  | { kind: 'reorderWatch'; count: number; maxMs: number }
  | { kind: 'failWrites'; count: number }
  /**
   * The controller process crashes. `write` (only told apart while a write is on the wire): 'lands'
   * — the API server got the request and applies it, the answer goes to nobody; 'lost' — it never
   * reached the API server. Without it the crash comes between reconciles, as a `true` in a scenario.
   */
  | { kind: 'restartController'; write?: 'lands' | 'lost' };

/** A resync period of 0 means never (client-go: "resyncPeriod 0 disables resync"). */
const nextResync = (world: KubeWorld, t: number) => (world.params.resyncMs > 0 ? t + world.params.resyncMs : Number.POSITIVE_INFINITY);

function initialList(world: KubeWorld, kinds: string[], t: number): KubeWorld {
  const objects = Object.values(world.store.objects)
    .filter((o) => kinds.includes(o.kind))
    .sort((a, b) => (st.storeKeyOf(a) < st.storeKeyOf(b) ? -1 : 1));
  const cache: Record<string, KObject> = {};
  for (const o of objects) cache[st.storeKeyOf(o)] = o;
  const pending: WatchEvent[] = objects.map((object) => ({ type: 'ADDED', object }));
  // Deliveries queued for an earlier informer are obsolete: the list replaces them.
  const agenda = world.agenda.filter((a) => a.kind !== 'deliver');
  return {
    ...world,
    agenda,
    informer: {
      generation: (world.informer?.generation ?? 0) + 1,
      kinds,
      cache,
      pending,
      lastDeliverAt: {},
      nextResyncAt: nextResync(world, t),
    },
  };
}

/** Relist + resync: the cache is replaced by the server's state (repairing dropped events), and
 * every object is handed to the handlers again as an update (client-go sharedIndexInformer resync). */
function resync(world: KubeWorld, t: number): KubeWorld {
  const inf = world.informer!;
  const server = Object.values(world.store.objects).filter((o) => inf.kinds.includes(o.kind));
  const events: WatchEvent[] = [];
  const cache: Record<string, KObject> = {};
  for (const o of server.sort((a, b) => (st.storeKeyOf(a) < st.storeKeyOf(b) ? -1 : 1))) {
    const key = st.storeKeyOf(o);
    const old = inf.cache[key];
    cache[key] = o;
    events.push(old ? { type: 'MODIFIED', object: o, old } : { type: 'ADDED', object: o });
  }
  for (const [key, o] of Object.entries(inf.cache)) if (!cache[key]) events.push({ type: 'DELETED', object: o });
  return { ...world, informer: { ...inf, cache, pending: [...inf.pending, ...events], nextResyncAt: nextResync(world, t) } };
}

type Op = KubeWorld['ops'][number];
type NewOp = Op extends infer O ? (O extends Op ? Omit<O, 'id'> : never) : never;

function addOp(world: KubeWorld, op: NewOp) {
  const id = world.nextOpId;
  return {
    world: { ...world, nextOpId: id + 1, ops: [...world.ops, { ...op, id } as KubeWorld['ops'][number]] }, // cast: op plus its id is one member of the ops union (TypeScript does not distribute the spread)
    opId: id,
    doneAt: op.doneAt,
  };
}

function begin(world0: KubeWorld, src: string, input: unknown, t: number) {
  let world = settle(world0, t);
  if (src === 'watchNext') {
    const { kinds, initial, wakeAt } = input as WatchNextInput; // cast: the input of the actor setup() names with this src (machines/kubernetes/machine.ts)
    if (initial || !world.informer) world = initialList(world, kinds, t);
    const inf = world.informer!;
    if (inf.pending.length > 0 || (wakeAt !== null && wakeAt <= t))
      return addOp(world, { kind: 'watch', doneAt: t, informer: inf.generation });
    const candidates = [
      t + world.params.heartbeatMs,
      inf.nextResyncAt,
      nextAgendaAt(world),
      wakeAt ?? undefined,
      world.wakeups.find((w) => w > t),
    ];
    const doneAt = Math.max(t, Math.min(...candidates.filter((c): c is number => c !== undefined)));
    return addOp(world, { kind: 'watch', doneAt, informer: inf.generation });
  }
  if (src === 'readCache') return addOp(world, { kind: 'read', doneAt: t, request: (input as ReadCacheInput).request }); // cast: the input of the actor setup() names with this src (machines/kubernetes/machine.ts)
  if (src === 'apiWrite')
    return addOp(world, { kind: 'write', doneAt: t + world.params.apiLatencyMs, batch: (input as ApiWriteInput).batch }); // cast: the input of the actor setup() names with this src (machines/kubernetes/machine.ts)
  throw new Error(`kubernetes world has no actor "${src}"`);
}

function complete(world0: KubeWorld, opId: number, t: number): { world: KubeWorld; result: OpResult } {
  let world = settle(world0, t);
  const op = world.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  world = { ...world, ops: world.ops.filter((o) => o.id !== opId) };
  if (op.kind === 'watch') {
    // The answer to a controller that has since restarted: it goes nowhere and takes nothing.
    if (world.informer?.generation !== op.informer) return { world, result: { ok: true, output: { now: t, events: [], resync: false } } };
    let resynced = false;
    if (world.informer && t >= world.informer.nextResyncAt) {
      world = resync(world, t);
      resynced = true;
    }
    const events = world.informer?.pending ?? [];
    if (world.informer) world = { ...world, informer: { ...world.informer, pending: [] } };
    const output: WatchNextOutput = { now: t, events, resync: resynced };
    return { world, result: { ok: true, output } };
  }
  if (op.kind === 'read') {
    const output: ReadCacheOutput = { now: t, view: viewOf(world, Object.values(world.informer?.cache ?? {}), t) };
    return { world, result: { ok: true, output } };
  }
  const results: WriteOutcome[] = [];
  for (const write of op.batch) {
    if (world.faults.failWrites > 0) {
      world = {
        ...world,
        faults: { ...world.faults, failWrites: world.faults.failWrites - 1 },
        counters: { ...world.counters, apiWrites: world.counters.apiWrites + 1 },
      };
      results.push({ write, error: 'InternalError: etcdserver: request timed out (injected)' });
      continue;
    }
    const r = applyWrite(world, write, t);
    world = r.world;
    results.push(outcomeOf(write, r.error));
  }
  const output: ApiWriteOutput = { now: t, results };
  return { world, result: { ok: true, output } };
}

export function findPod(world: KubeWorld, namespace: string, sel: PodSelector): KObject | undefined {
  if ('name' in sel) return world.store.objects[st.storeKey('Pod', namespace, sel.name)];
  return Object.values(world.store.objects)
    .filter(
      (o) =>
        o.kind === 'Pod' &&
        o.metadata.namespace === namespace &&
        o.metadata.labels.app === sel.app &&
        o.metadata.deletionTimestamp === undefined &&
        statusOf<PodStatus>(o).ready,
    )
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))[0];
}

function need(world: KubeWorld, key: string): KObject {
  const o = world.store.objects[key];
  if (!o) throw new Error(`no object ${key} in the cluster`);
  return o;
}

function mutate(world: KubeWorld, key: string, t: number, f: (o: KObject) => KObject): KubeWorld {
  const old = need(world, key);
  const r = st.mutate(world.store, key, f);
  if (r.error !== undefined) return world;
  return emit({ ...world, store: r.store }, [{ type: 'MODIFIED', object: r.object, old }], t);
}

function applyFault(world0: KubeWorld, fault: KubeFault, t: number): { world: KubeWorld; note: KubernetesNote } {
  // A crash changes nothing in the cluster (the stepper restarts the controller) but a request it loses on the wire.
  if (fault.kind === 'restartController') return crashController(world0, fault.write);
  const world = settle(world0, t);
  switch (fault.kind) {
    case 'apply': {
      const r = kubectlApply(world, fault.object, t);
      const what = `${fault.object.kind.toLowerCase()}/${fault.object.metadata.name}`;
      return {
        world: r.world,
        note: kubernetesNote('kubernetes.kubectl', { output: r.error ? `kubectl apply ${what}: ${r.error}` : `kubectl apply ${what}` }),
      };
    }
    case 'delete': {
      const r = deleteObject(world, st.storeKey(fault.objectKind, fault.namespace, fault.name), t);
      return {
        world: r.world,
        note: kubernetesNote('kubernetes.kubectl', {
          output: r.error ? `kubectl delete: ${r.error}` : `kubectl delete ${fault.objectKind.toLowerCase()}/${fault.name}`,
        }),
      };
    }
    case 'scale': {
      const o = world.store.objects[st.storeKey(fault.objectKind, fault.namespace, fault.name)];
      if (!o)
        return {
          world,
          note: kubernetesNote('kubernetes.kubectlNotFound', { command: 'kubectl scale', object: `${fault.objectKind} ${fault.name}` }),
        };
      const r = applyWrite(world, { verb: 'update', object: { ...o, spec: { ...o.spec, replicas: fault.replicas } } }, t);
      return {
        world: r.world,
        note: kubernetesNote('kubernetes.kubectl', {
          output: `kubectl scale ${fault.objectKind.toLowerCase()}/${fault.name} --replicas=${fault.replicas}`,
        }),
      };
    }
    case 'setImage': {
      const o = world.store.objects[st.storeKey('Deployment', fault.namespace, fault.name)];
      if (!o)
        return {
          world,
          note: kubernetesNote('kubernetes.kubectlNotFound', { command: 'kubectl set image', object: `deployment ${fault.name}` }),
        };
      const spec = o.spec as { template: { labels: Record<string, string>; containers: { image: string }[] } }; // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
      const template = { ...spec.template, containers: spec.template.containers.map((c) => ({ ...c, image: fault.image })) };
      const r = applyWrite(world, { verb: 'update', object: { ...o, spec: { ...o.spec, template } } }, t);
      return {
        world: r.world,
        note: kubernetesNote('kubernetes.kubectl', { output: `kubectl set image deployment/${fault.name} *=${fault.image}` }),
      };
    }
    case 'load':
      return {
        world: { ...world, load: { ...world.load, [fault.app]: fault.cpuMilli } },
        note: kubernetesNote('kubernetes.load', { app: fault.app, cpuMilli: fault.cpuMilli }),
      };
    case 'queue': {
      const queues = world.queues.map((q): MessageQueue => (q.name === fault.queue ? { ...q, arrivalsPerSec: fault.arrivalsPerSec } : q));
      return {
        world: { ...world, queues },
        note: kubernetesNote('kubernetes.queueRate', { queue: fault.queue, perSecond: fault.arrivalsPerSec }),
      };
    }
    case 'crashPod': {
      const pod = findPod(world, fault.namespace, fault.pod);
      if (!pod) return { world, note: kubernetesNote('kubernetes.noSuchPod', { action: 'crash', pod: JSON.stringify(fault.pod) }) };
      const key = st.storeKeyOf(pod);
      const restarts = statusOf<PodStatus>(pod).restarts + 1;
      let w = mutate(world, key, t, (o) => ({ ...o, status: { ...o.status, ready: false, restarts } }));
      const backoff = Math.min(world.params.crashBackoffMs * 2 ** (restarts - 1), 300_000);
      w = schedule(w, { at: t + backoff, kind: 'kubeletReady', pod: key });
      w = recordEvent(w, {
        t,
        type: 'Warning',
        object: `pod/${pod.metadata.name}`,
        reason: 'BackOff',
        message: `container crashed; restarting in ${backoff / 1000}s`,
      });
      return {
        world: w,
        note: kubernetesNote('kubernetes.podCrashed', { pod: pod.metadata.name ?? '', restarts, backoffSeconds: backoff / 1000 }),
      };
    }
    case 'deletePod': {
      const pod = findPod(world, fault.namespace, fault.pod);
      if (!pod) return { world, note: kubernetesNote('kubernetes.noSuchPod', { action: 'delete', pod: JSON.stringify(fault.pod) }) };
      const r = deleteObject(world, st.storeKeyOf(pod), t);
      return {
        world: r.world,
        note: kubernetesNote('kubernetes.kubectl', { output: r.error ?? `kubectl delete pod/${pod.metadata.name}` }),
      };
    }
    case 'nodeFail': {
      let w = mutate(world, st.storeKey('Node', '', fault.node), t, (o) => ({ ...o, status: { ...o.status, ready: false } }));
      w = schedule(w, { at: t + w.params.nodeMonitorGraceMs, kind: 'nodeNotReady', node: fault.node });
      return { world: w, note: kubernetesNote('kubernetes.nodeFailed', { node: fault.node }) };
    }
    case 'nodeRecover': {
      const back = mutate(world, st.storeKey('Node', '', fault.node), t, (o) => ({ ...o, status: { ...o.status, ready: true } }));
      return { world: kubeletResync(back, fault.node, t), note: kubernetesNote('kubernetes.nodeBack', { node: fault.node }) };
    }
    case 'delayWatch':
      return {
        world: {
          ...world,
          faults: {
            ...world.faults,
            delays: [...world.faults.delays, { kind: fault.objectKind, extraMs: fault.extraMs, until: t + fault.forMs }],
          },
        },
        note: kubernetesNote('kubernetes.watchDelayed', {
          kind: fault.objectKind ?? null,
          bySeconds: fault.extraMs / 1000,
          forSeconds: fault.forMs / 1000,
        }),
      };
    case 'dropWatch':
      return {
        world: { ...world, faults: { ...world.faults, drops: [...world.faults.drops, { kind: fault.objectKind, count: fault.count }] } },
        note: kubernetesNote('kubernetes.watchDropped', { count: fault.count, kind: fault.objectKind ?? null }),
      };
    case 'reorderWatch':
      return {
        world: { ...world, faults: { ...world.faults, reorder: { count: fault.count, maxMs: fault.maxMs } } },
        note: kubernetesNote('kubernetes.watchReordered', { count: fault.count, maxMs: fault.maxMs }),
      };
    case 'failWrites':
      return {
        world: { ...world, faults: { ...world.faults, failWrites: world.faults.failWrites + fault.count } },
        note: kubernetesNote('kubernetes.writesFail', { count: fault.count }),
      };
  }
}

/** Whether a write is on the wire: sent and not yet answered (a crash now is a crash mid-write). */
export const writeOnTheWire = (world: KubeWorld): boolean => world.ops.some((op) => op.kind === 'write' && op.batch.length > 0);

/** A write that was on the wire when the process died and never reached the API server: its batch is gone (the op still ends, answering nobody). */
function crashController(world: KubeWorld, write: 'lands' | 'lost' | undefined): { world: KubeWorld; note: KubernetesNote } {
  const onTheWire = writeOnTheWire(world);
  if (write !== 'lost' || !onTheWire)
    return {
      world,
      note: kubernetesNote(write === 'lands' && onTheWire ? 'kubernetes.crashWriteLands' : 'kubernetes.controllerRestart', {}),
    };
  return {
    world: { ...world, ops: world.ops.map((op) => (op.kind === 'write' ? { ...op, batch: [] } : op)) },
    note: kubernetesNote('kubernetes.crashWriteLost', {}),
  };
}

/**
 * A change from outside (kubectl, a fault) reaches the watch as soon as its events are due, not at
 * the watch's heartbeat: an informer's watch is pushed to, it does not poll. A waiting watch whose
 * news now comes earlier is brought forward (in a scenario run the timeline's wakeups already end
 * it at the change, so nothing moves there; the explorer and the lab's interventions need this).
 */
function inject(world0: KubeWorld, fault: KubeFault, t: number) {
  const { world, note } = applyFault(world0, fault, t);
  const news = nextAgendaAt(world);
  const retime: { opId: number; at: number }[] = [];
  const ops = world.ops.map((op) => {
    if (op.kind !== 'watch' || op.informer !== world.informer?.generation || news === undefined) return op;
    const at = Math.max(t, news);
    if (at >= op.doneAt) return op;
    retime.push({ opId: op.id, at });
    return { ...op, doneAt: at };
  });
  return retime.length ? { world: { ...world, ops }, note, retime } : { world, note };
}

export const kubeWorldModel: WorldModel<KubeWorld, KubeFault, KubeSummary> = {
  begin,
  complete,
  inject,
  summary: (world, t) => kubeSummary(settle(world, t), t),
};
