import type {
  ControllerConfig,
  ControllerContext,
  KObject,
  NewObject,
  ObjectMeta,
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
import { HashKeyWriter } from '../../check/key-writer';
import { present, writeData, writeRecord } from '../../check/data-key';
import { writeSnapshot } from '../../check/snapshot-key';
import type { AgendaItem, KubeWorld } from '../../worlds/kubernetes';
import { store as st } from '../../worlds/kubernetes';
import { worldAt } from './view';
import { objectsOfKind } from '../../worlds/kubernetes/store-index';
import { idempotenceKey } from './idempotence';
import type { CheckState } from '../../check/model';

type State = CheckState<KubeWorld, ControllerConfig, ControllerContext>;

/** The HPA's downscale stabilisation without `behavior` (horizontal.go, 5 min). */
const HPA_DOWNSCALE_WINDOW_MS = 300_000;
/** The longest default scaling-policy period (autoscaling/v2 defaults: 15 s). */
const HPA_DEFAULT_PERIOD_MS = 15_000;

/** A uid's sequence number (uids are `uid-<n>`, sim/worlds/kubernetes/store.ts), kept by uid: a search meets few. */
const uidNumbers = new Map<string, number>();
function num(uid: string): number {
  let n = uidNumbers.get(uid);
  if (n === undefined) {
    n = Number(uid.slice(uid.lastIndexOf('-') + 1));
    if (uidNumbers.size >= 1 << 16) uidNumbers.clear();
    uidNumbers.set(uid, n);
  }
  return n;
}

/** A record's keys in order, kept by record: the store's and the cache's records are shared by many states. */
const sortedKeyLists = new WeakMap<object, string[]>();
function sortedKeys(record: Record<string, unknown>): string[] {
  let keys = sortedKeyLists.get(record);
  if (keys === undefined) {
    keys = Object.keys(record).sort();
    sortedKeyLists.set(record, keys);
  }
  return keys;
}

/**
 * Objects are immutable and shared between states: the parts of their key that are a function of
 * the object alone (no rank, no time, nothing else of the state) are written once into a private
 * hasher and kept as its 64-bit digest, by object identity. The digest is of the content, so two
 * workers, or a resumed search, write the same words for equal objects. One cache per kind of part:
 * an object that were ever two kinds of part at once would get the right digest for each.
 */
class Digests<T extends object> {
  private readonly cache = new WeakMap<T, Uint32Array>();
  private readonly writer = new HashKeyWriter();
  /** `inText`: a text key (tests, the symmetry ceiling) gets the fields themselves, not their digest. */
  constructor(
    private readonly fields: (o: T, key: KeyWriter) => void,
    private readonly inText = false,
  ) {}

  write(o: T, key: KeyWriter): void {
    if (this.inText && !(key instanceof HashKeyWriter)) return this.fields(o, key);
    let d = this.cache.get(o);
    if (d === undefined) {
      d = new Uint32Array(2);
      this.writer.reset();
      this.fields(o, this.writer);
      this.writer.digest(d);
      this.cache.set(o, d);
    }
    key.num(d[0]!);
    key.num(d[1]!);
  }
}

/** A record as JSON.stringify writes it without the member `omit` (written as `{ ...r, [omit]: undefined }` would be). */
function writeWithout(record: Record<string, unknown>, omit: string, key: KeyWriter): void {
  writeRecord(record, key, (v) => writeData(v, key), { omit });
}

const metaDigests = new Digests<ObjectMeta>((m, key) => {
  writeData(m.labels, key);
  writeData(m.annotations, key);
  key.list(m.finalizers.length);
  for (const f of m.finalizers) key.str(f);
});
const dataDigests = new Digests<object>((o, key) => writeData(o, key));
/** A Pod's status without readySince (a rank and an age of the state), and the like for the other kinds' times. */
const podStatusDigests = new Digests<Record<string, unknown>>((s, key) => writeWithout(s, 'readySince', key));
const databaseStatusDigests = new Digests<Record<string, unknown>>((s, key) => writeWithout(s, 'primaryUnreadySince', key));
const queueScalerStatusDigests = new Digests<Record<string, unknown>>((s, key) => writeWithout(s, 'lastScaleUp', key));
const hpaStatusDigests = new Digests<Record<string, unknown>>((s, key) => writeWithout(s, 'lastScaleTime', key));
/** What a create sends besides its name and owners (the owners' uids are ranks of the state). */
const createDigests = new Digests<NewObject>((o, key) => {
  const m = o.metadata;
  writeData(m.labels ?? {}, key);
  writeData(m.annotations ?? {}, key);
  writeData(m.finalizers ?? [], key);
  writeData(o.spec, key);
  writeData(o.status ?? {}, key);
});
/** A patch without its metadata.resourceVersion (whether it still meets the object's is of the state). */
const patchDigests = new Digests<Record<string, unknown>>((patch, key) => {
  const { metadata } = patch;
  let n = present(metadata) ? 1 : 0;
  for (const name in patch) if (name !== 'metadata' && present(patch[name])) n++;
  key.list(-1 - n);
  for (const name in patch) {
    const v = patch[name];
    if (name === 'metadata' || !present(v)) continue;
    key.str(name);
    writeData(v, key);
  }
  if (!present(metadata)) return;
  key.str('metadata');
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    writeWithout(metadata as Record<string, unknown>, 'resourceVersion', key); // cast: a non-null, non-array object: a record
  } else writeData(metadata, key);
});

/** An object's status without its times (the key writes those relative to the state: objectKey). */
function statusDigest(o: KObject, key: KeyWriter): void {
  const s = o.status as Record<string, unknown>; // cast: unchecked: the model's statuses are records
  switch (o.kind) {
    case 'Pod':
      return podStatusDigests.write(s, key);
    case 'Database':
      return databaseStatusDigests.write(s, key);
    case 'QueueScaler':
      return queueScalerStatusDigests.write(s, key);
    case 'HorizontalPodAutoscaler':
      return hpaStatusDigests.write(s, key);
    default:
      return dataDigests.write(s, key);
  }
}

/**
 * What an object's key holds of the object alone: nothing ranked against the rest of the state (uids,
 * resourceVersions, times), so it is written once per object. Names (and kinds, namespaces) are
 * strings here, so a text key shows them: the symmetry ceiling (test/check/symmetry-ceiling.ts)
 * erases generated names from the key's text.
 */
const objectDigests = new Digests<KObject>((o, key) => {
  const m = o.metadata;
  key.str(o.kind);
  key.str(m.namespace);
  key.str(m.name);
  key.num(m.generation);
  key.flag(m.deletionTimestamp !== undefined);
  key.list(m.ownerReferences.length);
  for (const r of m.ownerReferences) {
    key.str(r.kind);
    key.str(r.name);
    key.flag(r.controller);
  }
  metaDigests.write(m, key);
  dataDigests.write(o.spec, key);
  statusDigest(o, key);
}, true);

const byTime = (a: { at: number; seq: number }, b: { at: number; seq: number }) => a.at - b.at || a.seq - b.seq;
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Ranks of values that are only ever compared with each other (equality or order). */
class Ranks {
  private readonly values: number[] = [];
  private sorted = false;
  add(v: number | undefined): void {
    if (v !== undefined && v === v) this.values.push(v);
  }
  /** The value's rank among the distinct values added (NaN, never ranked, for NaN). */
  of(v: number): number {
    const a = this.values;
    if (!this.sorted) {
      a.sort((x, y) => x - y);
      let n = 0;
      for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[n - 1]) a[n++] = a[i]!;
      a.length = n;
      this.sorted = true;
    }
    let lo = 0;
    let hi = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = a[mid]!;
      if (x === v) return mid;
      if (x < v) lo = mid + 1;
      else hi = mid - 1;
    }
    return Number.NaN;
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
  const time = (ranks: Ranks, v: number) => {
    out.num(ranks.of(v));
    out.flag(v === t);
  };
  const age = (at: number, cap: number) => Math.min(t - at, cap);
  // The HPA's groupPods reads pod ages (CPU initialisation period, readiness delay, the metric
  // window since readiness) and the world's warm-up load reads the age since creation: relative,
  // capped where they stop mattering.
  // (The metric-window rule only applies inside the initialisation period.)
  const hpaAgeCap = ctx.config.reconciler === 'hpa' ? hpaAgeCapOf(ctx.config.options, world) : 0;
  const windowRule = hpaAgeCap > 0 && hpaOptionsOf(ctx.config.options).cpuInitializationPeriodMs > 0;
  const hpaAges = (o: KObject, readySince: number | undefined) => {
    out.flag(hpaAgeCap > 0);
    if (hpaAgeCap === 0) return;
    out.num(age(o.metadata.creationTimestamp, hpaAgeCap));
    const window = readySince !== undefined && windowRule;
    out.flag(window);
    if (window) out.num(age(readySince, METRIC_WINDOW_MS + 1));
  };
  const owners = (refs: NewObject['metadata']['ownerReferences']) => {
    out.list(refs?.length ?? 0);
    for (const r of refs ?? []) {
      out.str(r.kind);
      out.str(r.name);
      out.num(uids.of(num(r.uid)));
      out.flag(r.controller);
    }
  };

  // A status's times, relative to the state (the rest of the status is in the object's digest).
  const statusTimes = (o: KObject): void => {
    const s = o.status as Record<string, unknown>; // cast: unchecked: the model's statuses are records
    switch (o.kind) {
      case 'Pod': {
        const { readySince } = s as { readySince?: number }; // cast: only an optional field, read to drop it
        out.flag(readySince !== undefined);
        if (readySince !== undefined) time(ready, readySince);
        return hpaAges(o, readySince);
      }
      case 'Database': {
        const { primaryUnreadySince } = s as { primaryUnreadySince?: number }; // cast: only an optional field, read to drop it
        out.flag(primaryUnreadySince !== undefined);
        if (primaryUnreadySince !== undefined) out.num(age(primaryUnreadySince, failoverAfterMs));
        return;
      }
      case 'QueueScaler': {
        const { lastScaleUp } = s as { lastScaleUp?: number }; // cast: only an optional field, read to drop it
        out.flag(lastScaleUp !== undefined);
        if (lastScaleUp !== undefined) out.num(age(lastScaleUp, specOf<QueueScalerSpec>(o).scaleDownDelaySeconds * 1000));
        return;
      }
      case 'HorizontalPodAutoscaler':
        // lastScaleTime is carried forward for display only: whether it is set is all that matters.
        out.flag((s as { lastScaleTime?: number }).lastScaleTime !== undefined); // cast: only an optional field, read for its presence
        return;
    }
  };
  const objectKey = (o: KObject): void => {
    const m = o.metadata;
    objectDigests.write(o, out);
    out.num(uids.of(num(m.uid)));
    out.num(rvs.of(m.resourceVersion));
    time(created, m.creationTimestamp);
    for (const r of m.ownerReferences) out.num(uids.of(num(r.uid)));
    statusTimes(o);
  };
  const tolerate = (reasons: string[] | undefined) => {
    out.list(reasons?.length ?? 0);
    for (const r of reasons ?? []) out.str(r);
  };
  const writeKey = (w: Write): void => {
    out.str(w.verb);
    switch (w.verb) {
      case 'create': {
        const m = w.object.metadata;
        out.str(w.object.kind);
        out.str(m.namespace);
        out.flag(m.name !== undefined);
        if (m.name !== undefined) out.str(m.name);
        else {
          out.flag(m.generateName !== undefined);
          if (m.generateName !== undefined) out.str(m.generateName);
        }
        owners(m.ownerReferences);
        createDigests.write(w.object, out);
        return tolerate(w.tolerate);
      }
      case 'update':
        return objectKey(w.object);
      case 'updateStatus':
        out.flag(w.retryOnConflict === true);
        return objectKey(w.object);
      case 'delete':
        out.str(w.kind);
        out.str(w.namespace);
        out.str(w.name);
        return tolerate(w.tolerate);
      case 'patch': {
        out.flag(w.status === true);
        out.str(w.kind);
        out.str(w.namespace);
        out.str(w.name);
        // An optimistic-lock patch's resourceVersion only meets the object's: equal now or stale for good.
        const rv = patchPrecondition(w.patch);
        out.num(
          rv === undefined ? 0 : world.store.objects[st.storeKey(w.kind, w.namespace, w.name)]?.metadata.resourceVersion === rv ? 1 : 2,
        );
        return patchDigests.write(w.patch, out);
      }
      case 'scale':
        out.str(w.kind);
        out.str(w.namespace);
        out.str(w.name);
        return out.num(w.replicas);
      // An Event only lands in the (dropped) event log, but it is a write: it meets failWrites.
      case 'event':
        return;
    }
  };
  // Only an error's reason is ever read (tolerate lists, "did it fail"); the text is for notes.
  const outcomeKey = (o: WriteOutcome) => {
    writeKey(o.write);
    out.flag(o.error !== undefined);
    if (o.error !== undefined) {
      const colon = o.error.indexOf(':');
      out.str(colon < 0 ? o.error : o.error.slice(0, colon));
    }
    out.flag(o.tolerated !== undefined);
  };
  const eventKey = (e: WatchEvent) => {
    out.str(e.type);
    objectKey(e.object);
    out.flag(e.old !== undefined);
    if (e.old) objectKey(e.old);
  };
  const resultKey = (r: Plan['outcome'] | null) => {
    out.flag(r !== null);
    if (r === null) return;
    out.str(r.kind);
    if (r.kind !== 'ok') return;
    out.flag(r.requeue === true);
    out.flag(r.requeueAfterMs !== undefined);
    if (r.requeueAfterMs !== undefined) out.num(r.requeueAfterMs);
  };

  // ---- the controller
  writeSnapshot(state.snapshot, out);
  // context.now is always overwritten by the next answer before it is read (decide, recordBatch): dead.
  out.flag(ctx.synced);
  out.flag(ctx.current !== null);
  if (ctx.current !== null) out.str(ctx.current);
  out.num(ctx.batchIndex);
  resultKey(ctx.outcome);
  workQueueKey(ctx.queue, t, out);
  memoryKey(ctx.config.reconciler, ctx.memory, world, t, out);
  out.flag(ctx.plan !== null);
  if (ctx.plan) {
    resultKey(ctx.plan.outcome);
    out.list(ctx.plan.batches.length);
    for (const b of ctx.plan.batches) {
      out.list(b.length);
      b.forEach(writeKey);
    }
  }
  out.list(ctx.writes.length);
  ctx.writes.forEach(outcomeKey);
  // ---- the world
  out.list(world.rng.length);
  for (const x of world.rng) out.num(x);
  const storeKeys = sortedKeys(world.store.objects);
  out.list(storeKeys.length);
  for (const key of storeKeys) objectKey(world.store.objects[key]!);
  out.list(world.agenda.length);
  for (const a of world.agenda.length > 1 ? [...world.agenda].sort(byTime) : world.agenda) agendaKey(a, t, eventKey, out);
  const inf = world.informer;
  out.flag(inf !== null);
  if (inf) {
    out.list(inf.kinds.length);
    for (const k of inf.kinds) out.str(k);
    out.num(inf.nextResyncAt - t);
    // Deliveries are never earlier than now + the watch delay: an older per-kind mark is dead.
    const marks = Object.keys(inf.lastDeliverAt)
      .filter((k) => inf.lastDeliverAt[k]! - t > world.params.watchDelayMs)
      .sort();
    out.list(marks.length);
    for (const k of marks) {
      out.str(k);
      out.num(inf.lastDeliverAt[k]! - t);
    }
    const cached = sortedKeys(inf.cache);
    out.list(cached.length);
    for (const key of cached) objectKey(inf.cache[key]!);
    out.list(inf.pending.length);
    inf.pending.forEach(eventKey);
  }
  out.list(world.ops.length);
  for (const op of world.ops) {
    out.str(op.kind);
    out.num(op.doneAt - t);
    if (op.kind === 'watch') out.flag(op.informer === inf?.generation);
    else if (op.kind === 'read') out.str(op.request);
    else {
      out.list(op.batch.length);
      op.batch.forEach(writeKey);
    }
  }
  const f = world.faults;
  let n = 0;
  for (const d of f.delays) if (d.until > t) n++;
  out.list(n);
  for (const d of f.delays) {
    if (d.until <= t) continue;
    nullableStr(d.kind, out);
    out.num(d.extraMs);
    out.num(d.until - t);
  }
  n = 0;
  for (const d of f.drops) if (d.count > 0) n++;
  out.list(n);
  for (const d of f.drops) {
    if (d.count <= 0) continue;
    nullableStr(d.kind, out);
    out.num(d.count);
  }
  out.flag(f.reorder.count > 0);
  if (f.reorder.count > 0) {
    out.num(f.reorder.count);
    out.num(f.reorder.maxMs);
  }
  out.num(f.failWrites);
  writeData(world.load, out);
  out.list(world.queues.length);
  for (const q of world.queues) {
    out.str(q.name);
    out.num(q.length);
    out.num(q.arrivalsPerSec);
    out.num(q.perWorkerPerSec);
    writeData(q.workerSelector, out);
  }
  n = 0;
  for (const w of world.wakeups) if (w > t) n++;
  out.list(n);
  for (const w of world.wakeups) if (w > t) out.num(w - t);
  const collected = Object.keys(world.collected)
    .filter((k) => world.collected[k]! > 0)
    .sort();
  out.list(collected.length);
  for (const k of collected) out.str(k);
  out.list(world.builtins.length);
  for (const b of world.builtins) {
    out.str(b);
    memoryKey(b, world.builtinMemory[b], world, t, out);
  }
  // A user's controller: the key whose next reconcile of this very state idempotence judges.
  out.flag(world.idempotence !== undefined);
  if (world.idempotence) idempotenceKey(world, out);
  // ---- what is queued to happen
  writeQueue(state, out, opPositions(world.ops));
}

function nullableStr(s: string | null, key: KeyWriter): void {
  key.flag(s !== null);
  if (s !== null) key.str(s);
}

function agendaKey(a: AgendaItem, t: number, eventKey: (e: WatchEvent) => void, key: KeyWriter): void {
  key.num(a.at - t);
  key.str(a.kind);
  switch (a.kind) {
    case 'deliver':
      return eventKey(a.event);
    case 'bindVolume':
      return key.str(a.claim);
    case 'nodeNotReady':
    case 'evict':
      return key.str(a.node);
    case 'builtin':
      key.str(a.controller);
      return key.str(a.key);
    default:
      return key.str(a.pod);
  }
}

/** The workqueue: order, dirty, processing, delays relative to now; the token bucket as it is now. */
function workQueueKey(q: WorkQueue, t: number, key: KeyWriter): void {
  strings(q.queue, key);
  strings(q.dirty, key);
  strings(q.processing, key);
  const waiting = q.waiting.length > 1 ? [...q.waiting].sort((a, b) => byString(a.key, b.key) || a.readyAt - b.readyAt) : q.waiting;
  key.list(waiting.length);
  for (const w of waiting) {
    key.str(w.key);
    key.num(w.readyAt - t);
  }
  const failures = Object.keys(q.failures).sort();
  key.list(failures.length);
  for (const k of failures) {
    key.str(k);
    key.num(q.failures[k]!);
  }
  const b = q.limiter.bucket;
  const full = !b || q.bucket.tokens + ((t - q.bucket.last) / 1000) * b.qps >= b.burst;
  key.flag(full);
  if (!full) {
    key.num(q.bucket.tokens);
    key.num(t - q.bucket.last);
  }
  // The priority queue: each item's priority and whether it was delayed (a ready item that was
  // delayed stays behind every undelayed one); hand-out order is `queue`, waiting times are `waiting`.
  const items = Object.keys(q.items).sort();
  key.list(items.length);
  for (const k of items) {
    const it = q.items[k]!;
    key.str(k);
    key.num(it.priority);
    key.flag(it.readyAt !== null);
  }
  const handed = Object.keys(q.handedOut).sort();
  key.list(handed.length);
  for (const k of handed) {
    key.str(k);
    key.num(q.handedOut[k]!);
  }
}

function strings(list: readonly string[], key: KeyWriter): void {
  key.list(list.length);
  for (const s of list) key.str(s);
}

/** A reconciler's memory: expectations (fulfilled ones are as good as none), HPA windows. */
function memoryKey(reconciler: string, memory: unknown, world: KubeWorld, t: number, key: KeyWriter): void {
  if (reconciler === 'replicaset') {
    const exp = (memory as { expectations: Expectations }).expectations; // cast: unchecked: the replicaset reconciler's memory, by its name
    const live = Object.keys(exp)
      .filter((k) => exp[k]!.add > 0 || exp[k]!.del > 0)
      .sort();
    key.list(live.length);
    for (const k of live) {
      const e = exp[k]!;
      key.str(k);
      key.num(Math.max(e.add, 0));
      strings(e.deleteKeys.length > 1 ? e.deleteKeys.slice().sort() : e.deleteKeys, key);
      key.num(Math.min(t - e.timestamp, EXPECTATIONS_TIMEOUT_MS + 1));
    }
    return;
  }
  if (reconciler === 'hpa') {
    const { recWindow, eventWindow, behavior } = hpaWindows(world);
    const hpa = memory as HpaMemory; // cast: unchecked: the hpa reconciler's memory, by its name
    const keys = Object.keys(hpa).sort();
    key.list(keys.length);
    for (const k of keys) {
      const e = hpa[k]!;
      let live = e.recommendations.filter((r) => t - r.at <= recWindow).sort((a, b) => b.at - a.at);
      // Without behavior only the window's maximum is read: a recommendation is dead once a newer
      // one is at least as high (it leaves the window later).
      if (!behavior) live = live.filter((r, i) => live.slice(0, i).every((n) => n.replicas < r.replicas));
      key.str(k);
      key.list(live.length);
      for (const r of live) {
        key.num(t - r.at);
        key.num(r.replicas);
      }
      const ev = (list: { at: number; change: number }[]) => {
        const inWindow = list.filter((x) => t - x.at < eventWindow).sort((a, b) => b.at - a.at || a.change - b.change);
        key.list(inWindow.length);
        for (const x of inWindow) {
          key.num(t - x.at);
          key.num(x.change);
        }
      };
      ev(e.upEvents);
      ev(e.downEvents);
    }
    return;
  }
  key.flag(memory !== null && memory !== undefined);
  if (memory !== null && memory !== undefined) writeData(memory, key);
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
  const hpas = [
    ...objectsOfKind(world.store.objects, 'HorizontalPodAutoscaler'),
    ...(world.informer ? objectsOfKind(world.informer.cache, 'HorizontalPodAutoscaler') : []),
  ];
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
