import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { ExecutableAction } from './pure-machine';
import { PureMachine } from './pure-machine';
import { NotPlainData, writeStable } from './stable-key';
import { HashKeyWriter } from './check/key-writer';

type Step = [AnyMachineSnapshot, ExecutableAction[]];

export interface MemoStats {
  hits: number;
  misses: number;
  snapshots: number;
  unkeyable: number;
  flushes: number;
  /** The memo judged itself not worth its keys after this many transitions and let XState answer the rest. */
  stoppedAfter?: number;
}

/**
 * How much the memo may hold, in 32-bit words of what it keyed (interned snapshots and events),
 * before it starts afresh. That size tracks what the memo keeps alive — snapshots, contexts, memoised
 * steps (measured with text keys: hpa-bench-medium 21,212 snapshots, 23 M key characters, ~216 MiB
 * retained; kubernetes-check-deployment ~2.6 k characters and ~25 kB a snapshot), while a snapshot
 * count would let Kubernetes' larger contexts hold twice as much. A word holds about two characters
 * of the text key: 8 M words keep the memo near 150 MiB for either.
 */
const MEMO_MAX_KEY_WORDS = 8_000_000;

/**
 * A memo pays only when its hits save more than its keys cost: a miss costs XState's transition plus
 * the snapshot's key (its whole context as text), a hit the event's key, which for a large payload
 * (an observation, a Kubernetes object) is itself most of a transition. Measured 2026-11-28 on every
 * shipped check scenario and the HPA bench configuration (compiled CLI, memo always on vs --no-memo):
 * 1.2–1.35× faster for systemd and Kubernetes' ReplicaSet and queue scaler (81–85 % hits), but 0.8×
 * for the Incus HPA's bench configuration at 88 % hits and 0.3–0.8× for cron and the Kubernetes
 * Deployment, HPA and database (large contexts, 4–35 % hits): the share of hits does not say it.
 * So the memo times itself: over its first FIRST_JUDGED transitions, then each JUDGE_EVERY, what it
 * spent (keys, lookups and the misses' transitions) against what XState alone would have (every
 * transition at the misses' mean cost), and stops for good the first time it spent more or had
 * fewer than MIN_HIT_SHARE hits. The timing makes `stoppedAfter` vary from run to run; what the
 * search finds never does.
 */
const FIRST_JUDGED = 1024;
const JUDGE_EVERY = 4096;
/** Below this share of hits the memo stops without timing itself: its keys retain memory the timing does not see (more garbage collection elsewhere). */
const MIN_HIT_SHARE = 0.8;

/**
 * A PureMachine whose transitions are memoised by (snapshot, event): the machine is pure, so a
 * transition seen once never needs XState again. Snapshots are interned — equal ones (same state
 * value, status, context, children ids, history) become one object with one small integer id — so
 * the memo key is (id, event) and every branch of the search shares that object (structural
 * sharing). A snapshot or event that is not plain data (stable-key.ts) is never memoised.
 * Snapshots and events are told apart by a 64-bit hash of their content (writeStable into a
 * HashKeyWriter), as the search tells states apart: two different ones with one hash would share a
 * transition with probability ≈ n²/2⁶⁵ (≈ 3·10⁻⁸ at 10⁶), like a fingerprint collision of the
 * visited set — and every counterexample is replayed through the Runner, which has no memo.
 * Results are shared, so callers must treat snapshots and actions as immutable (the Stepper does).
 */
export class MemoMachine {
  private readonly pure: PureMachine;
  private readonly ids = new WeakMap<AnyMachineSnapshot, number>();
  private readonly interned = new Map<string, [number, AnyMachineSnapshot]>();
  private readonly memo = new Map<string, Step>();
  private readonly eventKeys = new WeakMap<EventObject, { key: string; words: number }>();
  private readonly writer = new HashKeyWriter();
  private readonly digest = new Uint32Array(2);
  readonly stats: MemoStats = { hits: 0, misses: 0, snapshots: 0, unkeyable: 0, flushes: 0 };
  /** Never reused, even after a flush: an id names one snapshot content for ever (old objects keep theirs). */
  private nextId = 0;
  /** Words of what the held keys were made from (interned snapshots and memoised events). */
  private words = 0;
  /** Transitions asked for, and when the memo next judges itself. */
  private calls = 0;
  private judgeAt = FIRST_JUDGED;
  private stopped = false;
  /** Since the last judgement: ms the memo spent, ms of it in XState (the misses), and the misses. */
  private spentMs = 0;
  private xstateMs = 0;
  private windowMisses = 0;
  private windowAnswered = 0;

  constructor(
    readonly machine: AnyStateMachine,
    private readonly maxKeyWords = MEMO_MAX_KEY_WORDS,
    /** Milliseconds, for the memo's judgement of itself (a test gives a clock it controls). */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.pure = new PureMachine(machine);
  }

  initial(input: unknown): Step {
    const [snapshot, actions] = this.pure.initial(input);
    return [this.stopped ? snapshot : this.intern(snapshot), actions];
  }

  transition(snapshot: AnyMachineSnapshot, event: EventObject): Step {
    if (++this.calls === this.judgeAt) this.judge();
    if (this.stopped) return this.pure.transition(snapshot, event);
    const began = this.now();
    const id = this.idOf(snapshot);
    const eventKey = id === undefined ? undefined : this.eventKey(event);
    if (id === undefined || eventKey === undefined) {
      this.stats.unkeyable++;
      return this.pure.transition(snapshot, event);
    }
    const key = `${id}:${eventKey.key}`;
    const hit = this.memo.get(key);
    this.windowAnswered++;
    if (hit) {
      this.stats.hits++;
      this.spentMs += this.now() - began;
      return hit;
    }
    this.stats.misses++;
    this.windowMisses++;
    const xstateBegan = this.now();
    const [next, actions] = this.pure.transition(snapshot, event);
    this.xstateMs += this.now() - xstateBegan;
    const step: Step = [this.intern(next), actions];
    this.memo.set(key, step);
    this.words += eventKey.words;
    this.spentMs += this.now() - began;
    return step;
  }

  private idOf(snapshot: AnyMachineSnapshot): number | undefined {
    const id = this.ids.get(snapshot);
    if (id !== undefined) return id;
    const canonical = this.intern(snapshot);
    return this.ids.get(canonical);
  }

  /** The one object for this snapshot's content (the snapshot itself when it is not plain data). */
  private intern(snapshot: AnyMachineSnapshot): AnyMachineSnapshot {
    if (this.ids.has(snapshot)) return snapshot;
    const keyed = this.hashOf(snapshotParts(snapshot));
    if (keyed === undefined) return snapshot;
    const known = this.interned.get(keyed.key);
    if (known) return known[1];
    if (this.words + keyed.words > this.maxKeyWords) this.flush();
    const id = this.nextId++;
    this.words += keyed.words;
    this.interned.set(keyed.key, [id, snapshot]);
    this.ids.set(snapshot, id);
    this.stats.snapshots++;
    return snapshot;
  }

  /** Stops for good when the memo spent more since the last judgement than XState alone would have (see above). */
  private judge(): void {
    const withoutMemo = this.windowMisses === 0 ? Number.POSITIVE_INFINITY : (this.windowAnswered * this.xstateMs) / this.windowMisses;
    const spent = this.spentMs;
    const hitShare = 1 - this.windowMisses / Math.max(1, this.windowAnswered);
    this.judgeAt += JUDGE_EVERY;
    this.spentMs = this.xstateMs = this.windowMisses = this.windowAnswered = 0;
    if (hitShare >= MIN_HIT_SHARE && spent <= withoutMemo) return;
    this.stopped = true;
    this.stats.stoppedAfter = this.calls;
    this.forget();
  }

  /** Forgets every interned snapshot and memoised step: only misses follow, never a wrong step (ids are not reused). */
  private flush(): void {
    this.forget();
    this.stats.flushes++;
  }

  private forget(): void {
    this.interned.clear();
    this.memo.clear();
    this.words = 0;
  }

  private eventKey(event: EventObject): { key: string; words: number } | undefined {
    const known = this.eventKeys.get(event);
    if (known !== undefined) return known;
    const keyed = this.hashOf(event);
    if (keyed !== undefined) this.eventKeys.set(event, keyed);
    return keyed;
  }

  /** The value's 64-bit content hash as a short string, and how many words made it; undefined when it is not plain data. */
  private hashOf(value: unknown): { key: string; words: number } | undefined {
    const w = this.writer;
    w.reset();
    try {
      writeStable(value, w);
    } catch (e) {
      if (e instanceof NotPlainData) return undefined;
      throw e;
    }
    w.digest(this.digest);
    return { key: `${this.digest[0]!.toString(36)}.${this.digest[1]!.toString(36)}`, words: w.words };
  }
}

/** Everything a transition reads from a snapshot (xstate 5 MachineSnapshot: value, status,
 * context, output, error, children — by id, the refs are inert here — and history). */
function snapshotParts(s: AnyMachineSnapshot): unknown[] {
  const history: Record<string, string[]> = {};
  for (const [id, nodes] of Object.entries(s.historyValue as Record<string, { id: string }[]>)) history[id] = nodes.map((n) => n.id); // cast: XState keeps history as state nodes by id
  return [s.value, s.status, s.context, s.output, s.error, Object.keys(s.children), history];
}
