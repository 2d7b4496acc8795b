import type { EventObject } from 'xstate';
import type { ViewSnapshot } from '../view-snapshot';
import type { SystemdContext } from '../../machines/systemd-restart';

/**
 * What the systemd-restart properties need to remember (sim/properties/systemd-restart.ts), kept
 * in the world so that it is part of the state the explorer hashes. It watches the operator's
 * systemctl requests, the unit's state and the process starts; nothing in the machine or the
 * world's operations reads it, so it cannot change a run.
 */
export interface SystemdMonitor {
  /** world.starts when the monitor last looked: a higher count means processes were started since. */
  seenStarts: number;
  /** Starts counted the way ratelimit.c counts them (a window opened by a start), emptied by reset-failed. */
  window: { begin: number | null; num: number };
  /** When the last `systemctl start`/`restart` arrived: a start at that same instant is the operator's. */
  lastStartRequestAt: number | null;
  /** Starts since `systemctl stop` (null: no stop since the last start request). */
  startsSinceStop: number | null;
  /** Starts since the unit was seen `failed` (null: not failed since the last start request). */
  startsSinceFailed: number | null;
  /** The latest start, if automatic and after an exit: ms from that exit to it (null otherwise). */
  lastAutoStartGapMs: number | null;
  /** When the unit entered stop-sigterm (waiting for a process that caught KillSignal=); null when not there. */
  sigtermSince: number | null;
}

export const EMPTY_MONITOR: SystemdMonitor = {
  seenStarts: 0,
  window: { begin: null, num: 0 },
  lastStartRequestAt: null,
  startsSinceStop: null,
  startsSinceFailed: null,
  lastAutoStartGapMs: null,
  sigtermSince: null,
};

/** The part of the world the monitor reads. */
export interface MonitoredWorld {
  starts: number;
  exits: readonly { at: number }[];
  monitor: SystemdMonitor;
}

/**
 * systemd keeps time in whole microseconds (usec_t); virtual time is milliseconds as floating
 * point, where a RestartSteps= delay such as 2077.492 ms added to an exit's time and taken away
 * again can come back 1837.9999999999982. The gap is measured at systemd's resolution.
 */
const toMicroseconds = (ms: number) => Math.round(ms * 1000) / 1000;

const topState = (snapshot: ViewSnapshot<SystemdContext>) =>
  typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value as object)[0]!; // cast: a state value that is not a string is a record
const isStartRequest = (type: string) => type === 'SYSTEMCTL.START' || type === 'SYSTEMCTL.RESTART';

/** LoopBinding.monitor for systemd-restart: called after every event the machine takes. */
export function observeSystemd<W extends MonitoredWorld>(
  world: W,
  event: EventObject,
  snapshot: ViewSnapshot<SystemdContext>,
  t: number,
): W {
  const before = world.monitor;
  let m = before;
  const unit = snapshot.context.unit;
  // 1. Processes started by this step (the spawn is in the world already).
  for (let n = world.starts - m.seenStarts; n > 0; n--) {
    const open = m.window.begin !== null && t - m.window.begin <= unit.startLimitIntervalMs;
    const lastExit = world.exits.at(-1);
    const manual = m.lastStartRequestAt === t;
    m = {
      ...m,
      seenStarts: m.seenStarts + 1,
      window: open ? { begin: m.window.begin, num: m.window.num + 1 } : { begin: t, num: 1 },
      startsSinceStop: m.startsSinceStop === null ? null : m.startsSinceStop + 1,
      startsSinceFailed: m.startsSinceFailed === null ? null : m.startsSinceFailed + 1,
      lastAutoStartGapMs: manual || lastExit === undefined ? null : toMicroseconds(t - lastExit.at),
    };
  }
  // 2. The operator's request, whether or not the unit's state lets it act.
  if (isStartRequest(event.type)) m = { ...m, lastStartRequestAt: t, startsSinceStop: null, startsSinceFailed: null };
  else if (event.type === 'SYSTEMCTL.STOP') m = { ...m, startsSinceStop: m.startsSinceStop ?? 0 };
  // `systemctl reset-failed` flushes the start rate counter (unit_reset_failed → ratelimit_reset).
  else if (event.type === 'SYSTEMCTL.RESET_FAILED') m = { ...m, window: EMPTY_MONITOR.window };
  // 3. The unit as it is now.
  const top = topState(snapshot);
  if (top === 'failed' && m.startsSinceFailed === null) m = { ...m, startsSinceFailed: 0 };
  if (top === 'stopSigterm' && m.sigtermSince === null) m = { ...m, sigtermSince: t };
  else if (top !== 'stopSigterm' && m.sigtermSince !== null) m = { ...m, sigtermSince: null };
  return m === before ? world : { ...world, monitor: m };
}
