import { z } from 'zod';
import type { CronContext, DueRun } from '../../machines/cron';
import { formatMinute } from '../../machines/cron';
import type { CronWorld } from '../worlds/cron';
import { wallAt } from '../worlds/cron';

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

const run = (r: DueRun) => ({ job: r.job, minute: formatMinute(r.minute) });
const minuteOrNull = (m: number | null) => (m === null ? null : formatMinute(m));

/** The one cron summary: the context's clocks and due runs, and the world's wall clock at t. */
export function cronController(ctx: CronContext, world: CronWorld, t: number): CronController {
  return {
    loop: 'cron', mode: ctx.config.mode ?? 'cronie', wallClock: formatMinute(Math.floor(wallAt(world, t) / 60_000)),
    virtualTime: minuteOrNull(ctx.virtualTime), timeRunning: minuteOrNull(ctx.timeRunning),
    wakeup: ctx.wakeup ? { kind: ctx.wakeup.kind, diff: ctx.wakeup.diff } : null,
    due: ctx.pending.map(run), kill: ctx.kill.map(run),
  };
}
