import type { Frame } from '../../../sim/trace';
import { controllerOf } from '../../../sim/trace';
import type { HpaWorldSummary } from '../../../sim/worlds/incus-hpa';

export const asHpa = (frame: Frame) => frame.world as HpaWorldSummary;

/**
 * What the lab prints about the HPA on a frame, read from frame.controller (the summary the CLI
 * timeline and real mode print too). A version 1 trace has no controller: the running count then
 * comes from the world, the average and threshold are unknown (null).
 */
export function hpaNumbers(frame: Frame): { running: number; avg: number | null; threshold: number | null } {
  const c = controllerOf(frame, 'incus-hpa');
  if (c) return { running: c.pods.running, avg: c.averagePercent, threshold: c.threshold };
  return { running: asHpa(frame).pods.filter((p) => p.owned && p.status === 'Running').length, avg: null, threshold: null };
}
