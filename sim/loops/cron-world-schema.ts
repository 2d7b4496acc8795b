// cron's frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary function
// that fills it is sim/worlds/cron.ts. Loose objects: a reader keeps what a newer writer adds.
// The summary's type is declared here, with its schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';

export interface CronWorldSummary {
  /** Local wall clock "YYYY-MM-DD HH:MM". */
  clock: string;
  up: boolean;
  running: { job: string; since: number }[];
  recent: { job: string; minute: string; at: number; skipped: boolean }[];
  counts: Record<string, { runs: number; skipped: number; maxConcurrent: number }>;
}

export const cronWorldSchema: z.ZodType<CronWorldSummary, WorldObject> = z.looseObject({
  clock: z.string(),
  up: z.boolean(),
  running: z.array(z.looseObject({ job: z.string(), since: z.number() })),
  recent: z.array(z.looseObject({ job: z.string(), minute: z.string(), at: z.number(), skipped: z.boolean() })),
  counts: z.record(z.string(), z.looseObject({ runs: z.number(), skipped: z.number(), maxConcurrent: z.number() })),
});
