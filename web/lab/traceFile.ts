import { z } from 'zod';
import type { Trace } from '../../sim/trace';
import { PHASES } from '../../sim/trace';

// The Trace of sim/trace.ts (DESIGN.md "A trace"); world summaries stay loop-specific.
const frameSchema = z.object({
  t: z.number().min(0),
  state: z.string(),
  phase: z.enum(PHASES as unknown as [string, ...string[]]),
  event: z.string(),
  world: z.unknown(),
  note: z.string().optional(),
});
const traceSchema = z.object({
  loop: z.string(),
  scenario: z.string(),
  seed: z.number(),
  policy: z.string().optional(),
  frames: z.array(frameSchema).min(1, { error: 'expected at least one frame' }),
});

/** JSON text → Trace, or the first problem (path and expectation) in words. */
export function parseTraceText(text: string): { ok: true; trace: Trace } | { ok: false; error: string } {
  let doc: unknown;
  try { doc = JSON.parse(text); } catch (e) { return { ok: false, error: `malformed JSON: ${(e as Error).message}` }; }
  const parsed = traceSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${issue.path.join('.') || '(top level)'}: ${issue.message}` };
  }
  return { ok: true, trace: parsed.data as Trace };
}
