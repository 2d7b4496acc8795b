import type { Frame } from '../trace';
import { controllerOf } from '../trace';
import type { SystemdWorldSummary } from './systemd-restart-world-schema';

/** "activating (auto-restart)  PID 1004  starts 5" — what `systemctl status` would say. */
export function systemdColumns(frame: Frame<SystemdWorldSummary>): string {
  const w = frame.world;
  const c = controllerOf(frame, 'systemd-restart');
  const status = (c ? `${c.active} (${c.sub})` : frame.state).padEnd(28);
  const pid = w.main ? `PID ${w.main.pid}${w.main.hung ? '!' : ''}` : '-';
  return `${status} ${pid.padEnd(9)} starts ${String(w.starts).padStart(3)}`;
}
