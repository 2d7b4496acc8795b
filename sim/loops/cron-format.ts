import type { Frame } from '../trace';
import type { CronWorldSummary } from './cron-world-schema';

/** "2026-03-29 02:00 up   running 2" — the wall clock crond reads and what is running. */
export function cronColumns(frame: Frame<CronWorldSummary>): string {
  const w = frame.world;
  return `${w.clock} ${w.up ? 'up  ' : 'DOWN'} running ${String(w.running.length).padStart(2)}`;
}
