import { unitStatus } from '../../machines/systemd-restart';
import type { Frame } from '../trace';
import type { SystemdWorldSummary } from '../worlds/systemd-restart';

/** "activating (auto-restart)  PID 1004  starts 5" — what `systemctl status` would say. */
export function systemdColumns(frame: Frame): string {
  const w = frame.world as SystemdWorldSummary;
  const last = w.exits.at(-1);
  const cleanLast = last === undefined || last.how === 'exit 0';
  const s = unitStatus(frame.state, { result: cleanLast ? 'success' : 'exit-code' });
  const status = `${s.active} (${s.sub})`.padEnd(28);
  const pid = w.main ? `PID ${w.main.pid}${w.main.hung ? '!' : ''}` : '-';
  return `${status} ${pid.padEnd(9)} starts ${String(w.starts).padStart(3)}`;
}
