import { framesOf } from '../../sim/loop-frames';
import type { RunnerOf } from '../../sim/loop-runner';
import { runnerOf } from '../../sim/loop-runner';
import type { LoopId } from '../../sim/loops/loop-id';
import type { Runner } from '../../sim/runner';
import type { Frame, FrameOf, Trace } from '../../sim/trace';

// The lab speaks to any runner; its world, fault and config types belong to the loop.
export type AnyRunner = Runner<unknown, unknown, unknown>;

export type SessionSource =
  { kind: 'sim'; runner: AnyRunner; durationMs: number; scenario: string } | { kind: 'trace'; trace: Trace; fileName: string };

/**
 * What the lab is looking at: a live simulation (a Runner, which can go forward, rewind and fork)
 * or a recorded trace (frames only). The view can sit on any recorded frame (the scrubber);
 * `viewIndex === null` means "the present". React reads it through subscribe/version.
 */
let nextId = 0;

export class LabSession {
  /** Identifies this run for React (a new run remounts the lab). */
  readonly id = ++nextId;
  readonly loop: string;
  readonly frames: Frame[];
  private viewIndex: number | null = null;
  /** Virtual time while replaying a trace (a runner keeps its own). */
  private traceTime = 0;
  private listeners = new Set<() => void>();
  version = 0;

  constructor(readonly source: SessionSource) {
    if (source.kind === 'sim') {
      this.loop = source.runner.binding.loop;
      this.frames = source.runner.frames;
    } else {
      this.loop = source.trace.loop;
      this.frames = source.trace.frames;
      this.viewIndex = 0;
      this.traceTime = this.frames[0]?.t ?? 0;
    }
  }

  get runner(): AnyRunner | undefined {
    return this.source.kind === 'sim' ? this.source.runner : undefined;
  }
  /** The config in force at the frame on screen (a simulation's; a trace records none): views draw a past
   * frame with the config it ran under, not one edited since. */
  get config(): unknown {
    return this.source.kind === 'sim' ? this.source.runner.configAt(this.index) : undefined;
  }
  /** The runner typed as loop L's, when this is a simulation of L (a loop's editors and interventions). */
  runnerOf<L extends LoopId>(loop: L): RunnerOf<L> | undefined {
    return this.runner && runnerOf(loop, this.runner);
  }
  /** The recorded frames typed as loop L's, when this session is L's (sim/loop-frames.ts). */
  framesOf<L extends LoopId>(loop: L): readonly FrameOf<L>[] | undefined {
    return framesOf(loop, this.loop, this.frames);
  }
  /** A lasso trace's first frame of the cycle that repeats forever (a liveness counterexample), if any. */
  get cycleStart(): number | undefined {
    return this.source.kind === 'trace' ? this.source.trace.lasso?.cycleStart : undefined;
  }
  get scenarioName(): string {
    return this.source.kind === 'sim' ? this.source.scenario : this.source.trace.scenario;
  }
  get durationMs(): number {
    return this.source.kind === 'sim' ? this.source.durationMs : (this.frames.at(-1)?.t ?? 0);
  }
  /** The index of the frame on screen. */
  get index(): number {
    return this.viewIndex ?? this.frames.length - 1;
  }
  get atPresent(): boolean {
    return this.viewIndex === null;
  }
  get frame(): Frame {
    return this.frames[this.index]!;
  }
  get time(): number {
    if (this.source.kind === 'trace') return this.traceTime;
    return this.viewIndex === null ? this.source.runner.t : this.frame.t;
  }
  get finished(): boolean {
    return this.time >= this.durationMs && (this.source.kind === 'sim' || this.index >= this.frames.length - 1);
  }

  /** The newest frame with a note at or before the one on screen (optionally of one phase). */
  noteFrame(phase?: Frame['phase']): Frame | undefined {
    for (let i = this.index; i >= 0; i--) {
      const f = this.frames[i]!;
      if (f.note && (!phase || f.phase === phase)) return f;
    }
    return undefined;
  }

  /** Forward to the next phase: replays recorded frames first, then asks the runner. */
  step(): void {
    if (this.viewIndex !== null) {
      const phase = this.frame.phase;
      let i = this.viewIndex;
      while (i < this.frames.length - 1 && this.frames[i]!.phase === phase) i++;
      this.showIndex(i);
    } else if (this.source.kind === 'sim') {
      this.source.runner.step();
    }
    this.changed();
  }

  /** Back to the start of the previous phase. In a simulation at the present this rewinds the
   * runner itself, so the next step, fault or edit forks a new history from there. */
  stepBack(): void {
    if (this.viewIndex === null && this.source.kind === 'sim') {
      this.source.runner.stepBack();
    } else {
      let i = this.index;
      const current = this.frames[i]!.phase;
      while (i > 0 && this.frames[i]!.phase === current) i--;
      const previous = this.frames[i]!.phase;
      while (i > 0 && this.frames[i - 1]!.phase === previous) i--;
      this.showIndex(i);
    }
    this.changed();
  }

  /** Shows a recorded frame (the scrubber). */
  seek(index: number): void {
    this.showIndex(Math.max(0, Math.min(index, this.frames.length - 1)));
    this.changed();
  }

  /** Advances virtual time to t (the play loop). */
  advanceTo(t: number): void {
    const until = Math.min(t, this.durationMs);
    if (this.source.kind === 'sim') {
      this.viewIndex = null;
      this.source.runner.run(until);
    } else {
      let i = this.index;
      while (i < this.frames.length - 1 && this.frames[i + 1]!.t <= until) i++;
      this.viewIndex = i;
      this.traceTime = until;
    }
    this.changed();
  }

  /** Changes the world or the desired state (simulations only). At the present it happens now; while
   * viewing the past the run forks there first (RaftScope's time slider does the same): the later frames
   * are discarded and `forked` says when and what was lost. */
  inject(fault: unknown): void {
    this.forkHere();
    this.runner?.inject(fault);
    this.changed();
  }
  update(config: unknown): void {
    this.forkHere();
    this.runner?.update(config as Partial<unknown>); // cast: unchecked: the lab's runner has its loop's type erased; callers pass a config change object
    this.changed();
  }

  /** Makes virtual time t the present (side by side: every pane at the shared time before a change reaches
   * them all): while viewing the past the run forks at the frame on screen first, then runs on to t. */
  presentAt(t: number): void {
    this.forkHere();
    this.runner?.run(Math.min(t, this.durationMs));
    this.changed();
  }

  /** The last fork: the moment the run went back to, and where it had been. */
  forked: { at: number; was: number } | null = null;

  private forkHere(): void {
    const runner = this.runner;
    if (this.viewIndex === null || !runner) {
      this.viewIndex = null;
      return;
    }
    const keep = this.viewIndex + 1;
    const was = runner.t;
    // stepBack rewinds to phase starts; processNext then replays item by item up to the frame on screen.
    while (runner.frames.length > keep) {
      const before = runner.frames.length;
      runner.stepBack();
      if (runner.frames.length === before) break;
    }
    while (runner.frames.length < keep && runner.processNext()) {
      /* replay */
    }
    this.viewIndex = null;
    this.forked = { at: runner.t, was };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getVersion = (): number => this.version;

  private showIndex(i: number): void {
    const end = this.frames.length - 1;
    this.viewIndex = this.source.kind === 'sim' && i >= end ? null : i;
    if (this.source.kind === 'trace') this.traceTime = this.frames[i]!.t;
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
