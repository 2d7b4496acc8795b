import type { HpaConfig } from '../../../machines/incus-hpa';
import type { Frame } from '../../../sim/trace';
import type { HpaWorldSummary } from '../../../sim/worlds/incus-hpa';
import type { LabSession } from '../../lab/session';

export const asHpa = (frame: Frame) => frame.world as HpaWorldSummary;

/** Running pods and their average memory % (floor, as the seed computes it). */
export function hpaStats(world: HpaWorldSummary): { running: number; avg: number | null } {
  const pcts = world.pods.filter((p) => p.status === 'Running' && p.owned && p.pct !== null).map((p) => p.pct!);
  return { running: pcts.length, avg: pcts.length ? Math.floor(pcts.reduce((a, b) => a + b, 0) / pcts.length) : null };
}

/** The threshold in force: the runner's config, or (for a loaded trace) the last one a note named. */
export function hpaThreshold(session: LabSession, index: number): number | null {
  const config = session.runner?.config as HpaConfig | undefined;
  if (config) return config.memoryThreshold;
  for (let i = index; i >= 0; i--) {
    const m = /threshold (\d+)%/.exec(session.frames[i]!.note ?? '');
    if (m) return Number(m[1]);
  }
  return null;
}
