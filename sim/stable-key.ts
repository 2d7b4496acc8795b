import type { KeyWriter } from './check/key-writer';

/** Thrown for what a memo key cannot compare: the memo must miss, never lie. */
export class NotPlainData extends Error {}

/**
 * Plain data written into a KeyWriter for the transition memo's keys (memo-machine.ts hashes
 * snapshots and events with it): equal fields ⇔ equal values (as far as a pure machine can tell).
 * Unlike JSON it keeps undefined vs missing apart, -0, Maps, Sets, Dates and Error messages, and it
 * refuses what it cannot compare (functions, symbols, class instances other than Error/Map/Set/Date)
 * by throwing NotPlainData. Every value begins with a field of its own kind: a string, a number or a
 * flag; any other kind a list field with a negative code (below), so no two values write the same words.
 */
export function writeStable(value: unknown, key: KeyWriter): void {
  switch (typeof value) {
    case 'string':
      return key.str(value);
    case 'number':
      return Object.is(value, -0) ? key.list(NEGATIVE_ZERO) : key.num(value);
    case 'boolean':
      return key.flag(value);
    case 'undefined':
      return key.list(UNDEFINED);
    case 'bigint':
      key.list(BIGINT);
      return key.str(String(value));
    case 'object':
      return value === null ? key.list(NULL) : writeObject(value, key);
    default:
      throw new NotPlainData(`cannot key a ${typeof value}`);
  }
}

// Codes of the kinds a list field stands for (an array writes its length, ≥ 0; a plain object -1000 - its size).
const UNDEFINED = -1;
const NULL = -2;
const NEGATIVE_ZERO = -3;
const BIGINT = -4;
const ERROR = -5;
const MAP = -6;
const SET = -7;
const DATE = -8;
const OBJECT = -1000;

function writeObject(value: object, key: KeyWriter): void {
  if (Array.isArray(value)) {
    key.list(value.length);
    for (let i = 0; i < value.length; i++) writeStable(value[i], key);
    return;
  }
  const proto = Object.getPrototypeOf(value) as object | null; // cast: a prototype is an object or null
  if (proto === Object.prototype || proto === null) {
    const record = value as Record<string, unknown>; // cast: a plain object (prototype checked above), read by own key
    let n = 0;
    for (const k in record) if (Object.prototype.hasOwnProperty.call(record, k)) n++;
    key.list(OBJECT - n);
    for (const k in record) {
      if (!Object.prototype.hasOwnProperty.call(record, k)) continue;
      key.str(k);
      writeStable(record[k], key);
    }
    return;
  }
  if (value instanceof Error) {
    key.list(ERROR);
    key.str(value.name);
    return key.str(value.message);
  }
  if (value instanceof Map) {
    key.list(MAP);
    return writeStable([...value.entries()], key);
  }
  if (value instanceof Set) {
    key.list(SET);
    return writeStable([...value.values()], key);
  }
  if (value instanceof Date) {
    key.list(DATE);
    return key.num(value.getTime());
  }
  throw new NotPlainData(`cannot key an instance of ${(proto as { constructor?: { name?: string } }).constructor?.name ?? 'a class'}`); // cast: optional fields, only read for the message
}
