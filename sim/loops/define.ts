import type { AnyStateMachine, ContextFrom } from 'xstate';
import type { LoopCheck } from '../check/model';
import type { ControllerSummary } from '../loop-schemas';
import type { LoopBinding } from '../model';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { LoadedUserCode, ScenarioHost } from '../user-controller/hook';
import type { Frame } from '../trace';
import type { LoopId } from './loop-id';

// The ids live in ./loop-id.ts (the trace format needs them below the definitions); a loop's
// pieces import them from here, next to the definition they key.
export { LOOP_IDS, isLoopId } from './loop-id';
export type { LoopId } from './loop-id';

/** Named configurations of a loop (e.g. the HPA's policies): `--policy`, the lab's picker, the
 * columns of `loopscope check --table`. */
export interface LoopPolicies<C> {
  /** In table order. */
  names: readonly string[];
  /** The config with the named policy applied. */
  apply(config: C, name: string): C;
}

/**
 * One loop, whole: the machine and its simulated world (the binding: actors, config events,
 * narration, the controller summary of each frame), its scenario format, its timeline columns,
 * its policies, its check (properties, environment moves, canonical key) and the scenario
 * `loopscope paths` starts from. Every registry — CLI, runner, explorer, the lab's pickers — is
 * derived from these. Typed by its world `W`, faults `F`, config `C`, world summary `WS`, controller
 * summary `S` and machine `M` (XState's own type).
 */
export interface LoopDefinition<
  W,
  F,
  C,
  WS = unknown,
  S extends ControllerSummary = ControllerSummary,
  M extends AnyStateMachine = AnyStateMachine,
> {
  id: LoopId;
  binding: LoopBinding<W, F, C, S, M, WS>;
  /** Parses a scenario document (YAML already read) for this loop; throws InputError(s). A user's
   * own code the scenario names is loaded with `host`'s loaders and handed back in `host.loaded`. */
  parse(file: string, name: string, doc: unknown, seed?: number, host?: ScenarioHost): LoadedScenario<W, F, C>;
  /** This loop with the user's code its scenario loaded (the machine provided with it, the claims
   * it gets): how that code reaches the machine — there is no registry of it. */
  provide?(code: LoadedUserCode): LoopDefinition<W, F, C, WS, S, M>;
  /** The timeline columns between the time and the note (e.g. pods and average memory). */
  columns(frame: Frame<WS>): string;
  /**
   * The scenario `loopscope paths <loop>` generates from (a file in scenarios/): the loop's check
   * scenario, whose timeline is written as an alphabet of moves (each at any instant, at most once)
   * small enough to explore exhaustively — "its world". A talk or demo scenario plays one long
   * story; its timeline as an alphabet is too large to search whole, so it is not the default
   * (name it to use it).
   */
  pathScenario: string;
  policies?: LoopPolicies<C>;
  /** Its properties and keys read the context of this loop's own machine. */
  check: LoopCheck<W, F, C, ContextFrom<M>>;
}

/** A loop with its types erased: what the registry holds (sim/loops/registry.ts, LOOPS). */
export type AnyLoop = LoopDefinition<unknown, unknown, unknown>;

/** Checks that the pieces of a definition name the same loop. */
export function defineLoop<W, F, C, WS, S extends ControllerSummary, M extends AnyStateMachine>(
  definition: LoopDefinition<W, F, C, WS, S, M>,
): LoopDefinition<W, F, C, WS, S, M> {
  const { id, binding, check } = definition;
  if (binding.loop !== id || check.loop !== id)
    throw new Error(`defineLoop(${id}): binding says ${binding.loop}, check says ${check.loop}`);
  return definition;
}
