import type { KeyWriter } from './key-writer';

/**
 * Plain data (what JSON.stringify writes: strings, numbers, booleans, null, arrays, objects) written
 * into a canonical key field by field, without building its JSON text. Equal exactly when the JSON
 * texts are equal — NaN and ±Infinity are null as in JSON, undefined members are left out, an
 * undefined array item is null — except that `sortKeys` writes an object's members by name (key
 * order then does not matter). An array is a list of n items, an object a list of -1-n (name, value)
 * pairs, so an array and an object never write the same words.
 */
export function writeData(value: unknown, key: KeyWriter, sortKeys = false): void {
  switch (typeof value) {
    case 'string':
      return key.str(value);
    case 'number':
      return Number.isFinite(value) ? key.num(value) : key.num(Number.NaN);
    case 'boolean':
      return key.flag(value);
    case 'object':
      break;
    default:
      // undefined, functions, symbols: JSON writes null for them (as array items)
      return key.num(Number.NaN);
  }
  if (value === null) return key.num(Number.NaN);
  if (Array.isArray(value)) {
    key.list(value.length);
    for (const item of value as readonly unknown[]) writeData(item, key, sortKeys);
    return;
  }
  const record = value as Record<string, unknown>; // typeof 'object', not null, not an array: a record
  writeRecord(record, key, (v) => writeData(v, key, sortKeys), { sortKeys });
}

/**
 * A record's members as writeData writes an object (a list of -1-n, then name and value per member JSON
 * keeps), each value by `value`; `omit` leaves one member out as `{ ...r, [omit]: undefined }` would.
 */
export function writeRecord(
  record: Record<string, unknown>,
  key: KeyWriter,
  value: (v: unknown) => void,
  options: { sortKeys?: boolean; omit?: string } = {},
): void {
  const names = options.sortKeys ? Object.keys(record).sort() : Object.keys(record);
  let n = 0;
  for (const name of names) if (name !== options.omit && present(record[name])) n++;
  key.list(-1 - n);
  for (const name of names) {
    const v = record[name];
    if (name === options.omit || !present(v)) continue;
    key.str(name);
    value(v);
  }
}

/** Whether JSON.stringify keeps an object member with this value (it leaves undefined, functions and symbols out). */
export const present = (v: unknown) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
