import { NotPlainData } from '../../sim/stable-key';

/**
 * The text form the transition memo keyed by before its keys were hashed (writeStable's oracle in
 * key-writer.test.ts): equal texts ⇔ equal values, the same distinctions writeStable must make.
 */
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
