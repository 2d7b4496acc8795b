import type { LoopCheck } from '../check/model';
import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import type { Moment } from '../scenario/moments';
import type { Frame } from '../trace';

/** Every loop loopscope knows, in the home page's order of appearance. Registries keyed by LoopId
 * (`satisfies Record<LoopId, …>`) fail to compile when a loop lacks a piece. */
export const LOOP_IDS = ['cron', 'puppet', 'systemd-restart', 'terraform', 'kubernetes', 'incus-hpa'] as const;
export type LoopId = (typeof LOOP_IDS)[number];
export const isLoopId = (id: unknown): id is LoopId => typeof id === 'string' && (LOOP_IDS as readonly string[]).includes(id);

/** What every loop's scenario parser returns: the shared header, then the loop's own parts. */
export interface LoadedScenario<W = unknown, F = unknown, C = unknown> {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  /** Named moments (the lab's chapters), in the scenario's order (every parser spreads the shared header, which has them). */
  moments?: Moment[];
  config: C;
  world: W;
  timeline: TimelineEntry<F, C>[];
  /** Indexes of the timeline entries marked `repeat: true` (sim/scenario/repeat.ts): for check, moves the environment may make for ever. */
  repeating?: number[];
}

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
 * its policies and its check (properties, environment moves, canonical key). Every registry —
 * CLI, runner, explorer, the lab's pickers — is derived from these.
 */
export interface LoopDefinition<W, F, C> {
  id: LoopId;
  binding: LoopBinding<W, F, C>;
  /** Parses a scenario document (YAML already read) for this loop; throws InputError(s). */
  parse(file: string, name: string, doc: unknown, seed?: number): LoadedScenario<W, F, C>;
  /** The timeline columns between the time and the note (e.g. pods and average memory). */
  columns(frame: Frame): string;
  policies?: LoopPolicies<C>;
  check: LoopCheck<W, F, C>;
}

/** A loop with its types erased: every typed definition is one (methods are bivariant). */
export type AnyLoop = LoopDefinition<unknown, unknown, unknown>;

/** Checks that the pieces of a definition name the same loop. */
export function defineLoop<W, F, C>(definition: LoopDefinition<W, F, C>): LoopDefinition<W, F, C> {
  const { id, binding, check } = definition;
  if (binding.loop !== id || check.loop !== id) throw new Error(`defineLoop(${id}): binding says ${binding.loop}, check says ${check.loop}`);
  return definition;
}
