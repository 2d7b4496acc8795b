import type { AnyStateMachine, ContextFrom, EventObject } from 'xstate';
import type { ControllerSummary } from './loop-schemas';
import type { FrameNote } from './notes';
import type { ViewSnapshot } from './view-snapshot';

/** The result of a world operation, delivered to the machine as done/error of its actor. */
export type OpResult = { ok: true; output?: unknown } | { ok: false; error: string };

/**
 * A simulated world: plain serialisable data plus pure functions. Invoked actors of the
 * machine become operations: `begin` changes the world at once and says when the operation
 * completes; `complete` applies its end and returns what the actor would have returned.
 */
export interface WorldModel<W, F, S = unknown> {
  begin(world: W, src: string, input: unknown, t: number): { world: W; opId: number; doneAt: number };
  complete(world: W, opId: number, t: number): { world: W; result: OpResult };
  /** Apply a fault or a load change; returns the new world and a note for the trace. `retime`:
   * operations the change brings forward (e.g. a watch that now has news comes back sooner). */
  inject(world: W, fault: F, t: number): { world: W; note: FrameNote; retime?: { opId: number; at: number }[] };
  /** The drawable summary stored in trace frames (the loop's world schema reads it back). */
  summary(world: W, t: number): S;
}

/**
 * A loop as the runner sees it: its machine, its world, and how to speak to both. `M` is the
 * machine's own type, so `note` and `controller` read its context as XState infers it; the default
 * (any machine) is what the runner, the explorer and the registry hold; so is `WS`, the world's
 * summary type (unknown when not named).
 */
export interface LoopBinding<
  W,
  F,
  C,
  S extends ControllerSummary = ControllerSummary,
  M extends AnyStateMachine = AnyStateMachine,
  WS = unknown,
> {
  loop: string;
  machine: M;
  world: WorldModel<W, F, WS>;
  machineInput(config: C): unknown;
  configEvent(config: Partial<C>): EventObject;
  /** A short note for a frame (what was observed / compared / decided). */
  note?(context: ContextFrom<M>, event: EventObject): FrameNote | undefined;
  /** What the controller observed, compared and decided, as data (frame.controller): the loop's one summary function. */
  controller?(context: ContextFrom<M>, world: W, t: number, state: string): S;
  /**
   * Operator commands (e.g. `systemctl stop`): timeline entries that are neither the world's nor
   * the desired state's. The stepper hands the returned event to the machine; the world never sees them.
   */
  command?(fault: F): EventObject | undefined;
  /** Faults the runner handles itself rather than the world (e.g. a controller restart). */
  isControllerRestart?(fault: F): boolean;
  /**
   * A property monitor (optional): sees every event the machine takes, the snapshot after it and
   * the world after its effects, and returns the world with its monitor data updated. Neither the
   * machine nor the world's operations read that data: it lets state properties (sim/check) judge
   * claims about history (e.g. starts since an operator's stop) from one state.
   */
  monitor?(world: W, event: EventObject, snapshot: ViewSnapshot<ContextFrom<M>>, t: number): W;
}
