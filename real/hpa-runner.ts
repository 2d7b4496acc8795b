// The real runner: the HPA machine with real actors, driven by XState's own actor (real timers),
// recording the same Frames as the simulator's runner (sim/runner.ts) so sim's timeline printer,
// the web lab and the tests read a real run like a simulated one. t is wall-clock ms since start.
import { setMaxListeners } from 'node:events';
import type { AnyActorRef, EventObject, InspectionEvent, Observer } from 'xstate';
import { createActor } from 'xstate';
import type { HpaConfig, HpaContext, PolicyModules } from '../machines/incus-hpa';
import { NO_POLICY_MODULES, providePolicyModules } from '../machines/incus-hpa';
import { hpaBinding } from '../sim/loops/incus-hpa';
import type { FrameNote } from '../sim/notes';
import { noteFields } from '../sim/notes';
import type { Frame, Phase, Trace } from '../sim/trace';
import { TRACE_VERSION, dottedState, phaseOf } from '../sim/trace';
import type { HpaFrameIo } from '../sim/trace-io';
import type { HpaWorldSummary } from '../sim/loops/incus-hpa-world-schema';
import type { Adoption } from './adopt';
import { adoptOwned } from './adopt';
import type { ApproveAct, OwnershipError, RealActorHooks } from './hpa-actors';
import { ownerOf, realHpaMachine, removeOwned } from './hpa-actors';
import { realHpaController } from './hpa-controller';
import type { RealHpaConfig, RealSettings } from './hpa-config';
import type { IncusClient, IncusConnectOptions, InstanceFull } from './incus';
import type { Identity } from './identity';
import { LifecycleWatcher, connectionOf } from './lifecycle-events';
import { GC_GRACE_MS, OwnedGc } from './owned-gc';
import { OwnEvents } from './own-events';
import { frameIoOf } from './frame-io';
import type { ErrorActor, FrameFacts } from './run-facts';
import { errorKind, outcomeOf, verdictOf } from './run-facts';
import { WakeClock } from './wake-clock';

/** `io`: what the machine was given and its actors answered (sim/trace-io.ts), for `loopscope conform`. */
export type RealFrame = Frame<HpaWorldSummary> & { io?: HpaFrameIo };

export interface RealRunnerOptions {
  client: IncusClient;
  config: RealHpaConfig;
  dryRun?: boolean;
  approve?: ApproveAct;
  /** Each recorded frame, with what it means for operations (metrics, JSON log). */
  onFrame?: (frame: RealFrame, facts: FrameFacts) => void;
  /** Name of the run in the trace (default: the config file). */
  scenario?: string;
  /** Keep at most this many frames (the oldest are dropped): a service running for weeks. */
  maxFrames?: number;
  /** Leader election: acts (and the GC) only while this says the lease is held. */
  canAct?: () => boolean;
  /** Wake the loop on Incus lifecycle events about owned pods (default true). */
  events?: boolean;
  /** How to open the events stream (needed over HTTPS; a unix-socket client's own socket otherwise). */
  connection?: IncusConnectOptions;
  /** How long an owned pod stays Stopped/Error before the GC removes it (default 3 s). */
  gcGraceMs?: number;
  /** Also hands every inspection event of the actor and its children to this observer (`--inspect`). */
  inspect?: Observer<InspectionEvent>;
  /** The policy modules the config loaded (loadRealHpaConfig's, which live edits load into too). */
  policies?: PolicyModules;
}

/** A burst of events (a forced delete sends instance-stopped then instance-deleted) makes one wake-up. */
export const WAKE_DEBOUNCE_MS = 100;
/** Woken periods start at least this long after the previous observe began (a flapping pod cannot make the loop spin). */
export const WAKE_MIN_GAP_MS = 500;
/** How long the start waits for the events stream before the first observe (then it goes on; a late open wakes once). */
const EVENTS_OPEN_WAIT_MS = 3_000;
/** Wake-ups kept in `wakeups` (a run lasts weeks; `wakeCount` counts them all). */
const WAKEUPS_KEPT = 200;

type Snapshot = ReturnType<ReturnType<typeof realHpaMachine>['getInitialSnapshot']>;

export class RealHpaRunner {
  readonly frames: RealFrame[] = [];
  readonly epoch = Date.now();
  private settings: RealSettings;
  private config: HpaConfig;
  private lastList: InstanceFull[] = [];
  /** Deletes a policy asked for on instances without our key: refused, listed here. */
  readonly refusals: string[] = [];
  private notDone: string | undefined;
  private readonly abort = new AbortController();
  private readonly hooks: RealActorHooks;
  private actor: AnyActorRef | undefined;
  private snapshot: Snapshot | undefined;
  private readonly listeners = new Set<(s: Snapshot) => void>();
  private readonly clock = new WakeClock();
  private readonly busy = new Set<string>();
  private readonly decided = new Map<string, Identity>();
  /** Pods this runner created, with when (they are ours before any observation lists them). */
  private readonly created = new Map<string, number>();
  private readonly ownEvents = new OwnEvents(() => this.now());
  private watcher: LifecycleWatcher | undefined;
  /** A wake-up arrived while the loop was not waiting: why and when, to observe again as soon as it waits. */
  private dirty: { why: string; at: number } | undefined;
  private wakeTimer: ReturnType<typeof setTimeout> | undefined;
  private wakeWhy: string | undefined;
  /**
   * When the actor was handed each event (xstate's '@xstate.event' inspection, sent before the event is
   * processed): the time of its frame. The timers a transition sets are scheduled while it is processed
   * (xstate runs its delayed raises with the deferred effects, before the '@xstate.snapshot' inspection);
   * a frame stamped at the snapshot came after them — 10 ms on a quiet host, 55 ms under load — and its
   * timer then fired "early" after it (loopscope conform holds timers to the frame that set them).
   */
  private readonly takenAt = new WeakMap<EventObject, number>();
  private lastObserveAt = -Infinity;
  private period = 0;
  private observeStarted = 0;
  private stopped = false;
  /** Wake-ups that ended a wait early, the latest WAKEUPS_KEPT (tests, bench). */
  readonly wakeups: { t: number; why: string }[] = [];
  /** All wake-ups that ended a wait early (metrics). */
  wakeCount = 0;

  constructor(private readonly options: RealRunnerOptions) {
    this.settings = options.config.settings;
    this.config = options.config.config;
    // One state read per owned pod, in parallel, each listening on the runner's signal.
    setMaxListeners(1_000, this.abort.signal);
    this.hooks = {
      client: options.client,
      settings: () => this.settings,
      clock: () => this.now(),
      epoch: this.epoch,
      ...(options.dryRun ? { dryRun: true } : {}),
      ...(options.approve ? { approve: options.approve } : {}),
      onList: (list) => {
        this.lastList = list;
        this.prune(list);
      },
      onNotDone: (what) => {
        this.notDone = what;
      },
      onRefused: (e: OwnershipError) => {
        this.refusals.push(e.message);
      },
      signal: this.abort.signal,
      ...(options.canAct ? { canAct: options.canAct } : {}),
      pending: () => this.actor?.getSnapshot().context.pending ?? [],
      maxParallel: () => this.settings.maxParallel,
      busy: this.busy,
      decided: this.decided,
      ownEvents: this.ownEvents,
    };
    if (!options.dryRun) {
      this.hooks.gc = new OwnedGc({
        graceMs: options.gcGraceMs ?? GC_GRACE_MS,
        now: () => this.now(),
        mayAct: () => options.canAct?.() ?? true,
        remove: (name, identity) => removeOwned(this.hooks, this.config, name, true, identity),
        onRemoved: (name, status) => this.note(`gc: removed ${name} (owned, left ${status})`),
        onFailed: (name, err) => this.note(`gc: could not remove ${name}: ${err instanceof Error ? err.message : String(err)}`),
      });
    }
  }

  /**
   * Observe now instead of at the end of the period (an event about an owned pod). Level-triggered:
   * it only brings the next observe forward. A burst of events is gathered for WAKE_DEBOUNCE_MS; a
   * wake while the loop observes, compares, acts or backs off is kept for its next wait (a backoff is
   * never cut short: the daemon is failing).
   */
  wake(why: string): void {
    if (!this.actor || this.stopped) return;
    this.wakeWhy ??= why;
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      const reason = this.wakeWhy ?? why;
      this.wakeTimer = undefined;
      this.wakeWhy = undefined;
      this.fireWake(reason);
    }, WAKE_DEBOUNCE_MS);
  }

  private fireWake(why: string): void {
    if (!this.snapshot || this.stopped) return;
    if (!this.snapshot.matches('waiting')) {
      this.dirty ??= { why, at: this.now() };
      return;
    }
    const early = this.lastObserveAt + WAKE_MIN_GAP_MS - this.now();
    if (early > 0) {
      // Events arriving meanwhile join this wake-up.
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = undefined;
        this.wakeWhy = undefined;
        this.fireWake(why);
      }, early);
      return;
    }
    if (this.clock.fireNow() > 0) {
      this.wakeCount++;
      this.wakeups.push({ t: this.now(), why });
      if (this.wakeups.length > WAKEUPS_KEPT) this.wakeups.splice(0, this.wakeups.length - WAKEUPS_KEPT);
    }
  }

  /** The events stream: open, and how often it was reopened (tests, metrics). */
  get events(): { connected: boolean; reconnects: number; received: number } | undefined {
    const w = this.watcher;
    return w ? { connected: w.connected, reconnects: w.reconnects, received: w.received } : undefined;
  }

  /** Forget our own creates once they are long past and the pods gone (a run lasts weeks). */
  private prune(list: InstanceFull[]): void {
    const listed = new Set(list.map((i) => i.name));
    const old = this.now() - 60_000;
    for (const [name, t] of this.created) if (t < old && !listed.has(name)) this.created.delete(name);
  }

  /** Is this event about one of our pods, and not caused by our own act? */
  private async concerns(name: string, action: string): Promise<boolean> {
    if (this.ownEvents.consume(name, action)) return false;
    // Whatever else happens to a pod while we act on it, the act's end is followed by an observe.
    if (this.busy.has(name)) return false;
    if (this.decided.has(name) || this.created.has(name)) return true;
    // Not seen yet (a pod created from outside with our key is ours too): one GET to know. A deleted
    // instance we never saw cannot be asked about, and was not ours as far as we knew.
    if (action === 'instance-deleted') return false;
    const inst = await this.options.client.getInstance(name, { signal: this.abort.signal });
    return ownerOf(inst) === this.config.name;
  }

  now(): number {
    return Date.now() - this.epoch;
  }

  /** Adopt what a previous run left (see adopt.ts), then start the loop. */
  async start(): Promise<Adoption> {
    const adoption = await adoptOwned(this.hooks, this.config);
    const parts = [`adopted ${adoption.adopted.length} owned pod(s)`];
    if (adoption.removed.length) parts.push(`removed ${adoption.removed.join(', ')} (stopped or above max)`);
    if (adoption.wouldRemove.length) parts.push(`dry run: would remove ${adoption.wouldRemove.join(', ')}`);
    if (adoption.waitedFor) parts.push(`waited for ${adoption.waitedFor} leftover operation(s)`);
    const machine = providePolicyModules(realHpaMachine(this.hooks), this.options.policies ?? NO_POLICY_MODULES);
    const actor = createActor(machine, {
      input: { config: this.config },
      clock: this.clock,
      inspect: (ev: InspectionEvent) => {
        if (ev.type === '@xstate.event' && ev.actorRef === this.actor) this.takenAt.set(ev.event, this.now());
        if (ev.type === '@xstate.snapshot' && ev.actorRef === this.actor) this.record(ev.event, ev.snapshot as Snapshot); // cast: this.actor runs incusHpaMachine, whose snapshot this is
        this.options.inspect?.next?.(ev);
      },
    });
    this.actor = actor;
    this.pushFrame('real.adopt', parts.join('; '), actor.getSnapshot() as Snapshot, undefined, { kind: 'start', config: this.config }); // cast: the actor runs incusHpaMachine
    const connection = this.options.connection ?? connectionOf(this.options.client);
    if (this.options.events !== false && connection) {
      this.watcher = new LifecycleWatcher(connection, {
        concerns: (name, action) => this.concerns(name, action),
        onWake: (why) => this.wake(why),
      });
      this.watcher.start();
      // Subscribed before the first list (an informer watches from its list's version): nothing
      // that happens after that observe is missed.
      await this.watcher.whenOpen(EVENTS_OPEN_WAIT_MS);
    }
    actor.start();
    return adoption;
  }

  /** A config edit: applies from the machine's next phase (CONFIG.UPDATE), image/profiles at the next create. */
  update(next: RealHpaConfig): void {
    this.settings = next.settings;
    this.config = next.config;
    this.actor?.send(hpaBinding.configEvent(next.config));
  }

  /** Note a problem in the trace without touching the loop (e.g. an invalid config edit). */
  note(text: string): void {
    if (this.snapshot) this.pushFrame('real.note', text, this.snapshot);
  }

  get phase(): Phase | undefined {
    return this.snapshot ? phaseOf(this.snapshot.tags) : undefined;
  }

  get context(): HpaContext | undefined {
    return this.snapshot?.context;
  }

  /** Resolves with the first snapshot (from now on, or the current one) that satisfies `test`. */
  waitFor(test: (s: Snapshot) => boolean, timeoutMs = 60_000): Promise<Snapshot> {
    if (this.snapshot && test(this.snapshot)) return Promise.resolve(this.snapshot);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for the HPA loop`));
      }, timeoutMs);
      const check = (s: Snapshot) => {
        if (!test(s)) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(s);
      };
      this.listeners.add(check);
    });
  }

  /** One period: resolves when the loop reaches wait (done) or backoff (an error). */
  async runOnce(timeoutMs = 300_000): Promise<'done' | 'error'> {
    const s = await this.waitFor((snap) => snap.matches('waiting') || snap.matches('backoff'), timeoutMs);
    return s.matches('waiting') ? 'done' : 'error';
  }

  /** Stop cleanly: an act in progress (create, stop+delete) is finished first. */
  async stop(): Promise<void> {
    this.stopWaking();
    if (this.snapshot && phaseOf(this.snapshot.tags) === 'act') {
      await this.waitFor((s) => phaseOf(s.tags) !== 'act', 180_000).catch(() => undefined);
    }
    this.actor?.stop();
    this.abort.abort(new Error('runner stopped'));
  }

  /** Stop at once (the lease is lost): requests in flight are aborted, nothing more is started. */
  abortNow(why: string): void {
    this.stopWaking();
    if (this.snapshot) this.pushFrame('real.lease', why, this.snapshot);
    this.actor?.stop();
    this.abort.abort(new Error(why));
  }

  private stopWaking(): void {
    this.stopped = true;
    this.watcher?.stop();
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
  }

  trace(): Trace<HpaWorldSummary> {
    return {
      version: TRACE_VERSION,
      loop: 'incus-hpa',
      scenario: this.options.scenario ?? this.options.config.file,
      seed: 0,
      policy: this.config.policy,
      frames: this.frames,
    };
  }

  private record(event: EventObject, snapshot: Snapshot): void {
    // The delete being answered is the previous snapshot's first pending action (shifted since).
    const previous = this.snapshot;
    const acted = previous?.context.pending[0];
    const wasWaiting = previous?.matches('waiting') ?? false;
    this.snapshot = snapshot;
    const facts: FrameFacts = { period: this.period, taken: true };
    if (snapshot.matches('observing') && !previous?.matches('observing')) {
      this.lastObserveAt = this.now();
      this.observeStarted = performance.now();
      facts.period = ++this.period;
      facts.periodStarted = true;
    }
    if (previous?.matches('observing') && !snapshot.matches('observing')) facts.observeMs = performance.now() - this.observeStarted;
    if (snapshot.matches('waiting') && !wasWaiting) facts.periodEnded = 'done';
    if (snapshot.matches('backoff') && !previous?.matches('backoff')) facts.periodEnded = 'error';
    if (event.type === 'xstate.done.actor.observe') {
      const d = snapshot.context.decision;
      if (d) facts.verdict = verdictOf(d);
      else facts.error = { actor: 'policy', kind: 'policy' }; // a policy module failed on it
    }
    if (event.type === 'xstate.done.actor.createPod') {
      const out = (event as { output?: { name?: string } }).output; // cast: createPod's done event carries CreateOutput
      if (out?.name) this.created.set(out.name, this.now());
      facts.act = { kind: 'create', ...(out?.name ? { instance: out.name } : {}), outcome: outcomeOf(this.notDone) };
    }
    if (event.type === 'xstate.done.actor.deletePod') {
      facts.act = { kind: 'delete', ...(acted?.kind === 'delete' ? { instance: acted.name } : {}), outcome: outcomeOf(this.notDone) };
    }
    const failed = /^xstate\.error\.actor\.(observe|createPod|deletePod)$/.exec(event.type)?.[1];
    if (failed) {
      const actor: ErrorActor = failed === 'observe' ? 'observe' : failed === 'createPod' ? 'create' : 'delete';
      facts.error = { actor, kind: errorKind((event as { error?: unknown }).error) }; // cast: an xstate.error.actor event carries error
      if (actor !== 'observe')
        facts.act = { kind: actor, ...(actor === 'delete' && acted?.kind === 'delete' ? { instance: acted.name } : {}), outcome: 'error' };
    }
    if (!wasWaiting && snapshot.matches('waiting') && this.dirty !== undefined) {
      const { why, at } = this.dirty;
      this.dirty = undefined;
      // Only if this period's observe began before the event (after a backoff it began after: seen).
      // After this snapshot is recorded: the period timer is scheduled by then.
      if (this.lastObserveAt <= at) setImmediate(() => this.fireWake(`${why} (during the period)`));
    }
    const io = frameIoOf(event, { acted, lastList: this.lastList, config: this.config, notDone: this.notDone });
    let note = hpaBinding.note?.(snapshot.context, event);
    if (event.type === 'xstate.done.actor.createPod' || event.type === 'xstate.done.actor.deletePod') {
      if (this.notDone) note = this.notDone;
      else if (acted?.kind === 'delete') note = `deleted ${acted.name}`;
      this.notDone = undefined;
    }
    this.pushFrame(event.type, note, snapshot, facts, io, this.takenAt.get(event));
    for (const l of [...this.listeners]) l(snapshot);
  }

  private summary(): HpaWorldSummary {
    const name = this.config.name;
    const shown = this.lastList.filter((i) => ownerOf(i) === name || i.name.startsWith(this.config.namePrefix));
    const pods = shown.map((i) => {
      const usage = i.state?.memory?.usage ?? 0;
      const total = i.state?.memory?.total ?? 0;
      const status = (i.state?.status ?? i.status) as HpaWorldSummary['pods'][number]['status']; // cast: unchecked: Incus's status text, trusted to be one of its documented statuses
      return {
        name: i.name,
        status,
        owned: ownerOf(i) === name,
        usage,
        total,
        pct: total > 0 && status === 'Running' ? Math.floor((usage * 100) / total) : null,
      };
    });
    // Real mode cannot see the demand itself: report what the owned running pods use.
    const demand = pods.filter((p) => p.owned && p.status === 'Running').reduce((s, p) => s + p.usage, 0);
    // Unowned instances are never touched in real mode (refusals are listed in `refusals`).
    return { demand, pods, apiCalls: this.options.client.requestCount, unownedTouched: 0 };
  }

  private pushFrame(
    event: string,
    note: FrameNote | undefined,
    snapshot: Snapshot,
    facts: FrameFacts = { period: this.period },
    io?: HpaFrameIo,
    takenAt?: number,
  ): void {
    // Frames stay in time order (an event queued behind another is taken after it).
    const t = Math.max(takenAt ?? this.now(), this.frames.at(-1)?.t ?? 0);
    const frame: RealFrame = {
      t,
      state: dottedState(snapshot.value),
      phase: phaseOf(snapshot.tags),
      event,
      world: this.summary(),
      controller: realHpaController(snapshot.context, this.lastList, t, this.epoch, this.options.policies ?? NO_POLICY_MODULES),
    };
    Object.assign(frame, noteFields(note));
    if (io) frame.io = io;
    this.frames.push(frame);
    if (this.options.maxFrames !== undefined && this.frames.length > this.options.maxFrames)
      this.frames.splice(0, this.frames.length - this.options.maxFrames);
    this.options.onFrame?.(frame, facts);
  }
}
