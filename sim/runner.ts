import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';
import type { LoopBinding, OpResult } from './model';
import type { ExecutableAction } from './stepper';
import { MachineStepper } from './stepper';
import type { Frame, Phase, Trace } from './trace';
import { dottedState, phaseOf } from './trace';

export type TimelineEntry<F, C> = { at: number; fault: F } | { at: number; config: Partial<C> };

type QueueItem =
  | { at: number; seq: number; kind: 'event'; event: EventObject; sendId?: string }
  | { at: number; seq: number; kind: 'op'; opId: number; childId: string; actor: AnyActorRef }
  | { at: number; seq: number; kind: 'timeline'; index: number };

/** Everything needed to resume a run at one instant; immutable, so it doubles as a checkpoint. */
export interface RunnerState<W, C> {
  t: number;
  snapshot: AnyMachineSnapshot;
  world: W;
  config: C;
  queue: readonly QueueItem[];
  seq: number;
  frameCount: number;
}

export interface RunnerOptions<W, F, C> {
  scenario: string;
  seed: number;
  policy?: string;
  world: W;
  config: C;
  timeline?: TimelineEntry<F, C>[];
  /** Keep frames in memory (the trace). Off for benchmarks. Default true. */
  recordFrames?: boolean;
  /** Keep a checkpoint per frame so stepBack() can rewind. Default false. */
  checkpoints?: boolean;
}

const byTime = (a: QueueItem, b: QueueItem) => a.at - b.at || a.seq - b.seq;

/**
 * Steps any loop: a virtual clock, an event queue, the trace. The machine advances only through
 * XState's pure `transition`; its invoked actors become world operations and its delayed events
 * become queue items, so a run is a pure function of (scenario, seed).
 */
export class Runner<W, F, C> {
  readonly frames: Frame[] = [];
  private state: RunnerState<W, C>;
  private readonly history: RunnerState<W, C>[] = [];
  private readonly timeline: TimelineEntry<F, C>[];
  private readonly record: boolean;
  private readonly keepCheckpoints: boolean;
  private readonly stepper: MachineStepper;

  constructor(readonly binding: LoopBinding<W, F, C>, private readonly options: RunnerOptions<W, F, C>) {
    this.timeline = [...(options.timeline ?? [])].sort((a, b) => a.at - b.at);
    this.record = options.recordFrames ?? true;
    this.keepCheckpoints = options.checkpoints ?? false;
    this.stepper = new MachineStepper(binding.machine);
    const [snapshot, actions] = this.stepper.initial(binding.machineInput(options.config));
    this.state = { t: 0, snapshot, world: options.world, config: options.config, queue: [], seq: 0, frameCount: 0 };
    this.state = { ...this.state, queue: this.timeline.map((e, index) => ({ at: e.at, seq: index - this.timeline.length, kind: 'timeline' as const, index })) };
    this.execute(actions);
    this.pushFrame('xstate.init', this.noteFor({ type: 'xstate.init' }));
  }

  get t(): number { return this.state.t; }
  get snapshot(): AnyMachineSnapshot { return this.state.snapshot; }
  get world(): W { return this.state.world; }
  get config(): C { return this.state.config; }
  get phase(): Phase { return phaseOf(this.state.snapshot.tags); }
  get stateValue(): string { return dottedState(this.state.snapshot.value); }
  get nextEventAt(): number | undefined { return this.nextItem()?.at; }

  trace(): Trace {
    const { scenario, seed, policy } = this.options;
    return { loop: this.binding.loop, scenario, seed, ...(policy ? { policy } : {}), frames: this.frames };
  }

  /** Processes the earliest queued item. Returns false when nothing is left. */
  processNext(): boolean {
    const item = this.nextItem();
    if (!item) return false;
    this.checkpoint();
    this.state = { ...this.state, t: Math.max(this.state.t, item.at), queue: this.state.queue.filter((q) => q !== item) };
    if (item.kind === 'event') this.send(item.event);
    else if (item.kind === 'op') this.completeOp(item);
    else this.applyTimeline(item.index);
    return true;
  }

  /** Runs until virtual time `until` (ms); items due at exactly `until` are processed. */
  run(until: number): this {
    for (let next = this.nextItem(); next && next.at <= until; next = this.nextItem()) this.processNext();
    if (this.state.t < until) this.state = { ...this.state, t: until };
    return this;
  }

  /** Advances to the next phase boundary (the next frame whose phase differs). */
  step(maxItems = 10_000): this {
    const start = this.phase;
    for (let i = 0; i < maxItems && this.phase === start; i++) if (!this.processNext()) break;
    return this;
  }

  /** Rewinds to the start of the previous phase (needs `checkpoints: true`). */
  stepBack(): this {
    if (!this.keepCheckpoints) throw new Error('stepBack needs a runner created with checkpoints: true');
    const current = this.phase;
    let target: RunnerState<W, C> | undefined;
    // Skip back over the current phase, then over the previous one to its first frame.
    while (this.history.length && phaseOf(this.history[this.history.length - 1]!.snapshot.tags) === current) this.history.pop();
    const previous = this.history.length ? phaseOf(this.history[this.history.length - 1]!.snapshot.tags) : undefined;
    while (this.history.length && phaseOf(this.history[this.history.length - 1]!.snapshot.tags) === previous) target = this.history.pop();
    if (!target) return this;
    this.state = target;
    this.frames.length = target.frameCount;
    return this;
  }

  /** Injects a fault (or load change) now. */
  inject(fault: F): this {
    this.checkpoint();
    if (this.binding.isControllerRestart?.(fault)) {
      this.restartController();
      return this;
    }
    const { world, note } = this.binding.world.inject(this.state.world, fault, this.state.t);
    this.state = { ...this.state, world };
    this.pushFrame('world.inject', note);
    return this;
  }

  /** Changes the desired state (config) now; the loop reacts from its next phase on. */
  update(config: Partial<C>): this {
    this.checkpoint();
    this.state = { ...this.state, config: { ...this.state.config, ...config } };
    this.send(this.binding.configEvent(config));
    return this;
  }

  /** A controller restart: the process dies and starts again with empty memory. Operations
   * it had in flight still complete in the world; their answers go nowhere. */
  private restartController(): void {
    const [snapshot, actions] = this.stepper.initial(this.binding.machineInput(this.state.config));
    this.state = { ...this.state, snapshot, queue: this.state.queue.filter((q) => q.kind !== 'event') };
    this.execute(actions);
    this.pushFrame('controller.restart', 'controller restarted: memory lost, starts observing again');
  }

  private applyTimeline(index: number): void {
    const entry = this.timeline[index]!;
    if ('config' in entry) {
      this.state = { ...this.state, config: { ...this.state.config, ...entry.config } };
      this.send(this.binding.configEvent(entry.config));
      return;
    }
    if (this.binding.isControllerRestart?.(entry.fault)) return this.restartController();
    const { world, note } = this.binding.world.inject(this.state.world, entry.fault, this.state.t);
    this.state = { ...this.state, world };
    this.pushFrame('world.timeline', note);
  }

  private completeOp(item: Extract<QueueItem, { kind: 'op' }>): void {
    const { world, result } = this.binding.world.complete(this.state.world, item.opId, this.state.t);
    this.state = { ...this.state, world };
    // A stopped or restarted controller no longer listens for this answer.
    if (this.state.snapshot.children[item.childId] !== item.actor) return;
    this.send(doneEvent(item.childId, result));
  }

  private send(event: EventObject): void {
    const [snapshot, actions] = this.stepper.transition(this.state.snapshot, event);
    this.state = { ...this.state, snapshot };
    this.execute(actions);
    this.pushFrame(event.type, this.noteFor(event));
  }

  private execute(actions: ExecutableAction[]): void {
    for (const action of actions) {
      if (action.type === 'xstate.spawnChild') {
        const p = action.params as { id: string; src: unknown; input: unknown; actorRef: AnyActorRef };
        if (typeof p.src !== 'string') throw new Error(`invoked actor "${p.id}" must be named (src as a string)`);
        const { world, opId, doneAt } = this.binding.world.begin(this.state.world, p.src, p.input, this.state.t);
        this.state = { ...this.state, world };
        this.enqueue({ at: doneAt, kind: 'op', opId, childId: p.id, actor: p.actorRef });
      } else if (action.type === 'xstate.raise') {
        const p = action.params as { event: EventObject; delay?: number; id?: string };
        if (p.delay !== undefined) this.enqueue({ at: this.state.t + p.delay, kind: 'event', event: p.event, ...(p.id ? { sendId: p.id } : {}) });
      } else if (action.type === 'xstate.cancel') {
        const sendId = action.params as string;
        this.state = { ...this.state, queue: this.state.queue.filter((q) => !(q.kind === 'event' && q.sendId === sendId)) };
      }
    }
  }

  private enqueue(item: Omit<Extract<QueueItem, { kind: 'event' }>, 'seq'> | Omit<Extract<QueueItem, { kind: 'op' }>, 'seq'>): void {
    const seq = this.state.seq + 1;
    this.state = { ...this.state, seq, queue: [...this.state.queue, { ...item, seq } as QueueItem] };
  }

  private nextItem(): QueueItem | undefined {
    let best: QueueItem | undefined;
    for (const q of this.state.queue) if (!best || byTime(q, best) < 0) best = q;
    return best;
  }

  private noteFor(event: EventObject): string | undefined {
    return this.binding.note?.(this.state.snapshot.context, event);
  }

  private checkpoint(): void {
    if (this.keepCheckpoints) this.history.push(this.state);
  }

  private pushFrame(event: string, note: string | undefined): void {
    this.state = { ...this.state, frameCount: this.state.frameCount + 1 };
    if (!this.record) return;
    const frame: Frame = {
      t: this.state.t, state: this.stateValue, phase: this.phase, event,
      world: this.binding.world.summary(this.state.world, this.state.t),
    };
    if (note) frame.note = note;
    this.frames.push(frame);
  }
}

function doneEvent(childId: string, result: OpResult): EventObject {
  return result.ok
    ? { type: `xstate.done.actor.${childId}`, output: result.output, actorId: childId } as EventObject
    : { type: `xstate.error.actor.${childId}`, error: new Error(result.error), actorId: childId } as EventObject;
}
