import type { Frame } from '../trace';
import type { TerraformWorldSummary } from './terraform-world-schema';

/** "serial  3  objects 4  unmanaged 1  LOCKED" — the backend and the cloud at a glance. */
export function terraformColumns(frame: Frame<TerraformWorldSummary>): string {
  const w = frame.world;
  return `serial ${String(w.serial).padStart(2)}  objects ${String(w.cloud.length).padStart(2)}  unmanaged ${w.unmanaged}  ${w.lock ? 'LOCKED' : 'unlocked'}${w.dataLostGb ? `  lost ${w.dataLostGb} GB` : ''}`;
}
