/** Virtual time as m:ss (or h:mm:ss) — what a presenter reads out. */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100] as const;
