/** A bad command-line argument: names the option and what was expected (exit code 2). */
export class UsageError extends Error {
  constructor(readonly option: string, readonly expected: string) {
    super(`${option}: ${expected}`);
    this.name = 'UsageError';
  }
}

export function parseSeed(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError('--seed', `expected a whole number ≥ 0, got "${text}"`);
  return Number(text);
}
