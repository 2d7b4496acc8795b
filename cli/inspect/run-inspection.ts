// A simulated run told in XState's inspection protocol (@statelyai/inspect's createInspector, the
// shapes XState v5's own `inspect` option produces): the loop's machine announced once as an actor
// with its definition (`@xstate.actor`), then for every frame of the trace, in order, the event the
// machine was sent (`@xstate.event`) and the snapshot it reached (`@xstate.snapshot`). The simulator
// steps the machine through XState's pure transition function rather than a live actor, so the
// inspector is called for it — the events are the ones the trace records, one for one, stamped with
// the frame's virtual time (createdAt: the run's wall-clock start + the virtual ms), so a receiver
// orders them by virtual time. A change of the world (world.*) that the machine is not sent appears
// as an event from the world to the loop carrying its note, with the snapshot unchanged — as the
// trace shows it. Nothing here feeds back into the run: it makes the same decisions with or without.
import { createInspector } from '@statelyai/inspect';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { Frame } from '../../sim/trace';
import type { InspectSocket } from './inspect-socket';

/** What a snapshot message carries: the machine's snapshot, or what a trace file recorded of it. */
export type ToldSnapshot = Pick<AnyMachineSnapshot, 'status' | 'value' | 'context'>;

/** The machine as an actor the inspector can name: its session id and, for the definition, its logic. */
interface InspectedActor {
  sessionId: string;
  /** Read by createInspector's actor(): `actorRef.logic.config` is the definition it sends. */
  logic: AnyStateMachine;
  send(): void;
  getSnapshot(): ToldSnapshot | undefined;
}

/** The source id of world changes: the simulated environment, which is not an XState actor. */
const WORLD_SOURCE = 'loopscope.world';

/** What following a run reads of it (sim/runner.ts's Runner): its frames, the snapshot now, the last event. */
export interface FollowedRun {
  readonly frames: readonly Frame[];
  readonly snapshot: ToldSnapshot;
  readonly lastEvent: EventObject | undefined;
}

export interface RunInspection {
  /** Tells one frame: the machine's snapshot after it, and the event that led there (undefined: a world change). */
  frame(frame: Frame, snapshot: ToldSnapshot, event: EventObject | undefined): void;
  /** Tells the frames `run` recorded since the last call; called after each step, which records at most one. */
  follow(run: FollowedRun): void;
}

export function inspectRun(socket: InspectSocket, machine: AnyStateMachine, sessionId: string, startedAt = Date.now()): RunInspection {
  let virtualMs = 0;
  const inspector = createInspector(socket, {
    autoStart: false,
    // A loop's definition and context nest deeper than the library's default of 10 (Kubernetes' world).
    serializationDepthLimit: 64,
    serialize: (e) => ({ ...e, createdAt: String(startedAt + virtualMs) }),
  });
  let current: ToldSnapshot | undefined;
  const actor: InspectedActor = { sessionId, logic: machine, send() {}, getSnapshot: () => current };
  const inspected = (s: ToldSnapshot) => ({ status: s.status, value: s.value, context: s.context });
  let announced = false;
  const frame: RunInspection['frame'] = (recorded, snapshot, event) => {
    virtualMs = recorded.t;
    current = snapshot;
    if (!announced) {
      announced = true;
      inspector.actor(actor, inspected(snapshot));
    }
    const sent: EventObject = event ?? { type: recorded.event, ...(recorded.note ? { note: recorded.note } : {}) };
    inspector.event(actor, sent, event ? {} : { source: WORLD_SOURCE });
    inspector.snapshot(actor, inspected(snapshot), { event: sent });
  };
  let told = 0;
  const follow: RunInspection['follow'] = (run) => {
    for (; told < run.frames.length; told++) frame(run.frames[told]!, run.snapshot, run.lastEvent);
  };
  return { frame, follow };
}
