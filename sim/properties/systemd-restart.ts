import type { UnitConfig } from '../../machines/systemd-restart';
import type { Frame, Trace } from '../trace';
import type { SystemdWorldSummary } from '../worlds/systemd-restart';

/** A broken invariant: which frame, and what went wrong. */
export interface Violation { frame: number; t: number; property: string; message: string }

type SFrame = Frame<SystemdWorldSummary>;
const startsAt = (frames: SFrame[]) => frames.flatMap((f, i) => (i > 0 && f.world.starts > frames[i - 1]!.world.starts ? [i] : []));
const isManualStart = (e: string) => e === 'SYSTEMCTL.START' || e === 'SYSTEMCTL.RESTART';

/**
 * systemd.unit(5) StartLimitIntervalSec=/StartLimitBurst=: within a window opened by a start,
 * at most `burst` starts happen; the window is the rate limit's (ratelimit.c), not a sliding one.
 */
export function startLimitRespected(trace: Trace<SystemdWorldSummary>, unit: UnitConfig): Violation[] {
  if (unit.startLimitIntervalMs <= 0 || unit.startLimitBurst <= 0) return [];
  const out: Violation[] = [];
  let begin: number | null = null;
  let num = 0;
  const starts = new Set(startsAt(trace.frames));
  for (let i = 0; i < trace.frames.length; i++) {
    // `systemctl reset-failed` resets the rate limit (unit_reset_failed → ratelimit_reset).
    if (trace.frames[i]!.event === 'SYSTEMCTL.RESET_FAILED') { begin = null; num = 0; }
    if (!starts.has(i)) continue;
    const t = trace.frames[i]!.t;
    if (begin === null || t - begin > unit.startLimitIntervalMs) { begin = t; num = 0; }
    num++;
    if (num > unit.startLimitBurst) out.push({ frame: i, t, property: 'startLimitRespected', message: `start #${num} within ${unit.startLimitIntervalMs}ms of ${begin} (burst ${unit.startLimitBurst})` });
  }
  return out;
}

/** systemd.service(5): a service stopped with `systemctl stop` is not restarted — until someone starts it. */
export function manualStopNeverRestarts(trace: Trace<SystemdWorldSummary>): Violation[] {
  const out: Violation[] = [];
  let stopped = false;
  trace.frames.forEach((f, i) => {
    if (f.event === 'SYSTEMCTL.STOP') stopped = true;
    else if (isManualStart(f.event)) stopped = false;
    else if (stopped && i > 0 && f.world.starts > trace.frames[i - 1]!.world.starts) {
      out.push({ frame: i, t: f.t, property: 'manualStopNeverRestarts', message: 'the process was started again after systemctl stop without a start request' });
    }
  });
  return out;
}

/** A failed unit stays failed: no start happens from the failed state without a start request. */
export function failedNeedsOperator(trace: Trace<SystemdWorldSummary>): Violation[] {
  const out: Violation[] = [];
  let failed = false;
  trace.frames.forEach((f, i) => {
    if (isManualStart(f.event)) failed = false;
    else if (failed && i > 0 && f.world.starts > trace.frames[i - 1]!.world.starts) {
      out.push({ frame: i, t: f.t, property: 'failedNeedsOperator', message: 'a failed unit started again on its own' });
    }
    if (f.state === 'failed') failed = true;
  });
  return out;
}

/** An automatic restart never comes sooner than RestartSec= after the exit that caused it. */
export function restartDelayRespected(trace: Trace<SystemdWorldSummary>, unit: UnitConfig): Violation[] {
  const out: Violation[] = [];
  let lastExitAt: number | null = null;
  let manual = false;
  trace.frames.forEach((f, i) => {
    const prev = trace.frames[i - 1];
    if (isManualStart(f.event)) manual = true;
    if (prev && f.world.exits.length && (prev.world.exits.at(-1)?.pid !== f.world.exits.at(-1)?.pid)) lastExitAt = f.t;
    if (prev && f.world.starts > prev.world.starts) {
      if (!manual && lastExitAt !== null && f.t - lastExitAt < unit.restartSecMs) {
        out.push({ frame: i, t: f.t, property: 'restartDelayRespected', message: `restarted ${f.t - lastExitAt}ms after the exit (RestartSec=${unit.restartSecMs}ms)` });
      }
      manual = false;
    }
  });
  return out;
}

/** All systemd-restart invariants for one trace. */
export function systemdViolations(trace: Trace<SystemdWorldSummary>, unit: UnitConfig): Violation[] {
  return [...startLimitRespected(trace, unit), ...manualStopNeverRestarts(trace), ...failedNeedsOperator(trace), ...restartDelayRespected(trace, unit)];
}
