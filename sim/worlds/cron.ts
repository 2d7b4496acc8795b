import type { ClockReading, RunJobsInput } from '../../machines/cron';
import { formatMinute } from '../../machines/cron';
import type { OpResult, WorldModel } from '../model';
import type { RngState } from '../random';
import { drawInt, seedRng } from '../random';

/** How long each job runs: a base plus a seeded uniform jitter. */
export interface JobRuntime { durationMs: number; jitterMs: number }

export interface JobRun { id: number; job: string; minute: number; startedAt: number; endsAt: number; skipped: boolean; anacron?: boolean }

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
}

export type CronFault =
  | { kind: 'clockJump'; byMs: number }
  | { kind: 'hostDown'; forMs: number }
  /** Mode kubernetes: kube-controller-manager is down; Jobs already running keep running. */
  | { kind: 'controllerDown'; forMs: number };

export function createCronWorld(seed: number, startWallMs: number, runtimes: Record<string, JobRuntime>): CronWorld {
  return {
    rng: seedRng(seed), startWallMs, offsetMs: 0, bootId: 1, downUntil: 0, runtimes, running: [], history: [], ran: [],
    counts: {}, nextRunId: 1, nextOpId: 1, ops: [], stamps: {},
  };
}

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
    // While the host is down nothing runs; the next reading comes from the crond of the next boot.
    const doneAt = Math.max(t, w.downUntil);
    return { world: { ...w, ops: [...w.ops, { id, kind: 'clock' as const }] }, opId: id, doneAt };
  }
  if (src === 'runJobs') {
    const { runs, flock, kill, anacron } = input as RunJobsInput;
    // anacron -s: each job waits its delay (plus a random part), and starts after the previous one ended.
    let serialFrom = t;
    // concurrencyPolicy Replace: the active Jobs are deleted (their pods killed) before the new one starts.
    if (kill?.length) w = { ...w, running: w.running.filter((r) => !kill.some((k) => k.job === r.job && k.minute === r.minute)) };
    for (const [i, due] of runs.entries()) {
      const rt = w.runtimes[due.job] ?? { durationMs: 1000, jitterMs: 0 };
      let extra = 0;
      if (rt.jitterMs > 0) { const [v, rng] = drawInt(w.rng, 0, rt.jitterMs); extra = v; w = { ...w, rng }; }
      const a = anacron?.[i];
      let startAt = t;
      if (a) {
        let random = 0;
        if (a.randomDelayMs > 0) { const [v, rng] = drawInt(w.rng, 0, Math.floor(a.randomDelayMs / 60_000)); random = v * 60_000; w = { ...w, rng }; }
        startAt = Math.max(t + a.delayMs + random, a.serialize ? serialFrom : t);
        serialFrom = startAt + rt.durationMs + extra;
      }
      const busy = w.running.some((r) => r.job === due.job);
      // `flock -n lock cmd` exits at once while the previous run holds the lock.
      const skipped = flock && busy;
      const run: JobRun = { id: w.nextRunId, job: due.job, minute: due.minute, startedAt: startAt, endsAt: skipped ? startAt : startAt + rt.durationMs + extra, skipped, ...(a ? { anacron: true } : {}) };
      const c = w.counts[due.job] ?? { runs: 0, skipped: 0, maxConcurrent: 0 };
      const running = skipped ? w.running : [...w.running, run];
      const concurrent = running.filter((r) => r.job === due.job).length;
      w = {
        ...w, nextRunId: w.nextRunId + 1, running, history: [...w.history, run].slice(-KEEP), ran: [...w.ran, { job: due.job, minute: due.minute, skipped }],
        counts: { ...w.counts, [due.job]: { runs: c.runs + (skipped ? 0 : 1), skipped: c.skipped + (skipped ? 1 : 0), maxConcurrent: Math.max(c.maxConcurrent, concurrent) } },
      };
    }
    return { world: { ...w, ops: [...w.ops, { id, kind: 'run' as const }] }, opId: id, doneAt: t };
  }
  throw new Error(`cron world has no actor "${src}"`);
}

function complete(world0: CronWorld, opId: number, t: number): { world: CronWorld; result: OpResult } {
  const op = world0.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  const w = settle({ ...world0, ops: world0.ops.filter((o) => o.id !== opId) }, t);
  if (op.kind === 'clock') return { world: w, result: { ok: true, output: { wallMs: wallAt(w, t), bootId: w.bootId, active: w.running.map((r) => ({ job: r.job, minute: r.minute })), stamps: w.stamps } satisfies ClockReading } };
  return { world: w, result: { ok: true } };
}

function inject(world0: CronWorld, fault: CronFault, t: number): { world: CronWorld; note: string } {
  const w = settle(world0, t);
  if (fault.kind === 'clockJump') {
    const sign = fault.byMs >= 0 ? '+' : '−';
    const world = { ...w, offsetMs: w.offsetMs + fault.byMs };
    return { world, note: `clock jumps ${sign}${Math.abs(fault.byMs) / 60_000} min → ${formatMinute(Math.floor(wallAt(world, t) / 60_000))}` };
  }
  if (fault.kind === 'controllerDown') return { world: { ...w, downUntil: t + fault.forMs }, note: `kube-controller-manager down for ${fault.forMs / 60_000} min (running Jobs continue)` };
  // The host goes down: running jobs die with it; it boots again (a new boot id) after forMs.
  return { world: { ...w, running: [], downUntil: t + fault.forMs, bootId: w.bootId + 1 }, note: `host down for ${fault.forMs / 60_000} min` };
}

export interface CronWorldSummary {
  /** Local wall clock "YYYY-MM-DD HH:MM". */
  clock: string;
  up: boolean;
  running: { job: string; since: number }[];
  recent: { job: string; minute: string; at: number; skipped: boolean }[];
  counts: Record<string, { runs: number; skipped: number; maxConcurrent: number }>;
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

export const cronWorldModel: WorldModel<CronWorld, CronFault> = { begin, complete, inject, summary };
