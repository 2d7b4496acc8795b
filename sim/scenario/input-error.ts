// The input errors themselves, without zod: the CLI's entry classifies them (exit 2) on every run,
// `--help` included, and must not load zod to do so. errors.ts turns zod's issues into them.

/** Longest value an error line echoes (a 100 KB value in a file must not become a 100 KB line). */
const SHOWN_CHARS = 80;

/** Text shortened to `max` characters with an ellipsis and the full length. */
export function shorten(text: string, max = SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * Shortens each quoted value inside a message (`got "…"`, `"name"`), and the message as a whole,
 * so every error stays one readable line whatever the input held.
 */
export function shortenValues(message: string, max = SHOWN_CHARS): string {
  const quoted = message.replace(/"((?:[^"\\\n]|\\.)*)"/g, (_m, inner: string) => `"${shorten(inner, max)}"`);
  return shorten(quoted.replace(/\r?\n/g, ' '), 4 * max + 120);
}

/** Bad input: names the file, the field and what was expected. The CLI exits 2 on it. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly expected: string,
  ) {
    super(`${file}: ${field ? `${shorten(field)}: ` : ''}${shortenValues(expected)}`);
    this.name = 'InputError';
  }
}

/** Several problems reported at once, one per line. */
export class InputErrors extends Error {
  constructor(readonly errors: InputError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'InputErrors';
  }
}
