// cron's frame.world, as the trace format reads it (sim/world-summary.ts): the summary function
// that fills it is sim/worlds/cron.ts. Loose objects: a reader keeps what a newer writer adds.
import { z } from 'zod';
import type { WorldObject } from '../world-object';
import type { CronWorldSummary } from '../worlds/cron';

export const cronWorldSchema: z.ZodType<CronWorldSummary, WorldObject> = z.looseObject({
  clock: z.string(),
  up: z.boolean(),
  running: z.array(z.looseObject({ job: z.string(), since: z.number() })),
  recent: z.array(z.looseObject({ job: z.string(), minute: z.string(), at: z.number(), skipped: z.boolean() })),
  counts: z.record(z.string(), z.looseObject({ runs: z.number(), skipped: z.number(), maxConcurrent: z.number() })),
});
