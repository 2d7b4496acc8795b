import type { ClockReading, DueRun, RunJobsInput } from '../../machines/cron';
import { formatMinute, minuteOf } from '../../machines/cron';
import type { OpResult, WorldModel } from '../model';
import type { RngState } from '../random';
import { drawFloat, drawInt, seedRng } from '../random';
import type { CronWorldSummary } from '../loops/cron-world-schema';
import type { CronNote } from '../notes/cron';
import { cronNote } from '../notes/cron';

/** How long each job runs: a base plus a seeded uniform jitter. */
export interface JobRuntime {
  durationMs: number;
  jitterMs: number;
}

export interface JobRun {
  id: number;
  job: string;
  minute: number;
  startedAt: number;
  endsAt: number;
  skipped: boolean;
  anacron?: boolean;
}

export interface CronWorld {
  rng: RngState;
  /** Local wall clock at t = 0 (ms since the epoch, read as local time), plus jumps since. */
  startWallMs: number;
  offsetMs: number;
  bootId: number;
  /** The host is down until then (crond and its jobs are gone). */
  downUntil: number;
  runtimes: Record<string, JobRuntime>;
  running: JobRun[];
  /** Recent runs, newest last (kept short: it is drawn). */
  history: JobRun[];
  /** Every run asked for, in order (the checker reads it; not drawn). */
  ran: { job: string; minute: number; skipped: boolean }[];
  counts: Record<string, { runs: number; skipped: number; maxConcurrent: number }>;
  nextRunId: number;
  nextOpId: number;
  /** anacron's timestamps (/var/spool/anacron/<job>): the day each job last finished; they survive reboots. */
  stamps: Record<string, number>;
  ops: { id: number; kind: 'clock' | 'run' }[];
  /** What this boot's crond draws for RANDOM_DELAY (cron.c RandomScale), from its own seeded stream
   * so that the jobs' runtime draws stay as they were; a new boot draws again. */
  randomScale: number;
  scaleRng: RngState;
  /** What the properties need of the past (sim/properties/cron.ts); nothing in the loop reads it. */
  monitor: CronMonitor;
}

/**
 * The history the cron properties read, kept small and in the state (so the explorer's canonical
 * key can hold it): how far crond's clock readings got, the minutes the last one passed, the runs
 * per scheduled time over the last day, and the runs of the last wake-up that repeated one.
 */
export interface CronMonitor {
  /** The highest wall-clock minute crond has read; null before its first reading. */
  readUpTo: number | null;
  /** The minutes the last reading passed for the first time, (from, to]; null when it passed none. */
  passed: { from: number; to: number } | null;
  /** Runs crond started (a flock-skipped one included) per job and scheduled minute, oldest first, one day back. */
  runs: Record<string, { minute: number; n: number }[]>;
  /** The runs of the last wake-up for a scheduled minute that already had one (cleared at the next reading). */
  repeats: DueRun[];
  /** A clock change of 3 h or more, or a reboot: outside what cron(8) promises for time changes. */
  outsideContract: boolean;
}

const MONITOR_DAY_MIN = 1440;
const emptyMonitor = (): CronMonitor => ({ readUpTo: null, passed: null, runs: {}, repeats: [], outsideContract: false });

export type CronFault =
  | { kind: 'clockJump'; byMs: number }
  | { kind: 'hostDown'; forMs: number }
  /** Mode kubernetes: kube-controller-manager is down; Jobs already running keep running. */
  | { kind: 'controllerDown'; forMs: number }
  /** The job's running run (if any) takes `byMs` longer than usual. */
  | { kind: 'overrun'; job: string; byMs: number };

export function createCronWorld(seed: number, startWallMs: number, runtimes: Record<string, JobRuntime>): CronWorld {
  const [randomScale, scaleRng] = drawFloat(seedRng(seed ^ SCALE_STREAM));
  return {
    rng: seedRng(seed),
    startWallMs,
    offsetMs: 0,
    bootId: 1,
    downUntil: 0,
    runtimes,
    running: [],
    history: [],
    ran: [],
    counts: {},
    nextRunId: 1,
    nextOpId: 1,
    ops: [],
    stamps: {},
    monitor: emptyMonitor(),
    randomScale,
    scaleRng,
  };
}

/** The RandomScale stream's seed offset (any constant: it only has to differ from the main stream's). */
const SCALE_STREAM = 0x52414e44;

const KEEP = 10;
export const wallAt = (w: CronWorld, t: number) => w.startWallMs + t + w.offsetMs;

/** Runs that ended by t leave the running list. */
function settle(w: CronWorld, t: number): CronWorld {
  if (!w.running.some((r) => r.endsAt <= t)) return w;
  // anacron(8): "After the command exits, Anacron records the date in a special timestamp file".
  const stamps = { ...(w.stamps ?? {}) };
  for (const r of w.running) if (r.anacron && r.endsAt <= t) stamps[r.job] = Math.floor(wallAt(w, r.endsAt) / 86_400_000);
  return { ...w, stamps, running: w.running.filter((r) => r.endsAt > t) };
}

function begin(world0: CronWorld, src: string, input: unknown, t: number) {
  let w = settle(world0, t);
  const id = w.nextOpId;
  w = { ...w, nextOpId: id + 1 };
  if (src === 'readClock') {
    if (w.monitor.repeats.length) w = { ...w, monitor: { ...w.monitor, repeats: [] } };
    // While the host is down nothing runs; the next reading comes from the crond of the next boot.
    const doneAt = Math.max(t, w.downUntil);
    return { world: { ...w, ops: [...w.ops, { id, kind: 'clock' as const }] }, opId: id, doneAt };
  }
  if (src === 'runJobs') {
    const { runs, flock, kill, anacron } = input as RunJobsInput; // cast: setup() types runJobs's input as RunJobsInput
    // anacron -s: each job waits its delay (plus a random part), and starts after the previous one ended.
    let serialFrom = t;
    // concurrencyPolicy Replace: the active Jobs are deleted (their pods killed) before the new one starts.
    if (kill?.length) w = { ...w, running: w.running.filter((r) => !kill.some((k) => k.job === r.job && k.minute === r.minute)) };
    for (const [i, due] of runs.entries()) {
      const rt = w.runtimes[due.job] ?? { durationMs: 1000, jitterMs: 0 };
      let extra = 0;
      if (rt.jitterMs > 0) {
        const [v, rng] = drawInt(w.rng, 0, rt.jitterMs);
        extra = v;
        w = { ...w, rng };
      }
      const a = anacron?.[i];
      let startAt = t;
      if (a) {
        let random = 0;
        if (a.randomDelayMs > 0) {
          const [v, rng] = drawInt(w.rng, 0, Math.floor(a.randomDelayMs / 60_000));
          random = v * 60_000;
          w = { ...w, rng };
        }
        startAt = Math.max(t + a.delayMs + random, a.serialize ? serialFrom : t);
        serialFrom = startAt + rt.durationMs + extra;
      }
      const busy = w.running.some((r) => r.job === due.job);
      // `flock -n lock cmd` exits at once while the previous run holds the lock.
      const skipped = flock && busy;
      const run: JobRun = {
        id: w.nextRunId,
        job: due.job,
        minute: due.minute,
        startedAt: startAt,
        endsAt: skipped ? startAt : startAt + rt.durationMs + extra,
        skipped,
        ...(a ? { anacron: true } : {}),
      };
      const c = w.counts[due.job] ?? { runs: 0, skipped: 0, maxConcurrent: 0 };
      const running = skipped ? w.running : [...w.running, run];
      const concurrent = running.filter((r) => r.job === due.job).length;
      w = {
        ...w,
        nextRunId: w.nextRunId + 1,
        running,
        history: [...w.history, run].slice(-KEEP),
        ran: [...w.ran, { job: due.job, minute: due.minute, skipped }],
        counts: {
          ...w.counts,
          [due.job]: {
            runs: c.runs + (skipped ? 0 : 1),
            skipped: c.skipped + (skipped ? 1 : 0),
            maxConcurrent: Math.max(c.maxConcurrent, concurrent),
          },
        },
        monitor: recordRun(w.monitor, due),
      };
    }
    return { world: { ...w, ops: [...w.ops, { id, kind: 'run' as const }] }, opId: id, doneAt: t };
  }
  throw new Error(`cron world has no actor "${src}"`);
}

function complete(world0: CronWorld, opId: number, t: number): { world: CronWorld; result: OpResult } {
  const op = world0.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  let w = settle({ ...world0, ops: world0.ops.filter((o) => o.id !== opId) }, t);
  if (op.kind === 'clock') w = { ...w, monitor: recordReading(w.monitor, minuteOf(wallAt(w, t))) };
  if (op.kind === 'clock')
    return {
      world: w,
      result: {
        ok: true,
        output: {
          wallMs: wallAt(w, t),
          bootId: w.bootId,
          active: w.running.map((r) => ({ job: r.job, minute: r.minute })),
          stamps: w.stamps,
          randomScale: w.randomScale,
        } satisfies ClockReading,
      },
    };
  return { world: w, result: { ok: true } };
}

/** cron(8): "Local time changes of less than three hours … are handled in a special way"; a reboot loses crond's virtual time. */
const CONTRACT_MS = 3 * 3_600_000;

function recordReading(m: CronMonitor, now: number): CronMonitor {
  if (m.readUpTo === null) return { ...m, readUpTo: now, passed: null };
  if (now <= m.readUpTo) return m.passed === null ? m : { ...m, passed: null };
  const from = now - MONITOR_DAY_MIN;
  const runs = Object.fromEntries(
    Object.entries(m.runs).map(([job, list]) => [job, list[0] && list[0].minute < from ? list.filter((r) => r.minute >= from) : list]),
  );
  return { ...m, readUpTo: now, passed: { from: m.readUpTo, to: now }, runs };
}

function recordRun(m: CronMonitor, due: DueRun): CronMonitor {
  const list = m.runs[due.job] ?? [];
  const at = list.findIndex((r) => r.minute === due.minute);
  const next =
    at === -1
      ? [...list, { minute: due.minute, n: 1 }].sort((a, b) => a.minute - b.minute)
      : list.map((r, i) => (i === at ? { minute: r.minute, n: r.n + 1 } : r));
  return { ...m, runs: { ...m.runs, [due.job]: next }, repeats: at === -1 ? m.repeats : [...m.repeats, due] };
}

function inject(world0: CronWorld, fault: CronFault, t: number): { world: CronWorld; note: CronNote } {
  let w = settle(world0, t);
  if ((fault.kind === 'clockJump' && Math.abs(fault.byMs) >= CONTRACT_MS) || fault.kind === 'hostDown') {
    if (!w.monitor.outsideContract) w = { ...w, monitor: { ...w.monitor, outsideContract: true } };
  }
  if (fault.kind === 'clockJump') {
    const sign = fault.byMs >= 0 ? '+' : '−';
    const world = { ...w, offsetMs: w.offsetMs + fault.byMs };
    return {
      world,
      note: cronNote('cron.clockJumps', {
        by: `${sign}${Math.abs(fault.byMs) / 60_000}`,
        to: formatMinute(Math.floor(wallAt(world, t) / 60_000)),
      }),
    };
  }
  if (fault.kind === 'overrun') {
    const running = w.running.map((r) => (r.job === fault.job ? { ...r, endsAt: r.endsAt + fault.byMs } : r));
    return { world: { ...w, running }, note: cronNote('cron.overrun', { job: fault.job, minutes: fault.byMs / 60_000 }) };
  }
  if (fault.kind === 'controllerDown')
    return { world: { ...w, downUntil: t + fault.forMs }, note: cronNote('cron.controllerDown', { minutes: fault.forMs / 60_000 }) };
  // The host goes down: running jobs die with it; it boots again (a new boot id) after forMs.
  const [randomScale, scaleRng] = drawFloat(w.scaleRng);
  return {
    world: { ...w, running: [], downUntil: t + fault.forMs, bootId: w.bootId + 1, randomScale, scaleRng },
    note: cronNote('cron.hostDown', { minutes: fault.forMs / 60_000 }),
  };
}

function summary(world0: CronWorld, t: number): CronWorldSummary {
  const w = settle(world0, t);
  return {
    clock: formatMinute(Math.floor(wallAt(w, t) / 60_000)),
    up: t >= w.downUntil,
    running: w.running.map((r) => ({ job: r.job, since: r.startedAt })),
    recent: w.history.map((r) => ({ job: r.job, minute: formatMinute(r.minute), at: r.startedAt, skipped: r.skipped })),
    counts: w.counts,
  };
}

export const cronWorldModel: WorldModel<CronWorld, CronFault, CronWorldSummary> = { begin, complete, inject, summary };
