import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { ExecutableAction } from './pure-machine';
import { PureMachine } from './pure-machine';
import { NotPlainData, stableKey } from './stable-key';

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
 * How much the memo may hold, in characters of its keys (interned snapshots' and steps'), before it
 * starts afresh. The keys' size tracks what they keep alive — snapshots, contexts, memoised steps —
 * at ~10× their characters (measured: hpa-bench-medium 21,212 snapshots, 23 M key characters,
 * ~216 MiB retained; kubernetes-check-deployment ~2.6 k characters and ~25 kB a snapshot), while a
 * snapshot count would let Kubernetes' larger contexts hold twice as much: 16 M characters keep the
 * memo near 150 MiB for either.
 */
const MEMO_MAX_KEY_CHARS = 16_000_000;

/**
 * A memo pays only when most transitions are hits: a miss costs XState's transition plus the
 * snapshot's key (its whole context as text), a hit the event's key. Measured 2026-11-28 on every
 * shipped check scenario and the HPA bench configuration (compiled CLI, memo always on vs
 * --no-memo): at 81–85 % hits the memo is 1.2–1.35× faster (systemd, Kubernetes' ReplicaSet and
 * queue scaler), at 98 % (the HPA at 10⁶ states) 1.32×; at 70–78 % even or slower (the Incus HPA
 * 0.79× at 75 %, Puppet), at 60 % and below 1.2–3× slower (cron, the Kubernetes Deployment, HPA and
 * database: large contexts, 4–35 % hits). A search's hit share falls as it goes (new states late
 * in a search are less alike), so the memo judges its first FIRST_JUDGED transitions, then each
 * JUDGE_EVERY on their own, and stops for good after the first run of them below MIN_HIT_SHARE
 * (judged early: with few hits even the first thousands of misses cost a cron or database check ~50 %).
 */
const FIRST_JUDGED = 1024;
const JUDGE_EVERY = 4096;
const MIN_HIT_SHARE = 0.8;

/**
 * A PureMachine whose transitions are memoised by (snapshot, event): the machine is pure, so a
 * transition seen once never needs XState again. Snapshots are interned — equal ones (same state
 * value, status, context, children ids, history) become one object with one small integer id — so
 * the memo key is `id:event` and every branch of the search shares that object (structural
 * sharing). A snapshot or event that is not plain data (stable-key.ts) is never memoised.
 * Results are shared, so callers must treat snapshots and actions as immutable (the Stepper does).
 */
export class MemoMachine {
  private readonly pure: PureMachine;
  private readonly ids = new WeakMap<AnyMachineSnapshot, number>();
  private readonly interned = new Map<string, [number, AnyMachineSnapshot]>();
  private readonly memo = new Map<string, Step>();
  private readonly eventKeys = new WeakMap<EventObject, string>();
  readonly stats: MemoStats = { hits: 0, misses: 0, snapshots: 0, unkeyable: 0, flushes: 0 };
  /** Never reused, even after a flush: an id names one snapshot content for ever (old objects keep theirs). */
  private nextId = 0;
  /** Characters of the keys held (interned and memo). */
  private chars = 0;
  /** Transitions asked for; at the last judgement, how many and how many hits; when the next is. */
  private calls = 0;
  private callsBefore = 0;
  private hitsBefore = 0;
  private judgeAt = FIRST_JUDGED;
  private stopped = false;

  constructor(
    readonly machine: AnyStateMachine,
    private readonly maxKeyChars = MEMO_MAX_KEY_CHARS,
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
    const id = this.idOf(snapshot);
    const eventKey = id === undefined ? undefined : this.eventKey(event);
    if (id === undefined || eventKey === undefined) {
      this.stats.unkeyable++;
      return this.pure.transition(snapshot, event);
    }
    const key = `${id}:${eventKey}`;
    const hit = this.memo.get(key);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    this.stats.misses++;
    const [next, actions] = this.pure.transition(snapshot, event);
    const step: Step = [this.intern(next), actions];
    this.memo.set(key, step);
    this.chars += key.length;
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
    const key = snapshotKey(snapshot);
    if (key === undefined) return snapshot;
    const known = this.interned.get(key);
    if (known) return known[1];
    if (this.chars + key.length > this.maxKeyChars) this.flush();
    const id = this.nextId++;
    this.chars += key.length;
    this.interned.set(key, [id, snapshot]);
    this.ids.set(snapshot, id);
    this.stats.snapshots++;
    return snapshot;
  }

  /** Stops for good when too few of the transitions since the last judgement were hits (see MIN_HIT_SHARE). */
  private judge(): void {
    // The transition being asked is not answered yet: the window ends with the one before it.
    const answered = this.calls - 1 - this.callsBefore;
    const hits = this.stats.hits - this.hitsBefore;
    this.callsBefore = this.calls - 1;
    this.hitsBefore = this.stats.hits;
    this.judgeAt += JUDGE_EVERY;
    if (hits >= MIN_HIT_SHARE * answered) return;
    this.stopped = true;
    this.stats.stoppedAfter = this.calls;
    this.interned.clear();
    this.memo.clear();
    this.chars = 0;
  }

  /** Forgets every interned snapshot and memoised step: only misses follow, never a wrong step (ids are not reused). */
  private flush(): void {
    this.interned.clear();
    this.memo.clear();
    this.chars = 0;
    this.stats.flushes++;
  }

  private eventKey(event: EventObject): string | undefined {
    let key = this.eventKeys.get(event);
    if (key !== undefined) return key;
    try {
      key = stableKey(event);
    } catch (e) {
      if (e instanceof NotPlainData) return undefined;
      throw e;
    }
    this.eventKeys.set(event, key);
    return key;
  }
}

/** Everything a transition reads from a snapshot (xstate 5 MachineSnapshot: value, status,
 * context, output, error, children — by id, the refs are inert here — and history). */
function snapshotKey(s: AnyMachineSnapshot): string | undefined {
  const history: Record<string, string[]> = {};
  for (const [id, nodes] of Object.entries(s.historyValue as Record<string, { id: string }[]>)) history[id] = nodes.map((n) => n.id); // cast: XState keeps history as state nodes by id
  try {
    return stableKey([s.value, s.status, s.context, s.output, s.error, Object.keys(s.children), history]);
  } catch (e) {
    if (e instanceof NotPlainData) return undefined;
    throw e;
  }
}
