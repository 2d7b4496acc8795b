import type {
  ControllerConfig,
  ControllerContext,
  KObject,
  NewObject,
  Plan,
  WatchEvent,
  Write,
  WriteOutcome,
} from '../../../machines/kubernetes';
import { patchPrecondition, specOf } from '../../../machines/kubernetes';
import type { Expectations } from '../../../machines/kubernetes/expectations';
import { EXPECTATIONS_TIMEOUT_MS } from '../../../machines/kubernetes/expectations';
import type { HpaMemory, HpaSpec } from '../../../machines/kubernetes/hpa/reconciler';
import { METRIC_WINDOW_MS, hpaOptionsOf } from '../../../machines/kubernetes/hpa/reconciler';
import { DB_FAILOVER_AFTER_MS } from '../../../machines/kubernetes/reconcilers/database';
import type { QueueScalerSpec } from '../../../machines/kubernetes/reconcilers/queue-scaler';
import type { WorkQueue } from '../../../machines/kubernetes/workqueue';
import { opPositions, writeQueue } from '../../check/queue-key';
import type { KeyWriter } from '../../check/key-writer';
import type { AgendaItem, KubeWorld } from '../../worlds/kubernetes';
import { worldAt } from './view';
import { idempotenceKey } from './idempotence';
import type { CheckState } from '../../check/model';

type State = CheckState<KubeWorld, ControllerConfig, ControllerContext>;

/** The HPA's downscale stabilisation without `behavior` (horizontal.go, 5 min). */
const HPA_DOWNSCALE_WINDOW_MS = 300_000;
/** The longest default scaling-policy period (autoscaling/v2 defaults: 15 s). */
const HPA_DEFAULT_PERIOD_MS = 15_000;

const num = (uid: string) => Number(uid.slice(uid.lastIndexOf('-') + 1));

/** Objects are immutable and shared between states: their rank-free parts are built once. */
const staticParts = new WeakMap<object, string>();
function memo(o: object, build: () => string): string {
  let hit = staticParts.get(o);
  if (hit === undefined) {
    hit = build();
    staticParts.set(o, hit);
  }
  return hit;
}
const metaSpec = (o: KObject) =>
  memo(
    o.metadata,
    () => `${JSON.stringify(o.metadata.labels)}${JSON.stringify(o.metadata.annotations)}[${o.metadata.finalizers.join(',')}]`,
  ) + memo(o.spec, () => JSON.stringify(o.spec));
const byTime = (a: { at: number; seq: number }, b: { at: number; seq: number }) => a.at - b.at || a.seq - b.seq;

/** Ranks of values that are only ever compared with each other (equality or order). */
class Ranks {
  private readonly seen = new Set<number>();
  private map: Map<number, number> | null = null;
  add(v: number | undefined): void {
    if (v !== undefined) this.seen.add(v);
  }
  of(v: number): number {
    if (!this.map) this.map = new Map([...this.seen].sort((a, b) => a - b).map((x, i) => [x, i]));
    return this.map.get(v)!;
  }
}

/** Every object the state holds: the store, the informer's cache and pending events, deliveries
 * on the way, and the writes in flight or planned. */
function objectsIn(world: KubeWorld, ctx: ControllerContext): { objects: KObject[]; creates: NewObject[] } {
  const objects: KObject[] = [...Object.values(world.store.objects)];
  const creates: NewObject[] = [];
  const event = (e: WatchEvent) => {
    objects.push(e.object);
    if (e.old) objects.push(e.old);
  };
  const write = (w: Write) => {
    if (w.verb === 'create') creates.push(w.object);
    else if (w.verb === 'update' || w.verb === 'updateStatus') objects.push(w.object);
  };
  if (world.informer) {
    objects.push(...Object.values(world.informer.cache));
    world.informer.pending.forEach(event);
  }
  for (const a of world.agenda) if (a.kind === 'deliver') event(a.event);
  for (const op of world.ops) if (op.kind === 'write') op.batch.forEach(write);
  ctx.plan?.batches.forEach((b) => b.forEach(write));
  ctx.writes.forEach((o) => write(o.write));
  return { objects, creates };
}

/**
 * The canonical key of a Kubernetes state: everything its future depends on, nothing else.
 * - The world is settled to now first (agenda items already due are applied), as every step does.
 * - uids, resourceVersions and creation/readiness times are only compared with each other (equal,
 *   older, newer) and new ones are always larger: they become ranks; a time equal to now is marked
 *   (a later write at this instant ties with it). deletionTimestamp is only tested for presence.
 * - Times the future subtracts become relative to now and are capped where they stop mattering:
 *   expectations (ExpectationsTimeout), a Database's primaryUnreadySince (failoverAfter), a
 *   QueueScaler's lastScaleUp (scaleDownDelay), HPA recommendations and scale events (their windows).
 * - Dropped: what only notes and the trace show (events, counters, summaries,
 *   lastEvents/lastResult, the cache view of the last reconcile, error texts beyond their reason),
 *   sequence numbers and ids (kept as order), settled queue times, expired faults and wakeups.
 */
export function kubernetesKey(state: State, out: KeyWriter, failoverAfterMs = DB_FAILOVER_AFTER_MS): void {
  const { t } = state;
  const world = worldAt(state);
  const ctx = state.snapshot.context;
  const { objects, creates } = objectsIn(world, ctx);
  const uids = new Ranks();
  const rvs = new Ranks();
  const created = new Ranks();
  const ready = new Ranks();
  for (const o of objects) {
    uids.add(num(o.metadata.uid));
    rvs.add(o.metadata.resourceVersion);
    created.add(o.metadata.creationTimestamp);
    if (o.kind === 'Pod') ready.add((o.status as { readySince?: number }).readySince); // cast: unchecked: the model's Pods keep readySince in status
    for (const r of o.metadata.ownerReferences) uids.add(num(r.uid));
  }
  for (const c of creates) for (const r of c.metadata.ownerReferences ?? []) uids.add(num(r.uid));
  const time = (ranks: Ranks, v: number) => `${ranks.of(v)}${v === t ? '=' : ''}`;
  const age = (at: number, cap: number) => Math.min(t - at, cap);
  // The HPA's groupPods reads pod ages (CPU initialisation period, readiness delay, the metric
  // window since readiness) and the world's warm-up load reads the age since creation: relative,
  // capped where they stop mattering.
  // (The metric-window rule only applies inside the initialisation period.)
  const hpaAgeCap = ctx.config.reconciler === 'hpa' ? hpaAgeCapOf(ctx.config.options, world) : 0;
  const windowRule = hpaAgeCap > 0 && hpaOptionsOf(ctx.config.options).cpuInitializationPeriodMs > 0;
  const hpaAges = (o: KObject, readySince: number | undefined) =>
    hpaAgeCap === 0
      ? ''
      : `a${age(o.metadata.creationTimestamp, hpaAgeCap)}${readySince === undefined || !windowRule ? '' : `q${age(readySince, METRIC_WINDOW_MS + 1)}`}`;
  const owners = (refs: NewObject['metadata']['ownerReferences']) =>
    (refs ?? []).map((r) => `${r.kind}:${r.name}:${uids.of(num(r.uid))}:${r.controller ? 1 : 0}`).join(',');

  const status = (o: KObject): string => {
    const s = o.status as Record<string, unknown>; // cast: unchecked: the model's statuses are records
    switch (o.kind) {
      case 'Pod': {
        const { readySince } = s as { readySince?: number }; // cast: only an optional field, read to drop it
        return `${memo(s, () => JSON.stringify({ ...s, readySince: undefined }))}${readySince === undefined ? '' : `r${time(ready, readySince)}`}${hpaAges(o, readySince)}`;
      }
      case 'Database': {
        const { primaryUnreadySince, ...rest } = s as { primaryUnreadySince?: number }; // cast: only an optional field, read to drop it
        return `${JSON.stringify(rest)}${primaryUnreadySince === undefined ? '' : `u${age(primaryUnreadySince, failoverAfterMs)}`}`;
      }
      case 'QueueScaler': {
        const { lastScaleUp, ...rest } = s as { lastScaleUp?: number }; // cast: only an optional field, read to drop it
        const delay = specOf<QueueScalerSpec>(o).scaleDownDelaySeconds * 1000;
        return `${JSON.stringify(rest)}${lastScaleUp === undefined ? '' : `l${age(lastScaleUp, delay)}`}`;
      }
      case 'HorizontalPodAutoscaler': {
        // lastScaleTime is carried forward for display only: whether it is set is all that matters.
        const { lastScaleTime, ...rest } = s as { lastScaleTime?: number }; // cast: only an optional field, read to drop it
        return `${JSON.stringify(rest)}${lastScaleTime === undefined ? '' : 's'}`;
      }
      default:
        return memo(s, () => JSON.stringify(s));
    }
  };
  const objectKey = (o: KObject): string => {
    const m = o.metadata;
    return (
      `${o.kind}/${m.namespace}/${m.name}#${uids.of(num(m.uid))}v${rvs.of(m.resourceVersion)}g${m.generation}c${time(created, m.creationTimestamp)}` +
      `${m.deletionTimestamp === undefined ? '' : 'D'}[${owners(m.ownerReferences)}]${metaSpec(o)}${status(o)}`
    );
  };
  const writeKey = (w: Write): string => {
    switch (w.verb) {
      case 'create': {
        const m = w.object.metadata;
        return `C${w.object.kind}/${m.namespace}/${m.name ?? `${m.generateName}*`}${JSON.stringify(m.labels ?? {})}${JSON.stringify(m.annotations ?? {})}[${owners(m.ownerReferences)}][${(m.finalizers ?? []).join(',')}]${JSON.stringify(w.object.spec)}${JSON.stringify(w.object.status ?? {})}${w.tolerate?.join(',') ?? ''}`;
      }
      case 'update':
        return `U${objectKey(w.object)}`;
      case 'updateStatus':
        return `S${w.retryOnConflict ? 'r' : ''}${objectKey(w.object)}`;
      case 'delete':
        return `D${w.kind}/${w.namespace}/${w.name}${w.tolerate?.join(',') ?? ''}`;
      case 'patch': {
        // An optimistic-lock patch's resourceVersion only meets the object's: equal now or stale for good.
        const rv = patchPrecondition(w.patch);
        const lock =
          rv === undefined ? '' : world.store.objects[`${w.kind}/${w.namespace}/${w.name}`]?.metadata.resourceVersion === rv ? '=' : '≠';
        const { metadata, ...rest } = w.patch;
        const meta = typeof metadata === 'object' && metadata !== null ? { ...metadata, resourceVersion: undefined } : metadata;
        return `M${w.status ? 's' : ''}${w.kind}/${w.namespace}/${w.name}${lock}${JSON.stringify({ ...rest, metadata: meta })}`;
      }
      case 'scale':
        return `R${w.kind}/${w.namespace}/${w.name}=${w.replicas}`;
      // An Event only lands in the (dropped) event log, but it is a write: it meets failWrites.
      case 'event':
        return 'E';
    }
  };
  // Only an error's reason is ever read (tolerate lists, "did it fail"); the text is for notes.
  const outcomeKey = (o: WriteOutcome) =>
    `${writeKey(o.write)}${o.error !== undefined ? `!${o.error.split(':')[0]}` : ''}${o.tolerated !== undefined ? '~' : ''}`;
  const eventKey = (e: WatchEvent) => `${e.type}:${objectKey(e.object)}${e.old ? `<${objectKey(e.old)}` : ''}`;
  const resultKey = (r: Plan['outcome'] | null) =>
    r === null ? '-' : r.kind === 'ok' ? `ok${r.requeue ? 'r' : ''}${r.requeueAfterMs ?? ''}` : r.kind;

  const parts: string[] = [];
  // ---- the controller
  parts.push(`${JSON.stringify(state.snapshot.value)}|${Object.keys(state.snapshot.children).join(',')}`);
  // context.now is always overwritten by the next answer before it is read (decide, recordBatch): dead.
  parts.push(`${ctx.synced ? 1 : 0}|${ctx.current ?? ''}|${ctx.batchIndex}|${resultKey(ctx.outcome)}`);
  parts.push(workQueueKey(ctx.queue, t));
  parts.push(memoryKey(ctx.config.reconciler, ctx.memory, world, t));
  if (ctx.plan) parts.push(`P${resultKey(ctx.plan.outcome)}${ctx.plan.batches.map((b) => b.map(writeKey).join(';')).join('||')}`);
  parts.push(`W${ctx.writes.map(outcomeKey).join(';')}`);
  // ---- the world
  parts.push(JSON.stringify(world.rng));
  for (const key of Object.keys(world.store.objects).sort()) parts.push(objectKey(world.store.objects[key]!));
  parts.push('agenda');
  for (const a of [...world.agenda].sort(byTime)) parts.push(agendaKey(a, t, eventKey));
  const inf = world.informer;
  if (inf) {
    parts.push(`informer ${inf.kinds.join(',')} resync ${inf.nextResyncAt - t}`);
    // Deliveries are never earlier than now + the watch delay: an older per-kind mark is dead.
    const marks = Object.entries(inf.lastDeliverAt)
      .filter(([, at]) => at - t > world.params.watchDelayMs)
      .sort();
    parts.push(marks.map(([k, at]) => `${k}@${at - t}`).join(','));
    for (const key of Object.keys(inf.cache).sort()) parts.push(`c${objectKey(inf.cache[key]!)}`);
    for (const e of inf.pending) parts.push(`p${eventKey(e)}`);
  } else parts.push('no informer');
  world.ops.forEach((op) => {
    const what =
      op.kind === 'watch'
        ? `${op.informer === inf?.generation ? 'current' : 'stale'}`
        : op.kind === 'read'
          ? op.request
          : op.batch.map(writeKey).join(';');
    parts.push(`op ${op.kind}@${op.doneAt - t} ${what}`);
  });
  const f = world.faults;
  parts.push(
    `faults ${f.delays
      .filter((d) => d.until > t)
      .map((d) => `${d.kind}+${d.extraMs}<${d.until - t}`)
      .join(',')}` +
      `|${f.drops
        .filter((d) => d.count > 0)
        .map((d) => `${d.kind}x${d.count}`)
        .join(',')}|${f.reorder.count > 0 ? `${f.reorder.count}x${f.reorder.maxMs}` : ''}|${f.failWrites}`,
  );
  parts.push(`load ${JSON.stringify(world.load)}`);
  for (const q of world.queues)
    parts.push(`queue ${q.name} ${q.length} ${q.arrivalsPerSec} ${q.perWorkerPerSec} ${JSON.stringify(q.workerSelector)}`);
  parts.push(
    `wake ${world.wakeups
      .filter((w) => w > t)
      .map((w) => w - t)
      .join(',')}`,
  );
  parts.push(
    `gc ${Object.keys(world.collected)
      .filter((k) => world.collected[k]! > 0)
      .sort()
      .join(',')}`,
  );
  for (const b of world.builtins) parts.push(`builtin ${b} ${memoryKey(b, world.builtinMemory[b], world, t)}`);
  // A user's controller: the key whose next reconcile of this very state idempotence judges.
  if (world.idempotence) parts.push(idempotenceKey(world));
  // ---- what is queued to happen
  out.str(parts.join('\n'));
  writeQueue(state, out, opPositions(world.ops));
}

function agendaKey(a: AgendaItem, t: number, eventKey: (e: WatchEvent) => string): string {
  const at = a.at - t;
  switch (a.kind) {
    case 'deliver':
      return `${at} deliver ${eventKey(a.event)}`;
    case 'bindVolume':
      return `${at} bind ${a.claim}`;
    case 'nodeNotReady':
    case 'evict':
      return `${at} ${a.kind} ${a.node}`;
    case 'builtin':
      return `${at} builtin ${a.controller} ${a.key}`;
    default:
      return `${at} ${a.kind} ${a.pod}`;
  }
}

/** The workqueue: order, dirty, processing, delays relative to now; the token bucket as it is now. */
function workQueueKey(q: WorkQueue, t: number): string {
  const waiting = q.waiting
    .map((w) => `${w.key}@${w.readyAt - t}`)
    .sort()
    .join(',');
  const failures = Object.entries(q.failures)
    .map(([k, n]) => `${k}:${n}`)
    .sort()
    .join(',');
  const b = q.limiter.bucket;
  const full = !b || q.bucket.tokens + ((t - q.bucket.last) / 1000) * b.qps >= b.burst;
  // The priority queue: each item's priority and whether it was delayed (a ready item that was
  // delayed stays behind every undelayed one); hand-out order is `queue`, waiting times are `waiting`.
  const pq = Object.entries(q.items)
    .map(([k, it]) => `${k}:${it.priority}${it.readyAt === null ? '' : 'd'}`)
    .sort()
    .join(',');
  const handed = Object.entries(q.handedOut)
    .map(([k, p]) => `${k}:${p}`)
    .sort()
    .join(',');
  return `q${q.queue.join(',')}|${q.dirty.join(',')}|${q.processing.join(',')}|${waiting}|${failures}|${full ? 'full' : `${q.bucket.tokens}@${t - q.bucket.last}`}|${pq}|${handed}`;
}

/** A reconciler's memory: expectations (fulfilled ones are as good as none), HPA windows. */
function memoryKey(reconciler: string, memory: unknown, world: KubeWorld, t: number): string {
  if (reconciler === 'replicaset') {
    const exp = (memory as { expectations: Expectations }).expectations; // cast: unchecked: the replicaset reconciler's memory, by its name
    return Object.entries(exp)
      .filter(([, e]) => e.add > 0 || e.del > 0)
      .map(
        ([k, e]) =>
          `${k}:${Math.max(e.add, 0)}:${e.deleteKeys.slice().sort().join('+')}:${Math.min(t - e.timestamp, EXPECTATIONS_TIMEOUT_MS + 1)}`,
      )
      .sort()
      .join(',');
  }
  if (reconciler === 'hpa') {
    const { recWindow, eventWindow, behavior } = hpaWindows(world);
    return Object.entries(memory as HpaMemory) // cast: unchecked: the hpa reconciler's memory, by its name
      .map(([k, e]) => {
        // cast: unchecked: the hpa reconciler's memory, by its name
        let live = e.recommendations.filter((r) => t - r.at <= recWindow).sort((a, b) => b.at - a.at);
        // Without behavior only the window's maximum is read: a recommendation is dead once a newer
        // one is at least as high (it leaves the window later).
        if (!behavior) live = live.filter((r, i) => live.slice(0, i).every((n) => n.replicas < r.replicas));
        const recs = live.map((r) => `${t - r.at}:${r.replicas}`);
        const ev = (list: { at: number; change: number }[]) =>
          list
            .filter((x) => t - x.at < eventWindow)
            .map((x) => `${t - x.at}:${x.change}`)
            .sort();
        return `${k}[${recs.join(',')}][${ev(e.upEvents).join(',')}][${ev(e.downEvents).join(',')}]`;
      })
      .sort()
      .join(',');
  }
  return memory === null || memory === undefined ? '' : JSON.stringify(memory);
}

/** Past this age nothing about a pod changes for the HPA: its readiness rules and any warm-up load. */
function hpaAgeCapOf(options: Record<string, unknown>, world: KubeWorld): number {
  const o = hpaOptionsOf(options);
  const warmUps = Object.values(world.startupLoad ?? {}).map((w) => w.forMs);
  return Math.max(o.cpuInitializationPeriodMs, o.initialReadinessDelayMs, ...warmUps) + 1;
}

/** How far back an HPA looks: its stabilisation windows and its scaling-policy periods. */
function hpaWindows(world: KubeWorld): { recWindow: number; eventWindow: number; behavior: boolean } {
  let recWindow = HPA_DOWNSCALE_WINDOW_MS;
  let eventWindow = HPA_DEFAULT_PERIOD_MS;
  let behavior = false;
  const hpas = [...Object.values(world.store.objects), ...Object.values(world.informer?.cache ?? {})].filter(
    (o) => o.kind === 'HorizontalPodAutoscaler',
  );
  for (const h of hpas) {
    const b = specOf<HpaSpec>(h).behavior;
    if (b) behavior = true;
    for (const rules of [b?.scaleUp, b?.scaleDown]) {
      recWindow = Math.max(recWindow, (rules?.stabilizationWindowSeconds ?? 0) * 1000);
      for (const p of rules?.policies ?? []) eventWindow = Math.max(eventWindow, p.periodSeconds * 1000);
    }
  }
  return { recWindow, eventWindow, behavior };
}
