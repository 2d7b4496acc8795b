import type { EventObject, ParameterizedObject, ProvidedActor, StateMachine, StateValue } from 'xstate';
import type { Language } from '../messages';

/** One label in every UI language. */
export type Text = Record<Language, string>;

/** Every state key in a machine's state value type: "acting" and its children "next", "creating" … */
type StateKeys<V> = V extends string
  ? V
  : V extends Record<string, unknown>
    ? { [K in keyof V & string]: K | StateKeys<V[K]> }[keyof V & string]
    : never;

/** What the machine's own types name: its states, the events it accepts, its invoked actors, delays and guards. */
type Names<M> =
  M extends StateMachine<
    infer _C,
    infer E extends EventObject,
    infer _Ch,
    infer A extends ProvidedActor,
    infer _Ac,
    infer G extends ParameterizedObject,
    infer D extends string,
    infer V extends StateValue,
    infer _Tag,
    infer _In,
    infer _Out,
    infer _Em,
    infer _Meta,
    infer _Schema,
    infer _TMeta
  >
    ? { states: StateKeys<V>; events: E['type']; actors: A['src']; delays: D; guards: G }
    : never;

/** A guard's label; a guard with parameters (stepIs { kind }) says which, so its label is a function of them. */
type GuardLabel<G> = G extends { params: infer P } ? (unknown extends P ? Text : P extends undefined ? Text : (params: P) => Text) : Text;

/**
 * A loop's chart labels, complete by construction: a state, event, actor, delay or guard the machine
 * gains without a label here does not compile. The machine's ids stay the ids (tooltips, the CLI).
 */
export interface ChartLabels<M> {
  states: Record<Extract<Names<M>['states'], string>, Text>;
  /** The machine's own events (systemctl commands, CONFIG.UPDATE …): on edges and on the event line. */
  events: Record<Names<M>['events'], Text>;
  /** An invoked actor's done and error events, by the invoke's id: every actor the machine declares (its src) must
   * have one; an invoke whose id is not its src (Puppet's clockAtEnd runs readClock) is named too, and
   * test/i18n/statechart-labels.test.ts checks every edge of every chart finds its label. */
  actors: Record<Names<M>['actors'], { done: Text; error: Text }> & Readonly<Record<string, { done: Text; error: Text }>>;
  /** A named delay: "after <delay>" on an edge, the timer's event on the event line. */
  delays: Record<Names<M>['delays'], Text>;
  guards: { [K in Names<M>['guards']['type']]: GuardLabel<Extract<Names<M>['guards'], { type: K }>> };
}
