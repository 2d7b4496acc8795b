/** A bad command-line argument: names the option and what was expected (exit code 2). */
export class UsageError extends Error {
  constructor(
    readonly option: string,
    readonly expected: string,
  ) {
    super(`${option}: ${expected}`);
    this.name = 'UsageError';
  }
}

export function parseSeed(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError('--seed', `expected a whole number ≥ 0, got "${text}"`);
  return Number(text);
}

/** `loopscope check` exit codes (printed by its --help). */
export const CHECK_EXIT_CODES = `Exit codes:
  0  every promised property holds (violations of properties the configuration does not promise
     are findings: reported, not failed)
  1  a promised property is violated
  2  bad input (scenario file or option)
  3  unknown: a bound was reached (--depth, --max-states, or an eventually-property undecided at
     the bound) before every promised property was decided, and none is violated
  130 interrupted (SIGINT or SIGTERM): the report printed is partial`;
