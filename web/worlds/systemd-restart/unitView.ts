import type { ServiceResult, SystemdContext, UnitStatus } from '../../../machines/systemd-restart';
import { unitStatus } from '../../../machines/systemd-restart';
import type { Frame } from '../../../sim/trace';
import type { SystemdWorldSummary } from '../../../sim/worlds/systemd-restart';
import type { LabSession } from '../../lab/session';
import { presentContext } from '../presentContext';

export const asSystemd = (frame: Frame) => frame.world as SystemdWorldSummary;

export interface StartWindow { num: number; burst: number; intervalMs: number; begin: number | null }

/** What `systemctl status` / `systemctl show` would print for the frame on screen. */
export interface UnitView {
  name: string | null;
  status: UnitStatus;
  result: string | null;
  /** Context-only values: null when the frame is not the present of a live run. */
  nRestarts: number | null;
  window: StartWindow | null;
}

// The journal lines the binding writes name the result (sim/loops/systemd-restart.ts noteFor).
const RESULT_IN_NOTE = /result '([a-z-]+)'/;

/** The latest Result= a note names, at or before frame `index`. */
function resultFromNotes(frames: Frame[], index: number): string | null {
  for (let i = index; i >= 0; i--) {
    const m = RESULT_IN_NOTE.exec(frames[i]!.note ?? '');
    if (m) return m[1]!;
  }
  return null;
}

export function unitView(session: LabSession, frame: Frame): UnitView {
  const ctx = presentContext<SystemdContext>(session);
  const result = ctx?.result ?? resultFromNotes(session.frames, session.index);
  const u = ctx?.unit;
  return {
    name: u?.name ?? /^(\S+\.service):/.exec(session.frames[0]?.note ?? '')?.[1] ?? null,
    status: unitStatus(frame.state, { result: (result ?? 'success') as ServiceResult }),
    result,
    nRestarts: ctx?.nRestarts ?? null,
    window: ctx && u ? { num: ctx.startLimit.num, begin: ctx.startLimit.begin, burst: u.startLimitBurst, intervalMs: u.startLimitIntervalMs } : null,
  };
}
