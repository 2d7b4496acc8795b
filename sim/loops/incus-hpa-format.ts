import type { Frame } from '../trace';
import type { HpaWorldSummary } from '../worlds/incus-hpa';

/** "pods 2/5 +1" style: running owned pods, and those starting or stopping. */
export function hpaColumns(frame: Frame): string {
  const w = frame.world as HpaWorldSummary;
  const running = w.pods.filter((p) => p.status === 'Running');
  const starting = w.pods.filter((p) => p.status === 'Starting').length;
  const stopping = w.pods.filter((p) => p.status === 'Stopping').length;
  const pcts = running.map((p) => p.pct ?? 0);
  const avg = pcts.length ? Math.floor(pcts.reduce((a, b) => a + b, 0) / pcts.length) : null;
  const extra = `${starting ? ` +${starting}↑` : ''}${stopping ? ` ${stopping}↓` : ''}`;
  return `pods ${String(running.length).padStart(2)}${extra.padEnd(6)} mem ${avg === null ? '  -' : String(avg).padStart(3)}%`;
}
