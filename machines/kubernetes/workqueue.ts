/**
 * A controller's workqueue as plain data, in the two forms controller-runtime has shipped as its
 * default (the release is `RateLimiterConfig.release`):
 *
 * controller-runtime ≤ v0.22 — client-go's workqueue (k8s.io/client-go/util/workqueue):
 * - queue.go: `queue` (order), `dirty` (needs processing), `processing` (held by a worker).
 *   Add of a dirty key is a no-op (dedup); Add of a key being processed only marks it dirty and
 *   Done puts it back, so one key is never in two workers at once.
 * - delaying_queue.go: AddAfter keeps the earliest readyAt per key in a waiting list; an Add does
 *   not cancel it (the key is then processed now and again when the delay ends).
 * - default_rate_limiters.go: DefaultTypedControllerRateLimiter = MaxOf(ItemExponentialFailure
 *   (5ms, 1000s), Bucket(10 qps, burst 100)); Forget clears an item's failures.
 *
 * controller-runtime v0.23 and later — pkg/controller/priorityqueue/priorityqueue.go, the default
 * since v0.23 (pkg/controller/controller.go: `ptr.Deref(options.UsePriorityQueue, true)`), with
 * NewTypedItemExponentialFailureRateLimiter(5ms, 1000s) only — no 10 qps / 100 bucket:
 * - one item per key (AddWithOpts): the highest priority and the earliest readyAt win; an Add
 *   without delay makes a waiting item ready now (the pending delay is gone); an AddAfter of a
 *   ready item changes nothing; AddRateLimited waits min(After, limiter.When) (`after == 0 || rlAfter < after`).
 * - Get hands out items in `less` order (ready-now items by priority, then insertion; then items
 *   that were delayed, by readyAt); a key handed out is locked until Done, and an item re-added
 *   meanwhile waits for Done (the `locked` set).
 * All functions return a new state; `now` is the runner's clock in ms.
 */

export const CONTROLLER_RUNTIME_RELEASES = ['0.22', '0.23'] as const;
/** '0.22': client-go's workqueue; '0.23': the priority queue (v0.23 and later). */
export type ControllerRuntimeRelease = (typeof CONTROLLER_RUNTIME_RELEASES)[number];
/** The newest stable controller-runtime is followed by default. */
export const DEFAULT_RELEASE: ControllerRuntimeRelease = '0.23';

/** handler.LowPriority: events of the initial list and resyncs (unchanged resourceVersion). */
export const LOW_PRIORITY = -100;

export interface RateLimiterConfig {
  /** The controller-runtime release whose default queue this is. */
  release: ControllerRuntimeRelease;
  baseDelayMs: number;
  maxDelayMs: number;
  /** BucketRateLimiter (overall), combined by MaxOf with the per-item limiter; null: none. */
  bucket: { qps: number; burst: number } | null;
}

/** The default rate limiter of a release (pkg/controller/controller.go NewTypedUnmanaged). */
export function defaultRateLimiter(release: ControllerRuntimeRelease): RateLimiterConfig {
  return release === '0.22'
    ? { release, baseDelayMs: 5, maxDelayMs: 1_000_000, bucket: { qps: 10, burst: 100 } }
    : { release, baseDelayMs: 5, maxDelayMs: 1_000_000, bucket: null };
}

export const DEFAULT_RATE_LIMITER: RateLimiterConfig = defaultRateLimiter(DEFAULT_RELEASE);

/** A priority queue item (priorityqueue.go `item`): readyAt null means ready since it was added. */
export interface PqItem {
  priority: number;
  counter: number;
  readyAt: number | null;
  ready: boolean;
}

export interface WorkQueue {
  limiter: RateLimiterConfig;
  /** Keys ready to be handed out, in hand-out order. */
  queue: string[];
  /** Keys added again while being processed: they come back at Done. */
  dirty: string[];
  processing: string[];
  waiting: { key: string; readyAt: number }[];
  /** ItemExponentialFailureRateLimiter.failures */
  failures: Record<string, number>;
  /** BucketRateLimiter (golang.org/x/time/rate): tokens at time `last`. */
  bucket: { tokens: number; last: number };
  /** Priority queue only: the items (queue, dirty and waiting are views of them) and the insertion counter. */
  items: Record<string, PqItem>;
  counter: number;
  /** Priority queue only: the priority each processing key was handed out with (a requeue keeps it). */
  handedOut: Record<string, number>;
}

const isPriority = (q: WorkQueue) => q.limiter.release !== '0.22';

export function newWorkQueue(limiter: RateLimiterConfig = DEFAULT_RATE_LIMITER): WorkQueue {
  return {
    queue: [],
    dirty: [],
    processing: [],
    waiting: [],
    failures: {},
    bucket: { tokens: limiter.bucket?.burst ?? 0, last: 0 },
    limiter,
    items: {},
    counter: 0,
    handedOut: {},
  };
}

// ---- the priority queue ------------------------------------------------------------------------

/** priorityqueue.go less(): ready-now items first, then by readyAt, then priority (high first), then insertion. */
function less(a: PqItem, b: PqItem): number {
  if (a.readyAt === null && b.readyAt !== null) return -1;
  if (b.readyAt === null && a.readyAt !== null) return 1;
  if (a.readyAt !== null && b.readyAt !== null && a.readyAt !== b.readyAt) return a.readyAt - b.readyAt;
  if (a.priority !== b.priority) return b.priority - a.priority;
  return a.counter - b.counter;
}

/** Recomputes queue / dirty / waiting from the items (a locked ready item is shown as dirty). */
function pqViews(q: WorkQueue, items: Record<string, PqItem>): WorkQueue {
  const keys = Object.keys(items).sort((a, b) => less(items[a]!, items[b]!));
  const ready = keys.filter((k) => items[k]!.ready);
  return {
    ...q,
    items,
    queue: ready.filter((k) => !q.processing.includes(k)),
    dirty: ready.filter((k) => q.processing.includes(k)),
    waiting: keys.filter((k) => !items[k]!.ready).map((k) => ({ key: k, readyAt: items[k]!.readyAt! })),
  };
}

interface AddOpts {
  afterMs?: number;
  rateLimited?: boolean;
  priority?: number;
}

/** priorityqueue.go AddWithOpts. */
function pqAdd(q0: WorkQueue, key: string, o: AddOpts, now: number): { q: WorkQueue; delayMs: number } {
  let q = q0;
  let after = o.afterMs ?? 0;
  if (o.rateLimited) {
    const r = limiterWhen(q, key, now);
    q = r.q;
    if (after === 0 || r.delay < after) after = r.delay;
  }
  const readyAt = after > 0 ? now + after : null;
  const existing = q.items[key];
  if (!existing) {
    const item: PqItem = { priority: o.priority ?? 0, counter: q.counter, readyAt, ready: readyAt === null };
    return { q: pqViews({ ...q, counter: q.counter + 1 }, { ...q.items, [key]: item }), delayMs: after };
  }
  const item = { ...existing };
  // A raised priority re-enters at the back of its new class (priorityqueue_test.go: "follows FIFO
  // order in the new priority queue when item priority changes").
  if ((o.priority ?? 0) > item.priority) {
    item.priority = o.priority ?? 0;
    item.counter = q.counter;
    q = { ...q, counter: q.counter + 1 };
  }
  if (item.readyAt !== null && (readyAt === null || readyAt < item.readyAt)) {
    item.readyAt = readyAt;
    item.ready = readyAt === null || readyAt <= now;
  }
  return { q: pqViews(q, { ...q.items, [key]: item }), delayMs: after };
}

// ---- client-go's queue ---------------------------------------------------------------------------

function cgAdd(q: WorkQueue, key: string): WorkQueue {
  if (q.dirty.includes(key)) return q;
  const dirty = [...q.dirty, key];
  if (q.processing.includes(key)) return { ...q, dirty };
  return { ...q, dirty, queue: [...q.queue, key] };
}

function cgAddAfter(q: WorkQueue, key: string, delayMs: number, now: number): WorkQueue {
  if (delayMs <= 0) return cgAdd(q, key);
  const readyAt = now + delayMs;
  const existing = q.waiting.find((w) => w.key === key);
  if (existing && existing.readyAt <= readyAt) return q;
  return { ...q, waiting: [...q.waiting.filter((w) => w.key !== key), { key, readyAt }] };
}

// ---- the interface both share (TypedRateLimitingInterface) ----------------------------------------

/** Add (queue.go Add; priorityqueue AddWithOpts{Priority}). `priority` matters only to the priority queue. */
export function add(q: WorkQueue, key: string, priority = 0, now = 0): WorkQueue {
  return isPriority(q) ? pqAdd(q, key, { priority }, now).q : cgAdd(q, key);
}

/** Get: the first key that can be handed out moves to processing. Undefined when there is none. */
export function get(q: WorkQueue): { q: WorkQueue; key: string | undefined; priority: number } {
  const [key] = q.queue;
  if (key === undefined) return { q, key: undefined, priority: 0 };
  if (isPriority(q)) {
    const items = { ...q.items };
    const priority = items[key]!.priority;
    delete items[key];
    return {
      key,
      priority,
      q: pqViews({ ...q, processing: [...q.processing, key], handedOut: { ...q.handedOut, [key]: priority } }, items),
    };
  }
  return {
    key,
    priority: 0,
    q: { ...q, queue: q.queue.slice(1), processing: [...q.processing, key], dirty: q.dirty.filter((k) => k !== key) },
  };
}

/** Done: the key is released; if it was added again meanwhile, it can be handed out again. */
export function done(q: WorkQueue, key: string): WorkQueue {
  const processing = q.processing.filter((k) => k !== key);
  if (isPriority(q)) {
    const handedOut = { ...q.handedOut };
    delete handedOut[key];
    return pqViews({ ...q, processing, handedOut }, q.items);
  }
  if (q.dirty.includes(key)) return { ...q, processing, queue: [...q.queue, key] };
  return { ...q, processing };
}

/** AddAfter (delaying_queue.go; priorityqueue AddWithOpts{After}). */
export function addAfter(q: WorkQueue, key: string, delayMs: number, now: number, priority = 0): WorkQueue {
  return isPriority(q) ? pqAdd(q, key, { afterMs: Math.max(0, delayMs), priority }, now).q : cgAddAfter(q, key, delayMs, now);
}

/** Moves every waiting key whose time has come onto the queue (the delaying queue's loop; the priority queue's spin). */
export function promoteReady(q: WorkQueue, now: number): WorkQueue {
  if (isPriority(q)) {
    const due = Object.entries(q.items).filter(([, it]) => !it.ready && it.readyAt! <= now);
    if (!due.length) return q;
    const items = { ...q.items };
    for (const [k, it] of due) items[k] = { ...it, ready: true };
    return pqViews(q, items);
  }
  const ready = q.waiting.filter((w) => w.readyAt <= now).sort((a, b) => a.readyAt - b.readyAt || (a.key < b.key ? -1 : 1));
  if (!ready.length) return q;
  let out: WorkQueue = { ...q, waiting: q.waiting.filter((w) => w.readyAt > now) };
  for (const w of ready) out = cgAdd(out, w.key);
  return out;
}

export const nextReadyAt = (q: WorkQueue): number | undefined =>
  q.waiting.length ? Math.min(...q.waiting.map((w) => w.readyAt)) : undefined;

/** ItemExponentialFailureRateLimiter.When: base × 2^failures (failures counted before), capped. */
function exponentialWhen(q: WorkQueue, key: string): { delay: number; failures: Record<string, number> } {
  const exp = q.failures[key] ?? 0;
  const delay = Math.min(q.limiter.baseDelayMs * 2 ** exp, q.limiter.maxDelayMs);
  return { delay, failures: { ...q.failures, [key]: exp + 1 } };
}

/** BucketRateLimiter.When: reserve a token; the wait is how long until it exists. */
function bucketWhen(q: WorkQueue, bucket: { qps: number; burst: number }, now: number): { delay: number; bucket: WorkQueue['bucket'] } {
  const { qps, burst } = bucket;
  const refilled = Math.min(burst, q.bucket.tokens + ((now - q.bucket.last) / 1000) * qps);
  const tokens = refilled - 1;
  return { delay: tokens >= 0 ? 0 : Math.ceil((-tokens / qps) * 1000), bucket: { tokens, last: now } };
}

/** The configured limiter's When: the per-item exponential, MaxOf the bucket when there is one. */
function limiterWhen(q: WorkQueue, key: string, now: number): { q: WorkQueue; delay: number } {
  const e = exponentialWhen(q, key);
  if (!q.limiter.bucket) return { delay: e.delay, q: { ...q, failures: e.failures } };
  const b = bucketWhen(q, q.limiter.bucket, now);
  return { delay: Math.max(e.delay, b.delay), q: { ...q, failures: e.failures, bucket: b.bucket } };
}

/** AddRateLimited (rate_limiting_queue.go: AddAfter(key, When(key)); priorityqueue: AddWithOpts{RateLimited}). */
export function addRateLimited(q: WorkQueue, key: string, now: number, priority = 0): { q: WorkQueue; delayMs: number } {
  if (isPriority(q)) return pqAdd(q, key, { rateLimited: true, priority }, now);
  const r = limiterWhen(q, key, now);
  return { delayMs: r.delay, q: cgAddAfter(r.q, key, r.delay, now) };
}

/** Forget: the key stops being tracked by the per-item limiter. */
export function forget(q: WorkQueue, key: string): WorkQueue {
  if (!(key in q.failures)) return q;
  const failures = { ...q.failures };
  delete failures[key];
  return { ...q, failures };
}

export const numRequeues = (q: WorkQueue, key: string) => q.failures[key] ?? 0;

/** The priority a processing key was handed out with (0 for client-go's queue). */
export const priorityOf = (q: WorkQueue, key: string) => q.handedOut[key] ?? 0;
