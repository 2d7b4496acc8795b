import type { Frame } from '../trace';
import type { PuppetWorldSummary } from '../worlds/puppet';

/** "run  3 changed   exit 2  drifts 1" — the last report and how often the host was changed by hand. */
export function puppetColumns(frame: Frame): string {
  const w = frame.world as PuppetWorldSummary;
  const last = w.last ? `run ${String(w.last.run).padStart(2)} ${w.last.status.padEnd(9)} exit ${w.last.exitCode}` : 'no run yet'.padEnd(23);
  return `${last}  drifts ${String(w.drifts).padStart(2)}`;
}
