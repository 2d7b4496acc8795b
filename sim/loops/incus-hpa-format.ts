import type { Frame } from '../trace';
import { controllerOf } from '../trace';

/** "pods  2 +1↑ mem  63%": the HPA's running pods, those starting or stopping, the policy's average (from the controller: any world). */
export function hpaColumns(frame: Pick<Frame, 'controller'>): string {
  const c = controllerOf(frame, 'incus-hpa');
  // A version 1 trace has no controller: its numbers are unknown, not guessed from the world.
  if (!c) return `pods  -${''.padEnd(6)} mem   -%`;
  const { running, starting, stopping } = c.pods;
  const avg = c.averagePercent;
  const extra = `${starting ? ` +${starting}↑` : ''}${stopping ? ` ${stopping}↓` : ''}`;
  return `pods ${String(running).padStart(2)}${extra.padEnd(6)} mem ${avg === null ? '  -' : String(avg).padStart(3)}%`;
}
