import { z } from 'zod';
import { didYouMean } from './suggest';
import { InputError } from './input-error';

export { InputError, InputErrors, shorten, shortenValues } from './input-error';

const fieldOf = (path: readonly PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');

/**
 * The keys an object (or a record with a fixed set of keys) accepts, for each unknown-keys issue
 * zod raised. zod's finished issue names only the keys it did not know; its error map is the one
 * place that sees the object itself, so the map notes the accepted keys against the issue's `keys`
 * list (the same array the finished issue carries) and returns nothing: the message stays zod's.
 */
const acceptedKeys = new WeakMap<readonly string[], readonly string[]>();

function keysOf(schema: unknown): readonly string[] | undefined {
  if (schema instanceof z.core.$ZodObject) return Object.keys(schema._zod.def.shape);
  if (schema instanceof z.core.$ZodRecord) {
    const values = schema._zod.def.keyType._zod.values;
    return values ? [...values].filter((v): v is string => typeof v === 'string') : undefined;
  }
  return undefined;
}

z.config({
  customError: (issue) => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const accepted = keysOf(issue.inst);
    if (accepted) acceptedKeys.set(issue.keys, accepted);
    return undefined;
  },
});

/** Turns zod's issues into InputErrors: each unknown key its own line, naming the key in the
 * field and the accepted key it is a typo of, if any. */
export function issuesToErrors(file: string, prefix: string, error: z.ZodError): InputError[] {
  return error.issues.flatMap((issue) => {
    const base = prefix ? [prefix, ...issue.path] : [...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const accepted = acceptedKeys.get(issue.keys) ?? [];
      return issue.keys.map(
        (key) => new InputError(file, fieldOf([...base, key]), `unknown key${didYouMean(key, accepted) || ' (not part of the format)'}`),
      );
    }
    return [new InputError(file, fieldOf(base) || '(top level)', issue.message)];
  });
}
