// A loop's frames back with their world's type. The registry holds loops with their types erased
// (sim/loops/registry.ts, LOOPS), so a runner built from it records `Frame`s; a reader that knows
// which loop recorded them narrows here, on the loop id, rather than casting each world.
// (A parsed trace needs none of this: a LoopTrace narrowed on `loop` is typed already.)
import type { LoopId } from './loops/loop-id';
import type { Frame, FrameOf } from './trace';

/** `frames` as loop `loop`'s when `recordedBy` — the loop whose runner or trace they come from — is it; otherwise undefined. */
export function framesOf<L extends LoopId>(loop: L, recordedBy: string, frames: readonly Frame[]): readonly FrameOf<L>[] | undefined {
  // The one trusted step: a runner's frames hold its own world model's summaries, a trace's were
  // read through its loop's world schema (sim/loop-schemas.ts), so the loop id vouches for the type.
  return recordedBy === loop ? (frames as readonly FrameOf<L>[]) : undefined; // cast: the loop id vouches for the worlds (above)
}

/** One frame as loop `loop`'s (see framesOf). */
export function frameOf<L extends LoopId>(loop: L, recordedBy: string, frame: Frame): FrameOf<L> | undefined {
  return framesOf(loop, recordedBy, [frame])?.[0];
}
