import type { CronContext, DueRun } from '../../machines/cron';
import { formatMinute } from '../../machines/cron';
import type { CronWorld } from '../worlds/cron';
import { wallAt } from '../worlds/cron';
import type { CronController } from './cron-controller-schema';

const run = (r: DueRun) => ({ job: r.job, minute: formatMinute(r.minute) });
const minuteOrNull = (m: number | null) => (m === null ? null : formatMinute(m));

/** The one cron summary: the context's clocks and due runs, and the world's wall clock at t. */
export function cronController(ctx: CronContext, world: CronWorld, t: number): CronController {
  return {
    loop: 'cron',
    mode: ctx.config.mode ?? 'cronie',
    wallClock: formatMinute(Math.floor(wallAt(world, t) / 60_000)),
    virtualTime: minuteOrNull(ctx.virtualTime),
    timeRunning: minuteOrNull(ctx.timeRunning),
    wakeup: ctx.wakeup ? { kind: ctx.wakeup.kind, diff: ctx.wakeup.diff } : null,
    due: ctx.pending.map(run),
    kill: ctx.kill.map(run),
  };
}
