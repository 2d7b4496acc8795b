// JSON data ↔ ITF values, as Apalache's ADR-015 "Informal Trace Format" defines them (revision of
// 2023-09-14): booleans and strings as they are, every integer as { "#bigint": "…" } (that revision
// no longer allows JSON numbers), lists as arrays, records as objects whose field names do not start
// with "#", and the forms #tup, #set, #map and #unserializable.
// ITF has no fractions and no null, and a trace's summaries hold both (times like 143783.157 ms,
// `lastError: null`). loopscope writes them as tuples, which it uses for nothing else (a JSON array
// is an ITF list), so reading them back is unambiguous and exact:
//   a non-integer x → { "#tup": ["decimal", m, e] } meaning m × 10^e, m and e #bigint integers
//                     taken from x's shortest decimal form (the one String(x) prints), so
//                     Number(`${m}e${e}`) is x again, bit for bit;
//   null            → { "#tup": ["null"] };
//   NaN, ±Infinity  → { "#unserializable": "NaN" } (no valid trace holds one; JSON cannot either).
// Browser-safe: no imports.

export type ItfValue =
  | boolean
  | string
  | ItfValue[]
  | { '#bigint': string }
  | { '#tup': ItfValue[] }
  | { '#set': ItfValue[] }
  | { '#map': [ItfValue, ItfValue][] }
  | { '#unserializable': string }
  | ItfRecord;
export interface ItfRecord {
  [field: string]: ItfValue;
}

/** Plain JSON data: what a loopscope trace holds. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const isJsonObject = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

const DECIMAL_TAG = 'decimal';
const NULL_TAG = 'null';

/** A value loopscope cannot read back: names where (a dotted path) and what was expected. */
export class ItfValueError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
  ) {
    super(`${path || '(top level)'}: ${expected}`);
    this.name = 'ItfValueError';
  }
}

const bigint = (n: bigint | number): { '#bigint': string } => ({ '#bigint': BigInt(n).toString(10) });

/** x (finite, not an integer) as [m, e] with x = m × 10^e, from its shortest round-trip decimal form. */
export function decimalOf(x: number): [bigint, bigint] {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!match) throw new Error(`not a finite decimal: ${String(x)}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  return [digits, BigInt(exponent) - BigInt(fraction.length)];
}

function encodeNumber(x: number): ItfValue {
  if (!Number.isFinite(x)) return { '#unserializable': String(x) };
  if (Number.isInteger(x)) return bigint(x);
  const [m, e] = decimalOf(x);
  return { '#tup': [DECIMAL_TAG, bigint(m), bigint(e)] };
}

const isPlainRecordKey = (key: string) => !key.startsWith('#');

/**
 * JSON data (or anything JSON.stringify accepts the same way: undefined fields dropped, undefined
 * list items as null) → its ITF value. An object with a key starting with "#" cannot be an ITF
 * record: it becomes a #map from its keys (strings) to its values.
 */
export function encodeValue(value: unknown): ItfValue {
  if (value === null || value === undefined) return { '#tup': [NULL_TAG] };
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return encodeNumber(value);
  if (typeof value === 'bigint') return bigint(value);
  // As JSON.stringify: a list item that JSON cannot hold (undefined, a function) is null.
  if (Array.isArray(value))
    return value.map((item: unknown) => encodeValue(typeof item === 'function' || typeof item === 'symbol' ? null : item));
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
    if (entries.every(([k]) => isPlainRecordKey(k))) return Object.fromEntries(entries.map(([k, v]) => [k, encodeValue(v)]));
    return { '#map': entries.map(([k, v]): [ItfValue, ItfValue] => [k, encodeValue(v)]) };
  }
  return { '#unserializable': String(value) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** The one key of an ITF form ({ "#bigint": … }, { "#tup": … }…), if the object is one. */
function formOf(v: Record<string, unknown>): string | undefined {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0]!.startsWith('#') ? keys[0] : undefined;
}

function decodeInteger(text: unknown, path: string): number {
  if (typeof text !== 'string' || !/^-?\d+$/.test(text)) throw new ItfValueError(path, 'expected { "#bigint": "[-][0-9]+" }');
  const n = Number(text);
  if (!Number.isInteger(n) || BigInt(n) !== BigInt(text))
    throw new ItfValueError(path, `expected an integer a JSON number can hold exactly, got ${text}`);
  return n;
}

function decodeTuple(items: unknown, path: string): Json {
  if (!Array.isArray(items)) throw new ItfValueError(path, 'expected { "#tup": [ … ] }');
  const [tag, ...rest] = items;
  if (tag === NULL_TAG && rest.length === 0) return null;
  if (tag === DECIMAL_TAG && rest.length === 2) {
    const [m, e] = rest.map((v) => (isObject(v) && formOf(v) === '#bigint' ? v['#bigint'] : undefined));
    if (typeof m === 'string' && typeof e === 'string' && /^-?\d+$/.test(m) && /^-?\d+$/.test(e)) {
      const x = Number(`${m}e${e}`);
      if (Number.isFinite(x)) return x;
    }
  }
  throw new ItfValueError(path, `expected a tuple loopscope writes: ["${DECIMAL_TAG}", m, e] (m × 10^e) or ["${NULL_TAG}"]`);
}

/** An ITF value (parsed JSON) → the JSON data it encodes, as encodeValue wrote it. */
export function decodeValue(value: unknown, path = ''): Json {
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  // Integers were JSON numbers before the ADR's 2023 revision; other readers still accept them.
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value;
    throw new ItfValueError(
      path,
      `expected an ITF value (ITF has no fractions: loopscope writes ["${DECIMAL_TAG}", m, e] tuples), got the JSON number ${value}`,
    );
  }
  if (Array.isArray(value)) return value.map((item: unknown, i) => decodeValue(item, at(path, i)));
  if (!isObject(value)) throw new ItfValueError(path, 'expected an ITF value (boolean, string, list, record or a #-form), got null');
  const form = formOf(value);
  const body = form === undefined ? undefined : value[form];
  switch (form) {
    case undefined: {
      const bad = Object.keys(value).find((k) => k.startsWith('#'));
      if (bad !== undefined) throw new ItfValueError(at(path, bad), 'expected a record field (ITF field names do not start with "#")');
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeValue(v, at(path, k))]));
    }
    case '#bigint':
      return decodeInteger(body, path);
    case '#tup':
      return decodeTuple(body, path);
    // A set is a list whose order means nothing; loopscope writes none, and reads one as a list.
    case '#set':
      if (!Array.isArray(body)) throw new ItfValueError(path, 'expected { "#set": [ … ] }');
      return body.map((item: unknown, i) => decodeValue(item, at(path, i)));
    case '#map': {
      if (!Array.isArray(body)) throw new ItfValueError(path, 'expected { "#map": [[key, value], …] }');
      const pairs = body.map((pair: unknown, i): [string, Json] => {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
          throw new ItfValueError(
            at(path, i),
            "expected a [key, value] pair with a string key (loopscope writes maps of an object's keys)",
          );
        }
        return [pair[0], decodeValue(pair[1], at(path, pair[0]))];
      });
      return Object.fromEntries(pairs);
    }
    case '#unserializable':
      if (body === 'NaN') return Number.NaN;
      if (body === 'Infinity') return Number.POSITIVE_INFINITY;
      if (body === '-Infinity') return Number.NEGATIVE_INFINITY;
      throw new ItfValueError(path, `expected a value loopscope can read, got { "#unserializable": ${JSON.stringify(body)} }`);
    default:
      throw new ItfValueError(path, `expected one of the ITF forms #bigint, #tup, #set, #map, #unserializable, got ${form}`);
  }
}
