import type { CronConfig, CronContext, CronEntry, DueRun } from '../../machines/cron';
import { minuteOf } from '../../machines/cron';
import type { EnvMove, CheckState } from '../check/model';
import { writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
import { writeSnapshot } from '../check/snapshot-key';
import type { CronFault, CronWorld } from '../worlds/cron';
import { wallAt } from '../worlds/cron';

/** The cron loop's canonical key for the explorer (sim/properties/cron.ts is the rest of its check). */

export const modeOf = (c: CronConfig) => c.mode ?? 'cronie';
export const scheduled = (e: CronEntry) => !e.reboot;
/** The clock changes (ms, signed) among the environment's moves. */
export const jumps = (alphabet: readonly EnvMove<CronFault, CronConfig>[]) =>
  alphabet.flatMap((m) => ('fault' in m.entry && m.entry.fault.kind === 'clockJump' ? [m.entry.fault.byMs] : []));

const DAY_MS = 86_400_000;

const mod = (a: number, b: number) => ((a % b) + b) % b;

/**
 * The canonical key: everything the future depends on, clock minutes relative to the wall minute.
 * - time: t itself while a move may still happen (applicability reads it); after the last `at`
 *   only the wall clock's time of day, or of the hour when every job runs hourly — the crontab
 *   repeats with it (validate), so the search closes.
 * - machine: its state, virtualTime and timeRunning, lastWallMs within its minute (all that
 *   untilNextMinute reads), whether crond has seen this boot, the pending runs and kills; wakeup,
 *   rebooted and the controller's events only feed notes, and the crontab is fixed (validate).
 *   kubernetes: lastScheduleTime per CronJob, and createdAt until each has one (then it is unread).
 * - world: the outage's end, the running jobs (ended ones go at the next settle), and the monitor:
 *   a scheduled minute only matters once it has a run (the count is never read), and only from
 *   readUpTo − lookback on: cronie scans at most 180 min back from the clock and the clock never
 *   gets back further than the backward jumps add up to; a CronJob creates Jobs only for times
 *   after its lastScheduleTime. The minutes the last reading passed are kept for fixed-no-skip.
 *   History, counts, run and op ids, and the rng (no jitter: validate) are dropped.
 */
export function cronCanonicalizer(start: { config: CronConfig; world: CronWorld }, alphabet: readonly EnvMove<CronFault, CronConfig>[]) {
  const maxAt = Math.max(-1, ...alphabet.map((m) => m.entry.at));
  const backMin = Math.ceil(
    jumps(alphabet)
      .filter((b) => b < 0)
      .reduce((a, b) => a - b, 0) / 60_000,
  );
  const kubernetes = modeOf(start.config) === 'kubernetes';
  const lookbackMin = backMin + 181;
  const hourly = start.config.entries.every((e) => e.reboot || e.hour.every(Boolean));
  const periodMs = hourly ? 3_600_000 : DAY_MS;
  const names = start.config.entries.filter(scheduled).map((e) => e.name);

  return (state: CheckState<CronWorld, CronConfig, CronContext>, key: KeyWriter): void => {
    const { t, world: w } = state;
    const wall = wallAt(w, t);
    const now = minuteOf(wall);
    // A minute relative to the wall minute; none (null) is NaN, never a difference of minutes.
    const rel = (m: number | null) => key.num(m === null ? Number.NaN : m - now);
    const runs = (list: readonly DueRun[]) => {
      key.list(list.length);
      for (const r of list) {
        key.str(r.job);
        rel(r.minute);
      }
    };
    const ctx = state.snapshot.context;
    key.flag(t <= maxAt);
    if (t <= maxAt) key.num(t);
    key.num(mod(wall, periodMs));
    writeSnapshot(state.snapshot, key);
    rel(ctx.virtualTime);
    rel(ctx.timeRunning);
    key.num(ctx.lastWallMs === null ? Number.NaN : mod(ctx.lastWallMs, 60_000));
    key.num(ctx.bootId === null ? 0 : ctx.bootId === w.bootId ? 1 : 2);
    runs(ctx.pending);
    runs(ctx.kill);
    if (kubernetes) {
      const k = ctx.k8s;
      const all = names.every((n) => (k.status[n]?.lastScheduleTime ?? null) !== null);
      // createdAt: none, unread (every CronJob has a lastScheduleTime), or relative to the wall clock
      key.num(k.createdAt === null ? 0 : all ? 1 : 2);
      if (k.createdAt !== null && !all) key.num(k.createdAt - wall);
      // names is fixed for the search: a flag per CronJob says whether its time follows
      for (const n of names) {
        const s = k.status[n]?.lastScheduleTime;
        key.flag(s !== undefined && s !== null);
        if (s !== undefined && s !== null) key.num(s - wall);
      }
    }
    key.num(Math.max(0, w.downUntil - t));
    let live = 0;
    for (const r of w.running) if (r.endsAt > t) live++;
    key.list(live);
    for (const r of w.running) {
      if (r.endsAt <= t) continue;
      key.str(r.job);
      rel(r.minute);
      key.num(r.endsAt - t);
    }
    const m = w.monitor;
    rel(m.readUpTo);
    key.flag(m.passed !== null);
    if (m.passed) {
      rel(m.passed.from);
      rel(m.passed.to);
    }
    key.flag(m.outsideContract);
    runs(m.repeats);
    const judged = m.passed ? m.passed.from + 1 : Number.POSITIVE_INFINITY;
    const from = Math.min(judged, (m.readUpTo ?? now) - lookbackMin);
    // The jobs with runs still kept, each followed by its kept minutes; a false flag ends them.
    for (const job of Object.keys(m.runs).sort()) {
      const last = kubernetes ? ctx.k8s.status[job]?.lastScheduleTime : undefined;
      // A CronJob only ever creates Jobs for times after its lastScheduleTime.
      const since = last === undefined || last === null ? from : Math.min(judged, minuteOf(last));
      const list = m.runs[job]!;
      let kept = 0;
      for (const r of list) if (r.minute >= since) kept++;
      if (!kept) continue;
      key.flag(true);
      key.str(job);
      key.list(kept);
      for (const r of list) if (r.minute >= since) rel(r.minute);
    }
    key.flag(false);
    writeQueue(state, key, (id) => w.ops.find((o) => o.id === id)?.kind ?? '?');
  };
}
