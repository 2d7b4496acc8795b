// A loop's runner back with its types. The registry holds loops with their types erased
// (sim/loops/registry.ts, LOOPS), so a runner built from it is a Runner<unknown, …>; a reader that
// knows which loop it runs (the lab's editors) narrows here, on the loop id, rather than casting
// its config or world.
import type { LoopDefinition } from './loops/define';
import type { LoopId } from './loops/loop-id';
import type { TypedLoops } from './loops/registry';
import type { Runner } from './runner';

/** The runner of loop L: its world, faults and config as L's definition (in the registry) declares them. */
export type RunnerOf<L extends LoopId> = TypedLoops[L] extends LoopDefinition<infer W, infer F, infer C> ? Runner<W, F, C> : never;

/** `runner` as loop `loop`'s when it runs that loop (its binding's id); otherwise undefined. */
export function runnerOf<L extends LoopId>(loop: L, runner: Runner<unknown, unknown, unknown>): RunnerOf<L> | undefined {
  // The one trusted step: a runner's binding is its loop's (the registry built it from that loop's
  // definition), so the binding's id vouches for its world, fault and config types.
  return runner.binding.loop === loop ? (runner as RunnerOf<L>) : undefined; // cast: the binding id vouches for the types (above)
}
