import type { z } from 'zod';

/** Bad input: names the file, the field and what was expected. The CLI exits 2 on it. */
export class InputError extends Error {
  constructor(readonly file: string, readonly field: string, readonly expected: string) {
    super(`${file}: ${field ? `${field}: ` : ''}${expected}`);
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
