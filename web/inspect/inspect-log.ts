// What the inspector page knows, built message by message from the relay: the actors (with their
// machine definition when they sent one), each actor's snapshots in order, and the events between
// them. Plain data, no React: the page renders from it, and the unit test reads it directly.
import { isHistoryBatch, isHistoryNotice } from '../../sim/inspect-protocol';

export interface ActorSnapshot {
  /** The message's place in the stream (one counter for every actor): orders snapshots against events. */
  seq: number;
  /** When the app sent it (ms, from createdAt). */
  at: number;
  status: string | undefined;
  value: unknown;
  context: unknown;
  output: unknown;
  /** The event that led to it ('' when none was named). */
  eventType: string;
  /** Sent with the actor's registration: stands in until its first own snapshot (see addActor). */
  registration?: true;
}

export interface InspectedActor {
  sessionId: string;
  parentId: string | undefined;
  name: string;
  /** The machine's config as the app sent it (JSON), or undefined (an actor registered in dropped messages). */
  definition: string | undefined;
  snapshots: ActorSnapshot[];
  /** Snapshots this page no longer holds (the oldest first; see MAX_SNAPSHOTS). */
  droppedSnapshots: number;
}

export interface LoggedEvent {
  seq: number;
  at: number;
  type: string;
  targetId: string;
  sourceId: string | undefined;
  event: unknown;
}

/** What one page holds, whatever runs for how long: the relay's history has its own bound. */
export const MAX_EVENTS = 10_000;
export const MAX_SNAPSHOTS = 10_000;

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const time = (x: unknown): number => {
  const n = Number(x);
  return Number.isFinite(n) ? n : Date.now();
};
const eventTypeOf = (e: unknown): string => (isObject(e) && typeof e.type === 'string' ? e.type : typeof e === 'string' ? e : '');

export class InspectLog {
  readonly actors = new Map<string, InspectedActor>();
  readonly events: LoggedEvent[] = [];
  /** Events this page no longer holds (MAX_EVENTS). */
  droppedEvents = 0;
  /** Messages the relay had dropped before this page joined (its notice), and its history bound. */
  relayDropped = 0;
  relayMaxEvents: number | undefined;
  /** Messages that were not inspection events (not JSON, or an unknown shape): counted, not shown. */
  unreadable = 0;
  /** Messages of the relay's history still to come (its notice says how many it holds): 0 once the page is live. */
  historyLeft = 0;
  private seq = 0;

  /** One text message from the relay. */
  addText(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.unreadable++;
      return;
    }
    if (isHistoryBatch(message)) for (const m of message.messages) this.add(m);
    else this.add(message);
  }

  add(message: unknown): void {
    if (isHistoryNotice(message)) {
      this.relayDropped = message.dropped;
      this.relayMaxEvents = message.maxEvents;
      this.historyLeft = message.received - message.dropped;
      return;
    }
    if (this.historyLeft > 0) this.historyLeft--;
    if (!isObject(message) || typeof message.sessionId !== 'string') {
      this.unreadable++;
      return;
    }
    const seq = this.seq++;
    const at = time(message.createdAt);
    switch (message.type) {
      case '@xstate.actor':
        this.addActor(message, message.sessionId, seq, at);
        return;
      case '@xstate.snapshot':
        this.addSnapshot(this.actorOf(message.sessionId), message.snapshot, message.event, seq, at);
        return;
      case '@xstate.event': {
        this.actorOf(message.sessionId);
        this.events.push({
          seq,
          at,
          type: eventTypeOf(message.event),
          targetId: message.sessionId,
          sourceId: str(message.sourceId),
          event: message.event,
        });
        if (this.events.length > MAX_EVENTS) {
          this.events.splice(0, this.events.length - MAX_EVENTS);
          this.droppedEvents++;
        }
        return;
      }
      default:
        this.unreadable++;
    }
  }

  /** The actors by parent, in the order they appeared; the roots (and actors whose parent is unknown) under undefined. */
  tree(): Map<string | undefined, InspectedActor[]> {
    const out = new Map<string | undefined, InspectedActor[]>();
    for (const a of this.actors.values()) {
      const parent = a.parentId !== undefined && this.actors.has(a.parentId) ? a.parentId : undefined;
      const list = out.get(parent);
      if (list) list.push(a);
      else out.set(parent, [a]);
    }
    return out;
  }

  private addActor(m: Json, sessionId: string, seq: number, at: number): void {
    const actor = this.actorOf(sessionId);
    actor.parentId = str(m.parentId) ?? actor.parentId;
    actor.name = str(m.name) ?? actor.name;
    actor.definition = str(m.definition) ?? actor.definition;
    // The registration carries a snapshot, so the actor has a state to show at once. XState's inspector
    // reads it when it converts the registration, a tick later — possibly after the actor moved on — so it
    // only stands in until the actor's own first snapshot (its xstate.init), which replaces it.
    if (actor.snapshots.length === 0) this.addSnapshot(actor, m.snapshot, undefined, seq, at, true);
  }

  private addSnapshot(actor: InspectedActor, snapshot: unknown, event: unknown, seq: number, at: number, registration = false): void {
    const s = isObject(snapshot) ? snapshot : {};
    if (actor.snapshots.length === 1 && actor.snapshots[0]?.registration) actor.snapshots.pop();
    actor.snapshots.push({
      seq,
      at,
      status: str(s.status),
      value: s.value,
      context: s.context,
      output: s.output,
      eventType: eventTypeOf(event),
      ...(registration ? { registration: true as const } : {}),
    });
    if (actor.snapshots.length > MAX_SNAPSHOTS) {
      actor.snapshots.shift();
      actor.droppedSnapshots++;
    }
  }

  /** The actor by session id; one first seen in an event or snapshot (its registration dropped) is listed under its id. */
  private actorOf(sessionId: string): InspectedActor {
    let actor = this.actors.get(sessionId);
    if (!actor) {
      actor = { sessionId, parentId: undefined, name: sessionId, definition: undefined, snapshots: [], droppedSnapshots: 0 };
      this.actors.set(sessionId, actor);
    }
    return actor;
  }
}
