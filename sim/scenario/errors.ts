import type { z } from 'zod';

/** Longest value an error line echoes (a 100 KB value in a file must not become a 100 KB line). */
export const SHOWN_CHARS = 80;

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
  constructor(readonly file: string, readonly field: string, readonly expected: string) {
    super(`${file}: ${field ? `${shorten(field)}: ` : ''}${shortenValues(expected)}`);
    this.name = 'InputError';
  }
}

const fieldOf = (path: readonly PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');

/** Turns zod's issues into InputErrors: unknown keys get the key named in the field. */
export function issuesToErrors(file: string, prefix: string, error: z.ZodError): InputError[] {
  return error.issues.map((issue) => {
    const base = prefix ? [prefix, ...issue.path] : [...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      return new InputError(file, fieldOf([...base, keys[0] ?? '']), `unknown key${keys.length > 1 ? `s ${keys.join(', ')}` : ''} (not part of the format)`);
    }
    return new InputError(file, fieldOf(base) || '(top level)', issue.message);
  });
}

/** Several problems reported at once, one per line. */
export class InputErrors extends Error {
  constructor(readonly errors: InputError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'InputErrors';
  }
}
