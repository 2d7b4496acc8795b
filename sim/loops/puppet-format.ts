import type { Frame } from '../trace';
import { controllerOf } from '../trace';
import type { PuppetWorldSummary } from './puppet-world-schema';

/** "run  3 changed   exit 2  drifts 1" — the agent's last report and how often the host was changed by hand. */
export function puppetColumns(frame: Frame<PuppetWorldSummary>): string {
  const w = frame.world;
  const r = controllerOf(frame, 'puppet')?.report ?? null;
  const last = r ? `run ${String(r.run).padStart(2)} ${r.status.padEnd(9)} exit ${r.exitCode}` : 'no run yet'.padEnd(23);
  return `${last}  drifts ${String(w.drifts).padStart(2)}`;
}
