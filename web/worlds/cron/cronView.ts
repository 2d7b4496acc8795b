import type { CronConfig, CronEntry } from '../../../machines/cron';
import { formatMinute, nextSchedule } from '../../../machines/cron';
import type { FrameOf } from '../../../sim/trace';

/** The summary's clock "YYYY-MM-DD HH:MM" is the local wall clock read as UTC (machines/cron formatMinute). */
const wallMsOf = (clock: string) => Date.parse(`${clock.replace(' ', 'T')}:00Z`);

const NEXT_RUN_HORIZON_MS = 8 * 86_400_000;

/** The next minute each crontab line is due after the wall clock (cron.c find_jobs' match rule). */
export function nextRuns(entries: CronEntry[], clock: string): { entry: CronEntry; next: string | null }[] {
  const wall = wallMsOf(clock);
  return entries.map((entry) => {
    if (entry.reboot) return { entry, next: '@reboot' };
    const at = Number.isFinite(wall) ? nextSchedule(entry, wall, wall + NEXT_RUN_HORIZON_MS) : null;
    return { entry, next: at === null ? null : formatMinute(at / 60_000) };
  });
}

export const crontabOf = (config: unknown): CronEntry[] => (config as CronConfig | undefined)?.entries ?? []; // cast: the cron loop's config

export interface RunBar {
  job: string;
  minute: string;
  start: number;
  end: number | null;
  skipped: boolean;
  lane: number;
}

const runKey = (job: string, since: number) => `${job}@${since}`;

/**
 * The recent runs with their end: a run ends at the first frame (after its start, up to `index`)
 * whose `running` list no longer holds it; still running → end null. Lanes stack overlapping runs
 * of one job so they show side by side.
 */
export function runBars(frames: readonly FrameOf<'cron'>[], index: number): RunBar[] {
  const world = frames[index]!.world;
  const running = new Set(world.running.map((r) => runKey(r.job, r.since)));
  const bars: RunBar[] = [];
  for (const r of world.recent) {
    let end: number | null = null;
    if (r.skipped) end = r.at;
    else if (!running.has(runKey(r.job, r.at))) {
      let i = firstFrameAt(frames, r.at, index);
      for (; i <= index; i++) {
        if (!frames[i]!.world.running.some((x) => x.job === r.job && x.since === r.at)) break;
      }
      end = frames[Math.min(i, index)]!.t;
    }
    bars.push({ job: r.job, minute: r.minute, start: r.at, end, skipped: r.skipped, lane: 0 });
  }
  for (const b of bars) {
    const busy = bars.filter(
      (o) =>
        o !== b &&
        o.job === b.job &&
        o.lane >= 0 &&
        bars.indexOf(o) < bars.indexOf(b) &&
        o.start <= b.start &&
        (o.end === null || o.end > b.start),
    );
    b.lane = busy.length ? Math.max(...busy.map((o) => o.lane)) + 1 : 0;
  }
  return bars;
}

function firstFrameAt(frames: readonly FrameOf<'cron'>[], t: number, max: number): number {
  let lo = 0,
    hi = max;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
