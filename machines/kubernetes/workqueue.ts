/**
 * client-go's workqueue as plain data (k8s.io/client-go/util/workqueue):
 * - queue.go: `queue` (order), `dirty` (needs processing), `processing` (held by a worker).
 *   Add of a dirty key is a no-op (dedup); Add of a key being processed only marks it dirty and
 *   Done puts it back, so one key is never in two workers at once.
 * - delaying_queue.go: AddAfter keeps the earliest readyAt per key in a waiting list.
 * - default_rate_limiters.go: DefaultControllerRateLimiter = MaxOf(ItemExponentialFailure
 *   (5ms, 1000s), Bucket(10 qps, burst 100)); Forget clears an item's failures.
 * All functions return a new state; `now` is the runner's clock in ms.
 */

export interface RateLimiterConfig { baseDelayMs: number; maxDelayMs: number; qps: number; burst: number }

/** controller-runtime's default (workqueue.DefaultTypedControllerRateLimiter). */
export const DEFAULT_RATE_LIMITER: RateLimiterConfig = { baseDelayMs: 5, maxDelayMs: 1_000_000, qps: 10, burst: 100 };

export interface WorkQueue {
  queue: string[];
  dirty: string[];
  processing: string[];
  waiting: { key: string; readyAt: number }[];
  /** ItemExponentialFailureRateLimiter.failures */
  failures: Record<string, number>;
  /** BucketRateLimiter (golang.org/x/time/rate): tokens at time `last`. */
  bucket: { tokens: number; last: number };
  limiter: RateLimiterConfig;
}

export function newWorkQueue(limiter: RateLimiterConfig = DEFAULT_RATE_LIMITER): WorkQueue {
  return { queue: [], dirty: [], processing: [], waiting: [], failures: {}, bucket: { tokens: limiter.burst, last: 0 }, limiter };
}

/** queue.go Add. */
export function add(q: WorkQueue, key: string): WorkQueue {
  if (q.dirty.includes(key)) return q;
  const dirty = [...q.dirty, key];
  if (q.processing.includes(key)) return { ...q, dirty };
  return { ...q, dirty, queue: [...q.queue, key] };
}

/** queue.go Get: the head moves from dirty to processing. Undefined when the queue is empty. */
export function get(q: WorkQueue): { q: WorkQueue; key: string | undefined } {
  const [key, ...rest] = q.queue;
  if (key === undefined) return { q, key: undefined };
  return { key, q: { ...q, queue: rest, processing: [...q.processing, key], dirty: q.dirty.filter((k) => k !== key) } };
}

/** queue.go Done: if the key was re-added while processed, it goes back on the queue. */
export function done(q: WorkQueue, key: string): WorkQueue {
  const processing = q.processing.filter((k) => k !== key);
  if (q.dirty.includes(key)) return { ...q, processing, queue: [...q.queue, key] };
  return { ...q, processing };
}

/** delaying_queue.go AddAfter: a non-positive delay is an Add; otherwise keep the earliest readyAt. */
export function addAfter(q: WorkQueue, key: string, delayMs: number, now: number): WorkQueue {
  if (delayMs <= 0) return add(q, key);
  const readyAt = now + delayMs;
  const existing = q.waiting.find((w) => w.key === key);
  if (existing && existing.readyAt <= readyAt) return q;
  return { ...q, waiting: [...q.waiting.filter((w) => w.key !== key), { key, readyAt }] };
}

/** Moves every waiting key whose time has come onto the queue (the delaying queue's loop). */
export function promoteReady(q: WorkQueue, now: number): WorkQueue {
  const ready = q.waiting.filter((w) => w.readyAt <= now).sort((a, b) => a.readyAt - b.readyAt || (a.key < b.key ? -1 : 1));
  if (!ready.length) return q;
  let out: WorkQueue = { ...q, waiting: q.waiting.filter((w) => w.readyAt > now) };
  for (const w of ready) out = add(out, w.key);
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
function bucketWhen(q: WorkQueue, now: number): { delay: number; bucket: WorkQueue['bucket'] } {
  const { qps, burst } = q.limiter;
  const refilled = Math.min(burst, q.bucket.tokens + ((now - q.bucket.last) / 1000) * qps);
  const tokens = refilled - 1;
  return { delay: tokens >= 0 ? 0 : Math.ceil((-tokens / qps) * 1000), bucket: { tokens, last: now } };
}

/** rate_limiting_queue.go AddRateLimited = AddAfter(key, MaxOf(limiters).When(key)). */
export function addRateLimited(q: WorkQueue, key: string, now: number): { q: WorkQueue; delayMs: number } {
  const e = exponentialWhen(q, key);
  const b = bucketWhen(q, now);
  const delayMs = Math.max(e.delay, b.delay);
  return { delayMs, q: addAfter({ ...q, failures: e.failures, bucket: b.bucket }, key, delayMs, now) };
}

/** Forget: the key stops being tracked by the per-item limiter. */
export function forget(q: WorkQueue, key: string): WorkQueue {
  if (!(key in q.failures)) return q;
  const failures = { ...q.failures };
  delete failures[key];
  return { ...q, failures };
}

export const numRequeues = (q: WorkQueue, key: string) => q.failures[key] ?? 0;
