import type { AnyMachineSnapshot } from 'xstate';
import type { LoadedScenario } from '../loops/registry';
import type { TimelineEntry } from '../runner';
import type { StepState } from '../step';
import type { LoopSymmetry } from './symmetry';

/** What a property may look at: the controller's snapshot and the world at one instant. */
export interface CheckView<W, C> {
  t: number;
  snapshot: AnyMachineSnapshot;
  world: W;
  config: C;
}

/**
 * always: holds in every reachable state (an invariant);
 * sometimes: holds in at least one reachable state (reachability: the bounds are meaningful);
 * eventually: once the environment stops acting, holds within `withinMs` and from then on.
 * Liveness over infinite runs, while the environment may keep acting (sim/check/liveness.ts),
 * judged on weakly fair runs only (time keeps passing):
 * eventually-always (<>[] holds): on every fair run, `holds` is true from some point on;
 * leads-to (when ~> holds): on every fair run, whenever `when` is true, `holds` is true then or later.
 */
export type PropertyKind = 'always' | 'sometimes' | 'eventually' | LivenessKind;
export type LivenessKind = 'eventually-always' | 'leads-to';
export const LIVENESS_KINDS: readonly LivenessKind[] = ['eventually-always', 'leads-to'];
export const isLiveness = (kind: PropertyKind): kind is LivenessKind => kind === 'eventually-always' || kind === 'leads-to';

export interface CheckProperty<W, C> {
  name: string;
  kind: PropertyKind;
  /** One sentence: what is claimed. */
  claim: string;
  holds(view: CheckView<W, C>): boolean;
  /** leads-to only: the trigger P of P ~> Q (`holds` is Q). */
  when?(view: CheckView<W, C>): boolean;
  /** eventually only: the bound K, in virtual ms, and how it was chosen. */
  withinMs?: number;
  within?: string;
}

/** An environment move: one entry of the scenario's timeline, applied at the current instant. */
export interface EnvMove<F, C> {
  /** Index of the entry in the alphabet. */
  index: number;
  label: string;
  entry: TimelineEntry<F, C>;
  /** `repeat: true` in the scenario: the environment may make this move any number of times, for ever. */
  repeats?: boolean;
}

/**
 * Everything loop-specific the explorer needs; one module per loop (sim/properties/<loop>.ts),
 * part of the loop's definition (sim/loops/define.ts). The loop's logic is not repeated here: steps go through
 * its machine and WorldModel; this only says what the environment may do, which parts of a
 * state matter for the future (the canonical key) and what is claimed.
 */
export interface LoopCheck<W, F, C> {
  loop: string;
  /** Rejects scenarios the explorer cannot treat exhaustively (throws InputError). */
  validate(scenario: LoadedScenario<W, F, C>): void;
  /** A short label for an environment move, e.g. "kill pod-a"; equal labels are interchangeable. */
  label(entry: TimelineEntry<F, C>): string;
  /** Whether the move can happen in this state (e.g. a kill needs its instance to be there). */
  applicable(state: StepState<W, C>, entry: TimelineEntry<F, C>): boolean;
  /**
   * A string equal for two states exactly when their futures are the same under every choice of
   * the environment (times relative to now, counters capped, dead fields dropped).
   */
  canonicalizer(start: { config: C; world: W }, alphabet: readonly EnvMove<F, C>[]): MethodLike<[StepState<W, C>], string>;
  /** Which objects are interchangeable (a representative's key), or why none are (sim/check/symmetry.ts). */
  symmetry?: LoopSymmetry<W, F, C>;
  /** The properties claimed for this configuration (the policy is part of the config); `world` is
   * the scenario's start world, for bounds that depend on its timings (e.g. Kubernetes' resync). */
  properties(config: C, alphabet: readonly EnvMove<F, C>[], withinPeriods?: number, world?: W): CheckProperty<W, C>[];
  /** Which properties this configuration promises (its policy's contract); others are findings. */
  promises(config: C): readonly string[];
  /**
   * Liveness properties (eventually-always, leads-to) and which of them this configuration
   * promises; claimed only when the environment may act for ever (a timeline entry with `repeat: true`).
   */
  liveness?(config: C, alphabet: readonly EnvMove<F, C>[]): { properties: CheckProperty<W, C>[]; promises: readonly string[] };
}


/**
 * A function type checked like a method (bivariantly in its parameters), as every other member of
 * LoopCheck is: so a loop's typed check is also a LoopCheck<unknown, unknown, unknown> in the
 * registry without a cast (the same device as @types/react's event handlers).
 */
export type MethodLike<A extends unknown[], R> = { method(...args: A): R }['method'];
