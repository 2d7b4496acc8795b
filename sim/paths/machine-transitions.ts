import type {
  AnyActorScope,
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyStateNode,
  AnyTransitionDefinition,
  EventObject,
  InspectionEvent,
} from 'xstate';
import { createActor } from 'xstate';
import { getStateNodes } from 'xstate/graph';

/**
 * One transition of a machine's definition: a state node, the event it handles (an `on` key, an
 * `after` delay, an invoked actor's done/error, or eventless `always`), its guard, its targets.
 * Two guarded branches for one event are two transitions: each is a way the loop can decide.
 */
export interface MachineTransition {
  /** Unique in the machine, readable: `waiting —after period→ observing`. */
  id: string;
  source: string;
  event: string;
  guard?: string;
  targets: string[];
}

const path = (node: AnyStateNode) => node.path.join('.') || '(root)';

/** XState's internal event names, as a reader knows them from the machine's config. */
function eventLabel(type: string): string {
  if (type === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `after ${after[1]}`;
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
  if (done) return `${done[1] === 'done' ? 'done' : 'error'} ${done[2]}`;
  return type;
}

const guardName = (t: AnyTransitionDefinition): string | undefined => {
  const guard: unknown = t.guard;
  if (typeof guard === 'string') return guard;
  if (guard && typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  return guard ? 'inline guard' : undefined;
};

/** Every transition of the machine's definition, in document order, keyed by XState's own definition objects. */
export function definitionTransitions(machine: AnyStateMachine): Map<AnyTransitionDefinition, MachineTransition> {
  const out = new Map<AnyTransitionDefinition, MachineTransition>();
  const used = new Map<string, number>();
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    // StateNode.transitions holds `on`, `after` and invoke onDone/onError (XState's formatTransitions); `always` is apart.
    const defs = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const t of defs) {
      const targets = (t.target ?? []).map(path);
      const guard = guardName(t);
      const base = `${path(node)} —${eventLabel(t.eventType)}${guard ? ` [${guard}]` : ''}→ ${targets.length ? targets.join(', ') : '(no target)'}`;
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      out.set(t, {
        id: n > 1 ? `${base} #${n}` : base,
        source: path(node),
        event: t.eventType || 'always',
        ...(guard ? { guard } : {}),
        targets,
      });
    }
  }
  return out;
}

/**
 * Which definition transitions a step takes. XState reports every microstep of a macrostep to the
 * system's inspector with the transitions it selected (`@xstate.microstep`'s `_transitions`, xstate
 * src/stateUtils.ts macrostep), eventless `always` chains included; the step is recomputed
 * through the machine's own pure transition with an inert scope (as sim/pure-machine.ts does), so
 * it needs only the snapshot before and the event — the stepper's state is not touched.
 */
export class TransitionRecorder {
  readonly transitions: Map<AnyTransitionDefinition, MachineTransition>;
  private readonly selected: AnyTransitionDefinition[] = [];
  private readonly scope: AnyActorScope;

  constructor(readonly machine: AnyStateMachine) {
    this.transitions = definitionTransitions(machine);
    const self = createActor(machine, {
      inspect: (e: InspectionEvent) => {
        if (e.type === '@xstate.microstep') this.selected.push(...e._transitions);
      },
    });
    this.scope = {
      self,
      defer: () => {},
      id: '',
      logger: () => {},
      sessionId: '',
      stopChild: () => {},
      system: self.system,
      emit: () => {},
      actionExecutor: () => {},
    };
  }

  /** The ids of the transitions `event` takes from `snapshot` (none when the machine ignores it). */
  taken(snapshot: AnyMachineSnapshot, event: EventObject): string[] {
    this.selected.length = 0;
    this.machine.transition(snapshot, event, this.scope);
    return this.ids();
  }

  /** The eventless transitions the machine takes as it starts (or restarts) with this input. */
  initial(input: unknown): string[] {
    this.selected.length = 0;
    this.machine.getInitialSnapshot(this.scope, input);
    return this.ids();
  }

  private ids(): string[] {
    const ids = this.selected.flatMap((t) => {
      const m = this.transitions.get(t);
      return m ? [m.id] : [];
    });
    this.selected.length = 0;
    return ids;
  }
}

const byMachine = new WeakMap<AnyStateMachine, Map<AnyTransitionDefinition, MachineTransition>>();

/**
 * The ids of transitions XState reported (an inspector's `@xstate.microstep` `_transitions`) for a
 * machine run elsewhere — real mode runs the machine `.provide()`d with real actors, a copy whose
 * definition objects are its own, with the same ids.
 */
export function transitionIds(defs: readonly AnyTransitionDefinition[]): string[] {
  return defs.flatMap((t) => {
    const machine = t.source.machine;
    let known = byMachine.get(machine);
    if (!known) {
      known = definitionTransitions(machine);
      byMachine.set(machine, known);
    }
    const m = known.get(t);
    return m ? [m.id] : [];
  });
}
