/**
 * "Did you mean …?" for a misspelt name: an unknown key, loop or policy. Only a near miss is
 * suggested — an edit distance of at most 2 and at most a third of the word's length — so a
 * word that is merely different (`colour` for `config`) gets no guess.
 */

/**
 * Edits (insert, delete, substitute, or swap two neighbouring characters) between two words:
 * the optimal-string-alignment distance, so `incus-hap` is one edit from `incus-hpa`.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table: the swap looks two rows back.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1];
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (same ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/** Most edits a word of this length may be from a candidate and still be a typo of it. */
const allowedEdits = (length: number) => Math.min(2, Math.floor(length / 3));

/**
 * The candidate `word` is most likely a typo of, if any: letter case is ignored (`maxpods` →
 * `maxPods`), the nearest wins, the first listed on a tie. An exact match is no typo: undefined.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.includes(word)) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = allowedEdits(word.length) + 1;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean X?)` to end an error with, or nothing when no candidate is near `word`. */
export function didYouMean(word: unknown, candidates: readonly string[]): string {
  const near = typeof word === 'string' ? closest(word, candidates) : undefined;
  return near === undefined ? '' : ` (did you mean ${near}?)`;
}

/** A zod error for a field taking one of a few names (`error: namedError('expected …', NAMES)`):
 * the expectation, and the name meant when the input is a near miss. */
export const namedError =
  (expected: string, names: readonly string[]) =>
  (issue: { input?: unknown }): string =>
    `${expected}${didYouMean(issue.input, names)}`;
