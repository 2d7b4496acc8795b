import type { MemoStats } from '../memo-machine';
import type { FingerprintStats } from './collision';
import type { KeyWriter } from './key-writer';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { TimelineEntry } from '../runner';
import type { StepState } from '../step';
import type { ViewSnapshot } from '../view-snapshot';

/** What a property may look at: the controller's snapshot (context `X`) and the world at one instant. */
export interface CheckView<W, C, X = unknown> {
  t: number;
  snapshot: ViewSnapshot<X>;
  world: W;
  config: C;
}

/** A state of the search as a loop's check reads it: the stepper's state with the machine's context typed. */
export type CheckState<W, C, X = unknown> = Omit<StepState<W, C>, 'snapshot'> & { snapshot: ViewSnapshot<X> };

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
export const isLiveness = (kind: PropertyKind): kind is LivenessKind => kind === 'eventually-always' || kind === 'leads-to';

export interface CheckProperty<W, C, X = unknown> {
  name: string;
  kind: PropertyKind;
  /** One sentence: what is claimed. */
  claim: string;
  holds(view: CheckView<W, C, X>): boolean;
  /** leads-to only: the trigger P of P ~> Q (`holds` is Q). */
  when?(view: CheckView<W, C, X>): boolean;
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
  /** A choice the loop's check adds (LoopCheck.choices), not an entry of the scenario's timeline. */
  choice?: true;
}

/** The scenario's moves and the choices the loop's check added, apart (as the reports list them). */
export function movesAndChoices<M extends { choice?: true }>(alphabet: readonly M[]): { moves: M[]; choices: M[] } {
  return { moves: alphabet.filter((m) => !m.choice), choices: alphabet.filter((m) => m.choice) };
}

/**
 * Symmetry reduction: a loop may declare that some of its objects (pods, nodes, jobs …) are
 * interchangeable — the machine, the world and every property it claims are invariant under
 * renaming them — and give a key of a state's representative under those renamings (e.g. names
 * replaced by labels given in a canonical order, the rest of the canonical key unchanged). The
 * explorer then merges a state with every renamed copy of it. Only the key changes: the search
 * stores hashes, parents and moves, and each counterexample is replayed through the Runner from
 * the start (counterexample.ts; the key: ./symmetry.ts), so a representative's labels never reach a trace.
 * A loop whose objects are not interchangeable says why (`none`): check reports it.
 */
export type LoopSymmetry<W, F, C> =
  | { none: string }
  | {
      /** What is renamed, e.g. "pods created by a ReplicaSet". */
      what: string;
      /** The representative's key for this configuration, or why it has none (e.g. a policy that reads name order). */
      canonicalizer(start: { config: C; world: W }, alphabet: readonly EnvMove<F, C>[]): KeyEncoder<StepState<W, C>> | string;
    };

/**
 * Everything loop-specific the explorer needs; one module per loop (sim/properties/<loop>.ts),
 * part of the loop's definition (sim/loops/define.ts). The loop's logic is not repeated here: steps go through
 * its machine and WorldModel; this only says what the environment may do, which parts of a
 * state matter for the future (the canonical key) and what is claimed. `X` is the machine's
 * context (defineLoop holds it to the binding's machine).
 */
export interface LoopCheck<W, F, C, X = unknown> {
  loop: string;
  /** Rejects scenarios the explorer cannot treat exhaustively (throws InputError). */
  validate(scenario: LoadedScenario<W, F, C>): void;
  /** A short label for an environment move, e.g. "kill pod-a"; equal labels are interchangeable. */
  label(entry: TimelineEntry<F, C>): string;
  /**
   * What the real system leaves to chance and the simulated world draws from its seed, as moves the
   * environment may make any number of times (e.g. where a created name sorts): the search takes
   * every choice, where one seed would show one. Appended to the scenario's moves; `applicable`
   * keeps them to the states where they make a difference.
   */
  choices?(start: { config: C; world: W }, timeline: readonly TimelineEntry<F, C>[]): TimelineEntry<F, C>[];
  /** Whether the move can happen in this state (e.g. a kill needs its instance to be there). */
  applicable(state: CheckState<W, C, X>, entry: TimelineEntry<F, C>): boolean;
  /**
   * Writes the state's canonical key: fields equal for two states exactly when their futures are the
   * same under every choice of the environment (times relative to now, counters capped, dead fields
   * dropped). The fields go straight into the search's 64-bit hash (key-writer.ts).
   */
  canonicalizer(start: { config: C; world: W }, alphabet: readonly EnvMove<F, C>[]): KeyEncoder<CheckState<W, C, X>>;
  /** Which objects are interchangeable (a representative's key), or why none are (sim/check/symmetry.ts). */
  symmetry?: LoopSymmetry<W, F, C>;
  /** The properties claimed for this configuration (the policy is part of the config); `world` is
   * the scenario's start world, for bounds that depend on its timings (e.g. Kubernetes' resync). */
  properties(config: C, alphabet: readonly EnvMove<F, C>[], withinPeriods?: number, world?: W): CheckProperty<W, C, X>[];
  /** Which properties this configuration promises (its policy's contract); others are findings. */
  promises(config: C): readonly string[];
  /**
   * Liveness properties (eventually-always, leads-to) and which of them this configuration
   * promises; claimed only when the environment may act for ever (a timeline entry with `repeat: true`).
   */
  liveness?(config: C, alphabet: readonly EnvMove<F, C>[]): { properties: CheckProperty<W, C, X>[]; promises: readonly string[] };
}

/** Writes a state's canonical key into a KeyWriter (checked like a method: see MethodLike). */
export type KeyEncoder<S> = MethodLike<[S, KeyWriter], void>;

/**
 * A function type checked like a method (bivariantly in its parameters), as every other member of
 * LoopCheck is: so a loop's typed check is also a LoopCheck<unknown, unknown, unknown> in the
 * registry without a cast (the same device as @types/react's event handlers).
 */
export type MethodLike<A extends unknown[], R> = { method(...args: A): R }['method'];

// The explorer's results and options (explorer.ts), here so that the search's parts (search-book.ts,
// liveness.ts) and its readers share them without importing the explorer.

/** One edge of a path: the next queued item happens (time passes), or the environment acts. */
export type PathStep = { kind: 'tick' } | { kind: 'env'; index: number };

/** Where a search is, for a progress line. */
export interface Progress {
  distinct: number;
  generated: number;
  depth: number;
  /** States discovered but not yet expanded. */
  frontier: number;
  elapsedMs: number;
  rssBytes: number;
  /** The state bound, when one was given (for an ETA). */
  maxStates?: number;
}

export interface ExploreOptions {
  /** Stop expanding beyond this many steps from the start. */
  maxDepth?: number;
  /** Stop adding states beyond this many distinct states. */
  maxStates?: number;
  /** Stop cleanly (verdicts so far, the rest unknown) once the process's RSS passes this. */
  maxMemoryBytes?: number;
  /** Called about every `progressMs` (default 1000) of search time. */
  onProgress?: (progress: Progress) => void;
  progressMs?: number;
  /** Memoise machine transitions by (snapshot, event) (default on; off only to measure it). */
  memo?: boolean;
  /** Merge states with their copies under the loop's renamings of interchangeable objects (default on; symmetry.ts). */
  symmetry?: boolean;
  /** A frontier level keeps this many states whole, the rest re-derived from their parents (default 65,536; frontier.ts). */
  lazyFrom?: number;
  /** Worker threads for the parallel search (sim/check/parallel.ts); 1 = this thread. */
  workers?: number;
  /** Liveness properties are judged on weakly fair runs (default); 'none' only shows what fairness excludes (liveness.ts). */
  fairness?: Fairness;
  /** Write the lazy frontier's records to files in this directory instead of memory (spilled-level.ts); sequential search only. */
  spillDir?: string;
  /** Checkpoint the search at BFS level boundaries, and resume from the directory's checkpoint (checkpoint.ts); sequential search only. */
  checkpoint?: CheckpointOptions;
}

export interface CheckpointOptions {
  dir: string;
  /** checkpointIdentity() of what is searched: a checkpoint of another search is refused. */
  identity: string;
  /** At the first level boundary this long after the last checkpoint (0: at every one). */
  everyMs: number;
  /** Told after each checkpoint written. */
  onWrite?: (at: { depth: number; distinct: number }) => void;
}

export type VerdictStatus = 'holds' | 'violated' | 'unknown';

export interface Verdict<W, C> {
  property: CheckProperty<W, C>;
  status: VerdictStatus;
  /** The shortest path to a violation (always, eventually) or, for sometimes, to a witness. */
  path?: PathStep[];
  /** eventually: the longest settle time seen (ms); violated: how long the counterexample took. */
  settleMs?: number;
  /** Liveness, violated: `path` is a lasso, path[cycleStart …] the cycle repeated for ever. */
  cycleStart?: number;
  detail: string;
}

/** Why the search stopped: it ran out of states, or a bound, a limit or the user stopped it. */
export type StopReason = 'complete' | 'max-states' | 'max-depth' | 'max-memory' | 'interrupted';

export interface ExploreStats {
  generated: number;
  distinct: number;
  depth: number;
  /** Every reachable state within the bounds was expanded. */
  complete: boolean;
  stopped: StopReason;
  timeMs: number;
  /** CPU time of the process (user + system), which a loaded machine distorts less than wall time. */
  cpuMs: number;
  distinctPerSecond: number;
  peakRssBytes: number;
  peakHeapBytes: number;
  /** Bytes of the search's own tables (visited set, parents, moves, quiet successors, targets). */
  tableBytes: number;
  /** Threads that expanded states (1: the sequential search). */
  workers: number;
  /** The parallel search: the states each worker expanded (how evenly they shared the work). */
  expandedBy?: number[];
  /** Transition memo: hits, misses (XState ran), interned snapshots, unkeyable calls. */
  memo?: MemoStats;
  /** Symmetry reduction: on, off, or none for this loop (and why); `distinct` counts representatives when on. */
  symmetry?: SymmetryUse;
  /** The visited set keeps 64-bit fingerprints only: the chance two distinct states shared one (collision.ts). */
  fingerprint?: FingerprintStats;
  /** The search went on from a checkpoint (checkpoint.ts): the level and states it held. */
  resumedFrom?: { depth: number; distinct: number };
  /** The parallel search went on from the sequential one (it searched while the workers booted): the level and states it handed over. */
  handedOverAt?: { depth: number; distinct: number };
}

export interface ExploreResult<W, C> {
  stats: ExploreStats;
  verdicts: Verdict<W, C>[];
}

/** What a search did about symmetry: reduced (on), asked not to (off), or nothing to reduce (none, and why). */
export interface SymmetryUse {
  state: 'on' | 'off' | 'none';
  detail: string;
}

/** Liveness (liveness.ts): 'weak': weak fairness of the tick; 'none': every cycle counts (only to show what fairness excludes). */
export type Fairness = 'weak' | 'none';
