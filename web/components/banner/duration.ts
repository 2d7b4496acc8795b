/** 1500 → "1.5s", 90000 → "1m30s": a delay as systemd and kubectl print it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
  const m = Math.floor(s / 60),
    rest = Math.round(s % 60);
  return rest ? `${m}m${rest}s` : `${m}min`;
}
