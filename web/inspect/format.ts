/** A catalog sentence with its {name} slots filled. */
export const fill = (sentence: string, values: Record<string, string | number>): string =>
  sentence.replace(/\{(\w+)\}/g, (slot, name: string) => (name in values ? String(values[name]) : slot));

/** A value as the page shows it: JSON, indented; undefined as —. */
export function shown(value: unknown): string {
  if (value === undefined) return '—';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A time as hh:mm:ss.mmm, local (the app's clock, as it stamped the message: events ms apart must differ). */
export function clock(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}
