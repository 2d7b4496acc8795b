/** The trace every runner produces and every viewer consumes (docs/ARCHITECTURE.md, "A trace"; schema: ./trace-schema). */
import type { ControllerSummary, WorldSummaryOf } from './loop-schemas';
import type { LoopId } from './loops/loop-id';
import type { StoredMessage } from './notes/catalog';

/** The trace format's version: 2 added `version` and each frame's `controller`. */
export const TRACE_VERSION = 2;

export type Phase = 'observe' | 'compare' | 'act' | 'wait' | 'error';
export const PHASES: readonly Phase[] = ['observe', 'compare', 'act', 'wait', 'error'];

export interface Frame<W = unknown> {
  /** ms since start: virtual in sim, wall clock in real. */
  t: number;
  /** Dotted state value, e.g. "acting.creating". */
  state: string;
  phase: Phase;
  /** The event that produced this frame (a machine event, or world.* for world changes). */
  event: string;
  world: W;
  /** What the controller observed, compared and decided (the loop's summary function); absent in version 1 traces. */
  controller?: ControllerSummary;
  /** What happened, in English (the CLI prints it); with `message`, that message's English text. */
  note?: string;
  /** The note as a message of the note catalog (sim/notes): the lab renders it in its language. Absent in older traces. */
  message?: StoredMessage;
}

export interface Trace<W = unknown> {
  /** 2; absent in traces written before frames carried `controller` (version 1). */
  version?: typeof TRACE_VERSION;
  loop: string;
  scenario: string;
  seed: number;
  policy?: string;
  frames: Frame<W>[];
  /**
   * A lasso counterexample of a liveness property (sim/check/lasso-trace.ts): frames[cycleStart]
   * to the last frame form a cycle the run repeats for ever (after the last frame comes
   * frames[cycleStart] again, later in time). Absent in every other trace.
   */
  lasso?: { cycleStart: number };
}

/** A frame of loop L: its world is L's summary. */
export type FrameOf<L extends LoopId> = Frame<WorldSummaryOf<L>>;

/** A trace of a loop loopscope knows (what parseTrace returns): narrow on `loop` to read its worlds. */
export type LoopTrace = { [L in LoopId]: Trace<WorldSummaryOf<L>> & { loop: L } }[LoopId];

export function phaseOf(tags: ReadonlySet<string>): Phase {
  for (const p of PHASES) if (tags.has(p)) return p;
  throw new Error(`state has no phase tag (expected one of ${PHASES.join(', ')})`);
}

export function dottedState(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const [key, child] = Object.entries(value as Record<string, unknown>)[0] ?? []; // cast: a state value object maps names to children
    if (key === undefined) return '';
    const rest = dottedState(child);
    return rest ? `${key}.${rest}` : key;
  }
  return String(value);
}

/** The frame's controller summary if it is the given loop's (absent in version 1 traces). */
export function controllerOf<L extends ControllerSummary['loop']>(
  frame: Pick<Frame, 'controller'>,
  loop: L,
): Extract<ControllerSummary, { loop: L }> | undefined {
  const c = frame.controller;
  // The union is keyed by `loop`: equal keys mean this loop's member.
  return c?.loop === loop ? (c as Extract<ControllerSummary, { loop: L }>) : undefined; // cast: the loop id vouches for the summary's type
}
