import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { LoopBinding, OpResult } from './model';
import type { ExecutableAction } from './pure-machine';
import { PureMachine } from './pure-machine';
import { MemoMachine } from './memo-machine';
import { builtinAction } from './xstate-actions';

/** A queued item, as in sim/runner.ts; an op remembers its own seq instead of the actor object. */
export type StepItem =
  | { at: number; seq: number; kind: 'event'; event: EventObject; sendId?: string }
  | { at: number; seq: number; kind: 'op'; opId: number; childId: string };

/**
 * One instant of a run as plain immutable data, so the explorer can branch from it freely.
 * `live` maps an invoked child's id to the seq of the op whose answer it waits for: the runner's
 * "is this still the same actor object" test, made comparable across branches and hashable.
 */
export interface StepState<W, C> {
  t: number;
  snapshot: AnyMachineSnapshot;
  world: W;
  config: C;
  queue: readonly StepItem[];
  seq: number;
  live: Readonly<Record<string, number>>;
}

const byTime = (a: StepItem, b: StepItem) => a.at - b.at || a.seq - b.seq;

/**
 * The runner's stepping rules (sim/runner.ts: processNext, completeOp, execute, restartController,
 * inject, update) as pure functions over StepState. No loop logic lives here: the machine steps
 * through XState and the world through the binding's WorldModel. test/check/step.test.ts holds
 * this to the Runner frame by frame.
 */
export interface StepperOptions {
  /** Memoise the machine's transitions (sim/memo-machine.ts); the explorer turns it on. */
  memo?: boolean;
}

export class Stepper<W, F, C> {
  readonly pure: PureMachine | MemoMachine;

  /** The initial transition depends only on the config; liveness is by seq, not by actor object,
   * so one snapshot can be shared by every restart with that config. */
  private readonly initials = new WeakMap<object, [AnyMachineSnapshot, ExecutableAction[]]>();

  constructor(
    readonly binding: LoopBinding<W, F, C>,
    options: StepperOptions = {},
  ) {
    this.pure = options.memo ? new MemoMachine(binding.machine) : new PureMachine(binding.machine);
  }

  private initialFor(config: C): [AnyMachineSnapshot, ExecutableAction[]] {
    if (typeof config !== 'object' || config === null) return this.pure.initial(this.binding.machineInput(config));
    let hit = this.initials.get(config);
    if (!hit) {
      hit = this.pure.initial(this.binding.machineInput(config));
      this.initials.set(config, hit);
    }
    return hit;
  }

  initial(config: C, world: W): StepState<W, C> {
    const [snapshot, actions] = this.initialFor(config);
    return this.execute({ t: 0, snapshot, world, config, queue: [], seq: 0, live: {} }, actions);
  }

  next(state: StepState<W, C>): StepItem | undefined {
    let best: StepItem | undefined;
    for (const q of state.queue) if (!best || byTime(q, best) < 0) best = q;
    return best;
  }

  /** Processes the earliest queued item (Runner.processNext); undefined when nothing is left. */
  tick(state: StepState<W, C>): { state: StepState<W, C>; item: StepItem; event?: EventObject } | undefined {
    const item = this.next(state);
    if (!item) return undefined;
    const s = { ...state, t: Math.max(state.t, item.at), queue: state.queue.filter((q) => q !== item) };
    if (item.kind === 'event') return { state: this.send(s, item.event), item, event: item.event };
    const { world, result } = this.binding.world.complete(s.world, item.opId, s.t);
    const after = { ...s, world };
    // A stopped or restarted controller no longer listens for this answer.
    if (!this.isLive(after, item)) return { state: after, item };
    const event = doneEvent(item.childId, result);
    return { state: this.send(after, event), item, event };
  }

  isLive(state: StepState<W, C>, item: Extract<StepItem, { kind: 'op' }>): boolean {
    return state.snapshot.children[item.childId] !== undefined && state.live[item.childId] === item.seq;
  }

  /** Runner.inject: a world fault now, or a controller restart. */
  inject(state: StepState<W, C>, fault: F): StepState<W, C> {
    const command = this.binding.command?.(fault);
    if (command) return this.send(state, command);
    // The world sees the crash too (e.g. a request on the wire it never gets), then the controller starts afresh.
    if (this.binding.isControllerRestart?.(fault))
      return this.restart({ ...state, world: this.binding.world.inject(state.world, fault, state.t).world });
    const { world, retime } = this.binding.world.inject(state.world, fault, state.t);
    if (!retime?.length) return { ...state, world };
    const earlier = (q: StepItem) => (q.kind === 'op' ? retime.find((r) => r.opId === q.opId && r.at < q.at)?.at : undefined);
    return {
      ...state,
      world,
      queue: state.queue.map((q) => {
        const at = earlier(q);
        return at === undefined ? q : { ...q, at };
      }),
    };
  }

  /** Runner.update: the desired state changes now. */
  update(state: StepState<W, C>, config: Partial<C>): StepState<W, C> {
    return this.send({ ...state, config: { ...state.config, ...config } }, this.binding.configEvent(config));
  }

  private restart(state: StepState<W, C>): StepState<W, C> {
    const [snapshot, actions] = this.initialFor(state.config);
    return this.execute({ ...state, snapshot, live: {}, queue: state.queue.filter((q) => q.kind !== 'event') }, actions);
  }

  private send(state: StepState<W, C>, event: EventObject): StepState<W, C> {
    const [snapshot, actions] = this.pure.transition(state.snapshot, event);
    const next = this.execute({ ...state, snapshot }, actions);
    // The loop's property monitor (if any) sees the event once its effects are in the world.
    return this.binding.monitor ? { ...next, world: this.binding.monitor(next.world, event, snapshot, next.t) } : next;
  }

  private execute(state0: StepState<W, C>, actions: ExecutableAction[]): StepState<W, C> {
    let state = state0;
    for (const executed of actions) {
      const action = builtinAction(executed);
      if (action.type === 'xstate.spawnChild') {
        const p = action.params;
        if (typeof p.src !== 'string') throw new Error(`invoked actor "${p.id}" must be named (src as a string)`);
        const { world, opId, doneAt } = this.binding.world.begin(state.world, p.src, p.input, state.t);
        const seq = state.seq + 1;
        state = {
          ...state,
          world,
          seq,
          live: { ...state.live, [p.id]: seq },
          queue: [...state.queue, { at: doneAt, seq, kind: 'op', opId, childId: p.id }],
        };
      } else if (action.type === 'xstate.raise') {
        const p = action.params;
        if (p.delay === undefined) continue;
        const seq = state.seq + 1;
        const item: StepItem = { at: state.t + p.delay, seq, kind: 'event', event: p.event, ...(p.id ? { sendId: p.id } : {}) };
        state = { ...state, seq, queue: [...state.queue, item] };
      } else if (action.type === 'xstate.cancel') {
        // XState's scheduler.cancel: drops the pending delayed event with this id (an `after` on exit).
        const { sendId } = action.params;
        state = { ...state, queue: state.queue.filter((q) => !(q.kind === 'event' && q.sendId === sendId)) };
      }
    }
    return state;
  }
}

/** Same shape as the runner's done/error events for an invoked actor. */
export function doneEvent(childId: string, result: OpResult): EventObject {
  return result.ok
    ? ({ type: `xstate.done.actor.${childId}`, output: result.output, actorId: childId } as EventObject) // cast: XState's done event shape
    : ({ type: `xstate.error.actor.${childId}`, error: new Error(result.error), actorId: childId } as EventObject); // cast: XState's error event shape
}
