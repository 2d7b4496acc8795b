import type { CronConfig, CronContext, CronEntry } from '../../machines/cron';
import { minuteOf } from '../../machines/cron';
import type { EnvMove, CheckState } from '../check/model';
import { writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
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

  return (state: CheckState<CronWorld, CronConfig, CronContext>, out: KeyWriter): void => {
    const { t, world: w } = state;
    const wall = wallAt(w, t);
    const now = minuteOf(wall);
    const rel = (m: number | null) => (m === null ? 'n' : String(m - now));
    const ctx = state.snapshot.context;
    let key = `${t <= maxAt ? `t${t}` : ''}|${mod(wall, periodMs)}|${JSON.stringify(state.snapshot.value)}|${Object.keys(state.snapshot.children).join(',')}`;
    key += `|${rel(ctx.virtualTime)},${rel(ctx.timeRunning)},${ctx.lastWallMs === null ? 'n' : mod(ctx.lastWallMs, 60_000)},${ctx.bootId === null ? 'n' : ctx.bootId === w.bootId ? '=' : '≠'}`;
    key += `|${ctx.pending.map((r) => `${r.job}@${rel(r.minute)}`).join(',')}|${ctx.kill.map((r) => `${r.job}@${rel(r.minute)}`).join(',')}`;
    if (kubernetes) {
      const k = ctx.k8s;
      const all = names.every((n) => (k.status[n]?.lastScheduleTime ?? null) !== null);
      key += `|c${k.createdAt === null ? 'n' : all ? '' : k.createdAt - wall}`;
      for (const n of names) {
        const s = k.status[n]?.lastScheduleTime;
        if (s !== undefined && s !== null) key += `,${n}:${s - wall}`;
      }
    }
    key += `|d${Math.max(0, w.downUntil - t)}|r${w.running
      .filter((r) => r.endsAt > t)
      .map((r) => `${r.job}@${rel(r.minute)}:${r.endsAt - t}`)
      .join(',')}`;
    const m = w.monitor;
    key += `|m${rel(m.readUpTo)},${m.passed ? `${rel(m.passed.from)}:${rel(m.passed.to)}` : ''},${m.outsideContract ? 1 : 0},${m.repeats.map((r) => `${r.job}@${rel(r.minute)}`).join(',')}`;
    const judged = m.passed ? m.passed.from + 1 : Number.POSITIVE_INFINITY;
    const from = Math.min(judged, (m.readUpTo ?? now) - lookbackMin);
    for (const job of Object.keys(m.runs).sort()) {
      const last = kubernetes ? ctx.k8s.status[job]?.lastScheduleTime : undefined;
      // A CronJob only ever creates Jobs for times after its lastScheduleTime.
      const since = last === undefined || last === null ? from : Math.min(judged, minuteOf(last));
      const kept = m.runs[job]!.filter((r) => r.minute >= since);
      if (kept.length) key += `|${job}:${kept.map((r) => rel(r.minute)).join(',')}`;
    }
    out.str(key);
    writeQueue(state, out, (id) => w.ops.find((o) => o.id === id)?.kind ?? '?');
  };
}
