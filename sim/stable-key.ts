/**
 * An exact text form of plain data, for memo keys: equal texts ⇔ equal values (as far as a pure
 * machine can tell). Unlike JSON.stringify it keeps undefined vs missing apart, Maps, Sets and
 * Error messages, and it refuses what it cannot compare (functions, symbols, class instances
 * other than Error/Map/Set/Date) by throwing NotPlainData: a memo must miss, never lie.
 */
import type { KeyWriter } from './check/key-writer';

export class NotPlainData extends Error {}

export function stableKey(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'undefined':
      return 'u';
    case 'bigint':
      return `${value}n`;
    case 'object':
      return value === null ? 'n' : objectKey(value);
    default:
      throw new NotPlainData(`cannot key a ${typeof value}`);
  }
}

function objectKey(value: object): string {
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i ? ',' : '') + stableKey(value[i]);
    return s + ']';
  }
  const proto = Object.getPrototypeOf(value) as object | null; // cast: a prototype is an object or null
  if (proto === Object.prototype || proto === null) {
    let s = '{';
    let first = true;
    for (const k in value) {
      if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
      s += (first ? '' : ',') + JSON.stringify(k) + ':' + stableKey((value as Record<string, unknown>)[k]); // cast: a plain object (prototype checked above), read by own key
      first = false;
    }
    return s + '}';
  }
  if (value instanceof Error) return `E(${JSON.stringify(value.name)},${JSON.stringify(value.message)})`;
  if (value instanceof Map) return `M(${stableKey([...value.entries()])})`;
  if (value instanceof Set) return `S(${stableKey([...value.values()])})`;
  if (value instanceof Date) return `D(${value.getTime()})`;
  throw new NotPlainData(`cannot key an instance of ${(proto as { constructor?: { name?: string } }).constructor?.name ?? 'a class'}`); // cast: optional fields, only read for the message
}

/**
 * The same distinctions as stableKey, written into a KeyWriter instead of text (memo-machine.ts
 * hashes snapshots and events with it). Every value begins with a field of its own kind: a string,
 * a number or a flag; any other kind a list field with a negative code (below), so no two values
 * write the same words. Throws NotPlainData where stableKey does.
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
