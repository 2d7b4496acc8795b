import type { Actor, ActorOptions, AnyStateMachine, EventObject } from 'xstate';
import { createActor, fromPromise } from 'xstate';

type Clock = NonNullable<ActorOptions<AnyStateMachine>['clock']>;

/** A clock the test moves by hand: timers fire one at a time, earliest first, ties in the order set. */
export class ManualClock implements Clock {
  now = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  /** Due times of every pending timer, sorted. */
  pending(): number[] {
    return [...this.timers.values()].map((x) => x.at).sort((a, b) => a - b);
  }

  /** Fires the earliest pending timer at its due time; returns that time. */
  fireNext(): number | undefined {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const entry of this.timers) if (!best || entry[1].at < best[1].at) best = entry;
    if (!best) return undefined;
    this.timers.delete(best[0]);
    this.now = Math.max(this.now, best[1].at);
    best[1].fn();
    return best[1].at;
  }
}

/**
 * A real XState actor of a loop's machine, on a manual clock, whose invoked actors never answer
 * by themselves: the test delivers their done/error events, as the simulated world does.
 */
export class ActorMirror {
  readonly clock = new ManualClock();
  private readonly machine: AnyStateMachine;
  actor: Actor<AnyStateMachine>;

  constructor(machine: AnyStateMachine, input: unknown) {
    const inert = Object.fromEntries(
      Object.keys(machine.implementations.actors).map((name) => [name, fromPromise(() => new Promise<never>(() => {}))]),
    );
    this.machine = machine.provide({ actors: inert });
    this.actor = this.start(input);
  }

  private start(input: unknown): Actor<AnyStateMachine> {
    return createActor(this.machine, { input, clock: this.clock }).start();
  }

  send(event: EventObject): void {
    this.actor.send(event);
  }

  /** A controller restart: the old actor stops (XState cancels its timers), a new one starts. */
  restart(input: unknown): void {
    this.actor.stop();
    this.actor = this.start(input);
  }

  /** Event types XState has scheduled for this actor, sorted. */
  scheduledTypes(): string[] {
    return Object.values(this.actor.system.getSnapshot()._scheduledEvents)
      .map((e) => e.event.type)
      .sort();
  }
}
