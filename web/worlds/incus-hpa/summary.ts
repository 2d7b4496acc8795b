import type { FrameOf } from '../../../sim/trace';
import { controllerOf } from '../../../sim/trace';

/**
 * What the lab prints about the HPA on a frame, read from frame.controller (the summary the CLI
 * timeline and real mode print too). A version 1 trace has no controller: the running count then
 * comes from the world, the average and threshold are unknown (null).
 */
export function incusHpaNumbers(frame: FrameOf<'incus-hpa'>): { running: number; avg: number | null; threshold: number | null } {
  const c = controllerOf(frame, 'incus-hpa');
  if (c) return { running: c.pods.running, avg: c.averagePercent, threshold: c.threshold };
  return { running: frame.world.pods.filter((p) => p.owned && p.status === 'Running').length, avg: null, threshold: null };
}
