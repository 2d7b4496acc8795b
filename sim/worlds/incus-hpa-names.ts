/**
 * Where a created instance's name sorts. The HPA names an instance prefix + 8 random hex digits (the
 * lab's uuid.New().String()[:8]) and Incus lists instances ordered by name, which the policies read;
 * so where a new name lands among the others is the environment's choice, not the controller's.
 * The model checker makes that choice explicit (a rank: how many instances sort before the new
 * name), and the world turns a rank into a real name of the same shape.
 */

const HEX_DIGITS = 8;
const HEX_VALUES = 2 ** (4 * HEX_DIGITS);

/** prefix + n as 8 lowercase hex digits: for a fixed prefix, the order of n is the order of the names. */
const nameOf = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(HEX_DIGITS, '0')}`;

/** The smallest n for which `after(name of n)` holds (HEX_VALUES when none does); `after` is monotone in n. */
function first(prefix: string, after: (name: string) => boolean): number {
  let lo = 0;
  let hi = HEX_VALUES;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (after(nameOf(prefix, mid))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** bound() per (prefix, name, comparison): a search meets the same few names again and again. */
const bounds = new Map<string, number>();
const BOUNDS_KEPT = 4096;

/** The smallest n whose name is after `name` ('>') or not before it ('>='). */
function bound(prefix: string, name: string, op: '>' | '>='): number {
  const key = `${op}${prefix}\u0000${name}`;
  let n = bounds.get(key);
  if (n === undefined) {
    n = first(prefix, op === '>' ? (x) => x > name : (x) => x >= name);
    if (bounds.size >= BOUNDS_KEPT) bounds.clear();
    bounds.set(key, n);
  }
  return n;
}

/**
 * A name prefix + 8 hex digits that sorts after exactly `rank` of `sorted` (names in Incus's order),
 * or undefined when no such name exists (its neighbours leave no room, or the prefix cannot sort
 * there). The middle of the free range, so later choices keep room on both sides.
 */
export function nameAtRank(prefix: string, sorted: readonly string[], rank: number): string | undefined {
  if (rank < 0 || rank > sorted.length) return undefined;
  const before = sorted[rank - 1];
  const after = sorted[rank];
  // The names strictly between the neighbours: from the first after `before` to the first not before `after`.
  const from = before === undefined ? 0 : bound(prefix, before, '>');
  const until = after === undefined ? HEX_VALUES : bound(prefix, after, '>=');
  if (from >= until) return undefined;
  return nameOf(prefix, from + Math.floor((until - from - 1) / 2));
}

/** The choice in words: the move's label in a check report and the note of its frame. */
export const nameNextText = (rank: number) => `the next created name sorts after ${rank} instance${rank === 1 ? '' : 's'}`;

/** How many of `sorted` sort before `name` (its rank once added). */
export function rankOf(name: string, sorted: readonly string[]): number {
  let n = 0;
  while (n < sorted.length && sorted[n]! < name) n++;
  return n;
}
