// cron's frame.controller, as the trace format reads it (sim/loop-schemas.ts): zod only, so
// the trace format sits below the worlds; the summary function that fills it is ./cron-controller.ts.
import { z } from 'zod';

const minute = z.string();
const runSchema = z.object({ job: z.string(), minute });

/** frame.controller for cron: crond's clocks next to the host's, and the runs it found due. */
export const cronControllerSchema = z.object({
  loop: z.literal('cron'),
  mode: z.enum(['cronie', 'kubernetes', 'anacron']),
  /** The host's wall clock at the frame's time, "YYYY-MM-DD HH:MM". */
  wallClock: minute,
  /** cron.c: the minute crond has processed up to (virtualTime) and the clock minute it last read (timeRunning). */
  virtualTime: minute.nullable(),
  timeRunning: minute.nullable(),
  /** How the last wake-up was classified (timeDiff in minutes); null at crond's start. */
  wakeup: z.object({ kind: z.enum(['normal', 'small', 'medium', 'negative', 'large']), diff: z.number().int() }).nullable(),
  /** Runs found due at the last wake-up and not yet started, and Jobs to delete (concurrencyPolicy Replace). */
  due: z.array(runSchema),
  kill: z.array(runSchema),
});
export type CronController = z.infer<typeof cronControllerSchema>;
