import type { HpaConfig, ObservedInstance } from '../../machines/incus-hpa';
import { DEFAULT_CONFIG } from '../../machines/incus-hpa';

export const MiB = 1024 ** 2;
export const config = (over: Partial<HpaConfig> = {}): HpaConfig => ({ ...DEFAULT_CONFIG, ...over });

/** A pod as observed, with memory use given in percent of a 1000 MiB limit. */
export function pod(name: string, pct: number, over: Partial<ObservedInstance> = {}): ObservedInstance {
  return { name, status: 'Running', owner: 'hpa', memoryUsage: pct * 10 * MiB, memoryTotal: 1000 * MiB, createdAt: 0, ...over };
}
