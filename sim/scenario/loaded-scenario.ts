// A parsed scenario, as every loop's parser returns it: its own module so that the check model
// (sim/check/model.ts) and the properties can name it without the loop definitions, which name them.
import type { TimelineEntry } from '../runner';
import type { Moment } from './moments';

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
