import { clock } from '../lab/format';

/** Tick spacings (seconds) a person reads: whole seconds, minutes, hours — never five "0:00" ticks. */
export const TIME_INCREMENTS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** A tick label: m:ss (h:mm:ss), with tenths of a second only when ticks are closer than a second. */
function tickLabel(seconds: number, increment: number, lang: string): string {
  if (increment >= 1) return clock(Math.round(seconds * 1000));
  const whole = Math.floor(seconds + 1e-9);
  const tenths = Math.round((seconds - whole) * 10) % 10;
  const decimal = (0.5).toLocaleString(lang).charAt(1);
  return `${clock(whole * 1000)}${decimal}${tenths}`;
}

/** Labels for a set of splits (uPlot's axis `values`), from the spacing between them. */
export function tickLabels(splits: readonly number[], lang: string): string[] {
  const increment = splits.length > 1 ? Math.abs(splits[1]! - splits[0]!) : 1;
  return splits.map((s) => tickLabel(s, increment, lang));
}
