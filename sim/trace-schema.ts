// The trace format, version 2 (docs/ARCHITECTURE.md, "A trace"): every runner writes it (loopscope sim, check
// counterexamples, loopscope real and its live stream) and every reader loads it through
// parseTrace (the lab, tests). Version 1 traces (no `version`, no `controller`) still load.
// Browser-safe: zod and the loops' schemas (sim/loop-schemas.ts) only.
import { z } from 'zod';
import type { ControllerSummary, WorldSummaryOf } from './loop-schemas';
import { LOOP_SCHEMAS } from './loop-schemas';
import type { LoopId } from './loops/loop-id';
import { LOOP_IDS } from './loops/loop-id';
import type { Frame, LoopTrace, Trace } from './trace';
import { PHASES, TRACE_VERSION } from './trace';
import type { WorldObject } from './world-object';

function frameSchema<S extends z.ZodType, W extends z.ZodType<unknown, WorldObject>>(controller: S, world: W) {
  return z.object({
    t: z.number({ error: 'expected a time in ms ≥ 0' }).min(0, { error: 'expected a time in ms ≥ 0' }),
    state: z.string({ error: 'expected the state as text, e.g. "acting.creating"' }),
    phase: z.enum(PHASES, { error: `expected one of ${PHASES.join(', ')}` }),
    event: z.string({ error: 'expected the event type as text' }),
    // Not an object at all is said as such; an object is then read as the loop's world summary.
    world: z.looseObject({}, { error: "expected an object (the loop's world summary)" }).pipe(world),
    controller: controller.optional(),
    note: z.string({ error: 'expected text' }).optional(),
    message: z
      .object(
        {
          key: z.string({ error: 'expected the message key as text, e.g. "puppet.nextRun"' }),
          params: z.record(z.string(), z.json(), { error: "expected the message's parameters (an object)" }),
        },
        { error: 'expected { key, params } (the note as a message)' },
      )
      .optional(),
  });
}

const VERSION_ERROR = `expected ${TRACE_VERSION} (or no version: a version 1 trace)`;

/** The schema of a trace of loop L: its frames read through L's schemas (LOOP_SCHEMAS[L]); typed
 * by L's world summary, so a parsed trace narrowed on `loop` has that loop's worlds. */
function traceSchemaFor<L extends LoopId>(
  loop: L,
  { controller, world }: { controller: z.ZodType<ControllerSummary>; world: z.ZodType<WorldSummaryOf<L>, WorldObject> },
) {
  return z.object({
    version: z.literal(TRACE_VERSION, { error: VERSION_ERROR }).optional(),
    loop: z.literal(loop),
    scenario: z.string({ error: 'expected the scenario name' }),
    seed: z.number({ error: 'expected the seed (a number)' }),
    policy: z.string({ error: 'expected a policy name' }).optional(),
    frames: z
      .array(frameSchema(controller, world), { error: 'expected a list of frames' })
      .min(1, { error: 'expected at least one frame' }),
    lasso: lassoSchema.optional(),
  });
}

// A liveness counterexample's cycle (optional: traces without it, old ones included, load as before).
const CYCLE_START = 'expected the index of the frame where the repeating cycle starts (a whole number ≥ 0)';
const lassoSchema = z.object(
  {
    cycleStart: z.number({ error: CYCLE_START }).int({ error: CYCLE_START }).min(0, { error: CYCLE_START }),
  },
  { error: 'expected { cycleStart } (the frame where the repeating cycle starts)' },
);

/** Each loop's trace schema, typed by its loop: a parsed trace narrowed on `loop` has that loop's frames. */
type TraceSchemas = { [L in LoopId]: ReturnType<typeof traceSchemaFor<L>> };
const TRACE_SCHEMAS = Object.fromEntries(LOOP_IDS.map((loop) => [loop, traceSchemaFor(loop, LOOP_SCHEMAS[loop])])) as TraceSchemas; // cast: each key's schema was built for that key (above)
const [firstLoop, ...otherLoops] = LOOP_IDS.map((loop) => TRACE_SCHEMAS[loop]);
if (!firstLoop) throw new Error('sim/loop-schemas.ts: LOOP_SCHEMAS has no loop');

const traceSchema = z
  .discriminatedUnion('loop', [firstLoop, ...otherLoops], { error: `expected one of ${LOOP_IDS.join(', ')}` })
  // Version 2 puts a controller on every frame; version 1 had none (the lab then draws the world only).
  .superRefine((trace, ctx) => {
    if (trace.lasso && trace.lasso.cycleStart >= trace.frames.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['lasso', 'cycleStart'],
        message: `expected a frame index below ${trace.frames.length} (the number of frames), got ${trace.lasso.cycleStart}`,
      });
    }
    if (trace.version !== TRACE_VERSION) return;
    const i = trace.frames.findIndex((f) => f.controller === undefined);
    if (i >= 0)
      ctx.addIssue({
        code: 'custom',
        path: ['frames', i, 'controller'],
        message: `expected the controller summary (every frame of a version ${TRACE_VERSION} trace has one)`,
      });
  });

export type ParsedTrace = { ok: true; trace: LoopTrace } | { ok: false; error: string };

/** "frames.3.controller.averagePercent: expected number, received string" — the first problem. */
function firstProblem(error: z.ZodError, at: readonly (string | number)[] = []): string {
  const issue = error.issues[0]!;
  const path = [...at, ...issue.path].map(String).join('.');
  return `${path || '(top level)'}: ${issue.message}`;
}

/** A parsed JSON document → a version 2 trace (a version 1 trace is upgraded: its frames keep no controller). */
export function parseTrace(doc: unknown): ParsedTrace {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return { ok: false, error: '(top level): expected a trace object (version, loop, scenario, seed, frames)' };
  const parsed = traceSchema.safeParse(doc);
  if (!parsed.success) return { ok: false, error: firstProblem(parsed.error) };
  return { ok: true, trace: { ...parsed.data, version: TRACE_VERSION } };
}

/** Trace JSON text → a version 2 trace, or the first problem (field path and expectation) in words. */
export function parseTraceText(text: string): ParsedTrace {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `malformed JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return parseTrace(doc);
}

/** One version 2 frame of a loop's trace (the live stream sends them one by one), or its first problem; `at` prefixes the field path. */
export function parseFrame(
  loop: LoopId,
  doc: unknown,
  at: readonly (string | number)[] = [],
): { ok: true; frame: Frame } | { ok: false; error: string } {
  const parsed = frameSchema(LOOP_SCHEMAS[loop].controller, LOOP_SCHEMAS[loop].world).required({ controller: true }).safeParse(doc);
  return parsed.success ? { ok: true, frame: parsed.data } : { ok: false, error: firstProblem(parsed.error, at) };
}

/** The JSON every writer emits (one line, no newline): stamped with the current version. */
export function traceJson(trace: Trace): string {
  return JSON.stringify({ version: TRACE_VERSION, ...trace });
}
