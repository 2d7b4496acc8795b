import type { UnitStatus } from '../../../machines/systemd-restart';
import type { Frame } from '../../../sim/trace';
import { controllerOf } from '../../../sim/trace';

export interface StartWindow {
  num: number;
  burst: number;
  intervalMs: number;
  begin: number | null;
}

/** What `systemctl status` / `systemctl show` would print for the frame on screen. */
export interface UnitView {
  name: string | null;
  /** null: unknown (a version 1 trace has no controller summary). */
  status: UnitStatus | null;
  result: string | null;
  nRestarts: number | null;
  window: StartWindow | null;
}

/** Read from frame.controller, the summary the CLI timeline prints too. */
export function unitView(frame: Pick<Frame, 'controller'>): UnitView {
  const c = controllerOf(frame, 'systemd-restart');
  if (!c) return { name: null, status: null, result: null, nRestarts: null, window: null };
  const w = c.startLimit;
  return {
    name: c.unit,
    status: { active: c.active, sub: c.sub },
    result: c.result,
    nRestarts: c.nRestarts,
    window: { num: w.count, begin: w.begin, burst: w.burst, intervalMs: w.intervalMs },
  };
}
