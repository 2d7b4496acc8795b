import type { AnyStateMachine, ContextFrom, EventObject } from 'xstate';
import type { ViewSnapshot } from './view-snapshot';
import type { ControllerSummary } from './loop-schemas';
import type { LoopBinding } from './model';
import type { FrameNote } from './notes';
import { noteFields } from './notes';
import { commonNote } from './notes/common';
import type { StepState } from './step';
import { Stepper } from './step';
import type { Frame, Phase, Trace } from './trace';
import { TRACE_VERSION, dottedState, phaseOf } from './trace';

export type TimelineEntry<F, C> = { at: number; fault: F } | { at: number; config: Partial<C> };

/** A checkpoint: the stepper's state plus where the run was in its timeline and trace. */
interface Checkpoint<W, C> {
  step: StepState<W, C>;
  nextTimeline: number;
  frameCount: number;
  lastEvent: EventObject | undefined;
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
  /** Keep a checkpoint per processed item so stepBack() can rewind. Default false. */
  checkpoints?: boolean;
}

/**
 * Steps any loop: a virtual clock, the scenario's timeline, the trace, time travel. The stepping
 * rules themselves (machine through XState's pure transition, invoked actors as world operations,
 * delayed events as queue items) are the pure Stepper in ./step, shared with the explorer, so a
 * run is a pure function of (scenario, seed).
 */
export class Runner<W, F, C, M extends AnyStateMachine = AnyStateMachine> {
  readonly frames: Frame[] = [];
  private state: StepState<W, C>;
  private nextTimeline = 0;
  private frameCount = 0;
  private readonly stepper: Stepper<W, F, C>;
  private readonly history: Checkpoint<W, C>[] = [];
  private readonly timeline: TimelineEntry<F, C>[];
  private readonly record: boolean;
  private readonly keepCheckpoints: boolean;
  private eventOfLastFrame: EventObject | undefined = { type: 'xstate.init' };
  /** The config in force from each recorded frame on where it changed (a scenario's or a user's edit). */
  private readonly configChanges: { frame: number; config: C }[] = [];

  constructor(
    readonly binding: LoopBinding<W, F, C, ControllerSummary, M>,
    private readonly options: RunnerOptions<W, F, C>,
  ) {
    // Stable sort: entries at the same instant keep the scenario's order.
    this.timeline = [...(options.timeline ?? [])].sort((a, b) => a.at - b.at);
    this.record = options.recordFrames ?? true;
    this.keepCheckpoints = options.checkpoints ?? false;
    this.stepper = new Stepper(binding);
    this.state = this.stepper.initial(options.config, options.world);
    this.pushFrame('xstate.init', this.noteFor({ type: 'xstate.init' }));
  }

  get t(): number {
    return this.state.t;
  }
  /** The machine's snapshot, its context typed as the binding's machine has it. */
  get snapshot(): ViewSnapshot<ContextFrom<M>> {
    return this.state.snapshot;
  }
  get world(): W {
    return this.state.world;
  }
  get config(): C {
    return this.state.config;
  }
  /** The config in force at recorded frame `index`: what a view of that frame draws with, not the present's. */
  configAt(index: number): C {
    for (let i = this.configChanges.length - 1; i >= 0; i--)
      if (this.configChanges[i]!.frame <= index) return this.configChanges[i]!.config;
    return this.options.config;
  }
  get phase(): Phase {
    return phaseOf(this.state.snapshot.tags);
  }
  get stateValue(): string {
    return dottedState(this.state.snapshot.value);
  }
  /**
   * The event the machine was sent for the last frame, payload included (an actor's output, a
   * config); undefined when that frame is a change of the world the machine was not told of.
   */
  get lastEvent(): EventObject | undefined {
    return this.eventOfLastFrame;
  }
  /** The stepper's state now (immutable: steps make new ones), for a canonical key (sim/check). */
  get stepState(): Readonly<StepState<W, C>> {
    return this.state;
  }

  /** When the next thing happens (a timeline entry, a delayed event, an operation's end). */
  get nextEventAt(): number | undefined {
    const next = this.upcoming();
    return next?.entry ? Math.max(next.entry.at, this.state.t) : next?.item.at;
  }

  /** What happens next. Timeline entries go first at equal times: the world changes, then the loop sees it. */
  private upcoming() {
    const entry = this.timeline[this.nextTimeline];
    const item = this.stepper.next(this.state);
    if (entry && (!item || entry.at <= item.at)) return { entry };
    return item ? { item, entry: undefined } : undefined;
  }

  trace(): Trace {
    const { scenario, seed, policy } = this.options;
    return { version: TRACE_VERSION, loop: this.binding.loop, scenario, seed, ...(policy ? { policy } : {}), frames: this.frames };
  }

  /** Processes the next thing that happens. Returns false when nothing is left. */
  processNext(): boolean {
    const next = this.upcoming();
    if (!next) return false;
    this.checkpoint();
    const { entry } = next;
    if (entry) {
      this.nextTimeline++;
      this.state = { ...this.state, t: Math.max(this.state.t, entry.at) };
      this.applyChange('world.timeline', entry);
      return true;
    }
    const ticked = this.stepper.tick(this.state)!;
    this.state = ticked.state;
    // An operation whose controller is gone (restarted) changes the world but sends nothing.
    if (ticked.event) {
      this.eventOfLastFrame = ticked.event;
      this.pushFrame(ticked.event.type, this.noteFor(ticked.event));
    }
    return true;
  }

  /** Runs until virtual time `until` (ms); things due at exactly `until` happen. */
  run(until: number): this {
    for (let next = this.nextEventAt; next !== undefined && next <= until; next = this.nextEventAt) this.processNext();
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
    const phaseAt = (c: Checkpoint<W, C>) => phaseOf(c.step.snapshot.tags);
    const current = this.phase;
    let target: Checkpoint<W, C> | undefined;
    // Skip back over the current phase, then over the previous one to its first checkpoint.
    while (this.history.length && phaseAt(this.history[this.history.length - 1]!) === current) this.history.pop();
    const previous = this.history.length ? phaseAt(this.history[this.history.length - 1]!) : undefined;
    while (this.history.length && phaseAt(this.history[this.history.length - 1]!) === previous) target = this.history.pop();
    if (!target) return this;
    this.state = target.step;
    this.nextTimeline = target.nextTimeline;
    this.frameCount = target.frameCount;
    this.eventOfLastFrame = target.lastEvent;
    this.frames.length = Math.min(this.frames.length, target.frameCount);
    while (this.configChanges.length && this.configChanges[this.configChanges.length - 1]!.frame >= this.frames.length)
      this.configChanges.pop();
    return this;
  }

  /** Injects a fault (or load change) now. */
  inject(fault: F): this {
    this.checkpoint();
    this.applyChange('world.inject', { at: this.state.t, fault });
    return this;
  }

  /** Changes the desired state (config) now; the loop reacts from its next phase on. */
  update(config: Partial<C>): this {
    this.checkpoint();
    this.applyChange('world.inject', { at: this.state.t, config });
    return this;
  }

  private applyChange(source: string, entry: TimelineEntry<F, C>): void {
    if ('config' in entry) {
      this.state = this.stepper.update(this.state, entry.config);
      const event = this.binding.configEvent(entry.config);
      this.eventOfLastFrame = event;
      this.pushFrame(event.type, this.noteFor(event));
      if (this.record) this.configChanges.push({ frame: this.frames.length - 1, config: this.state.config });
      return;
    }
    const command = this.binding.command?.(entry.fault);
    if (command) {
      this.state = this.stepper.inject(this.state, entry.fault);
      this.eventOfLastFrame = command;
      this.pushFrame(command.type, this.noteFor(command));
      return;
    }
    if (this.binding.isControllerRestart?.(entry.fault)) {
      this.state = this.stepper.inject(this.state, entry.fault);
      this.eventOfLastFrame = undefined;
      this.pushFrame('controller.restart', commonNote('common.controllerRestarted', {}));
      return;
    }
    const { note } = this.binding.world.inject(this.state.world, entry.fault, this.state.t);
    this.state = this.stepper.inject(this.state, entry.fault);
    this.eventOfLastFrame = undefined;
    this.pushFrame(source, note);
  }

  private noteFor(event: EventObject): FrameNote | undefined {
    return this.binding.note?.(this.state.snapshot.context, event);
  }

  private checkpoint(): void {
    if (this.keepCheckpoints)
      this.history.push({
        step: this.state,
        nextTimeline: this.nextTimeline,
        frameCount: this.frameCount,
        lastEvent: this.eventOfLastFrame,
      });
  }

  private pushFrame(event: string, note: FrameNote | undefined): void {
    this.frameCount++;
    if (!this.record) return;
    const { t, world, snapshot } = this.state;
    const state = this.stateValue;
    const frame: Frame = { t, state, phase: this.phase, event, world: this.binding.world.summary(world, t) };
    const controller = this.binding.controller?.(snapshot.context, world, t, state);
    if (controller) frame.controller = controller;
    Object.assign(frame, noteFields(note));
    this.frames.push(frame);
  }
}
