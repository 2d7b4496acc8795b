import type { AnyActorScope, AnyMachineSnapshot, AnyStateMachine, EventObject, ExecutableActionObject } from 'xstate';
import { createActor } from 'xstate';

export type ExecutableAction = ExecutableActionObject;

/**
 * XState's pure `transition()` / `initialTransition()` (xstate src/transition.ts) build a fresh
 * inert actor scope on every call — `createInertActorScope` constructs a whole Actor, which runs
 * the machine's initial transition — about 4/5 of the cost of one step. The explorer makes
 * millions of steps, so it builds that inert scope once per machine and calls the machine's own
 * `transition` / `getInitialSnapshot` with it: same machine, same results, no second logic.
 * Children spawned this way are never started, so the shared scope's system holds no references.
 */
export class PureMachine {
  private readonly actions: ExecutableAction[] = [];
  private readonly scope: AnyActorScope;

  constructor(readonly machine: AnyStateMachine) {
    const self = createActor(machine);
    // Inert: it records the actions XState hands back instead of executing them.
    this.scope = {
      self,
      defer: () => {},
      id: '',
      logger: () => {},
      sessionId: '',
      stopChild: () => {},
      system: self.system,
      emit: () => {},
      actionExecutor: (action: ExecutableAction) => {
        this.actions.push(action);
      },
    };
  }

  initial(input: unknown): [AnyMachineSnapshot, ExecutableAction[]] {
    this.actions.length = 0;
    const snapshot = this.machine.getInitialSnapshot(this.scope, input) as AnyMachineSnapshot; // cast: widened to any machine's snapshot
    return [snapshot, this.actions.splice(0)];
  }

  transition(snapshot: AnyMachineSnapshot, event: EventObject): [AnyMachineSnapshot, ExecutableAction[]] {
    this.actions.length = 0;
    const next = this.machine.transition(snapshot, event, this.scope) as AnyMachineSnapshot; // cast: widened to any machine's snapshot
    return [next, this.actions.splice(0)];
  }
}
