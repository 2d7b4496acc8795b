import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { writeData } from '../../sim/check/data-key';
import { NotPlainData, writeStable } from '../../sim/stable-key';
import { stableKey } from './stable-key-oracle';
import type { KeyWriter } from '../../sim/check/key-writer';
import { HashKeyWriter, TextKeyWriter } from '../../sim/check/key-writer';

/** One field of a key, as a loop writes it. */
type Field = { kind: 'num'; n: number } | { kind: 'str'; s: string } | { kind: 'flag'; b: boolean } | { kind: 'list'; n: number };

const fieldArb: fc.Arbitrary<Field> = fc.oneof(
  fc.record({ kind: fc.constant('num' as const), n: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.integer(), fc.double()) }),
  fc.record({
    kind: fc.constant('str' as const),
    s: fc.oneof(
      fc.constantFrom('', 'a', 'ab', '1', '12345678', '123456789'),
      fc.string({ unit: 'binary' }),
      fc.string({ minLength: 9, maxLength: 40 }),
    ),
  }),
  fc.record({ kind: fc.constant('flag' as const), b: fc.boolean() }),
  fc.record({ kind: fc.constant('list' as const), n: fc.nat(3) }),
);
const fieldsArb = fc.array(fieldArb, { maxLength: 6 });

function write(fields: readonly Field[], key: KeyWriter): void {
  for (const f of fields) {
    if (f.kind === 'num') key.num(f.n);
    else if (f.kind === 'str') key.str(f.s);
    else if (f.kind === 'flag') key.flag(f.b);
    else key.list(f.n);
  }
}
const text = (fields: readonly Field[]) => {
  const w = new TextKeyWriter();
  write(fields, w);
  return w.text;
};
const hash = (fields: readonly Field[], moves = new Uint8Array(0)) => {
  const w = new HashKeyWriter();
  w.reset();
  write(fields, w);
  w.moves(moves);
  const out = new Uint32Array(2);
  w.digest(out);
  return `${out[0]}.${out[1]}`;
};
/** Field equality as a key means it: numbers by value (-0 is 0, NaN is NaN), the rest exactly. */
const sameField = (a: Field, b: Field) =>
  a.kind === b.kind &&
  (a.kind === 'num'
    ? Object.is(a.n === 0 ? 0 : a.n, (b as typeof a).n === 0 ? 0 : (b as typeof a).n)
    : JSON.stringify(a) === JSON.stringify(b));
const sameFields = (a: readonly Field[], b: readonly Field[]) => a.length === b.length && a.every((f, i) => sameField(f, b[i]!));

describe('the key writer: fields into a 64-bit hash', () => {
  it('the text of two field sequences is equal exactly when the fields are', () => {
    fc.assert(fc.property(fieldsArb, fieldsArb, (a, b) => (text(a) === text(b)) === sameFields(a, b)));
  });

  it('equal fields hash equal; different fields hash apart (no collision among the generated pairs)', () => {
    fc.assert(fc.property(fieldsArb, fieldsArb, (a, b) => (hash(a) === hash(b)) === sameFields(a, b)));
  });

  it('a string never writes the words of two strings, nor a list the words of a number', () => {
    expect(hash([{ kind: 'str', s: 'ab' }])).not.toBe(
      hash([
        { kind: 'str', s: 'a' },
        { kind: 'str', s: 'b' },
      ]),
    );
    expect(hash([{ kind: 'list', n: 2 }])).not.toBe(hash([{ kind: 'num', n: 2 }]));
    expect(hash([{ kind: 'num', n: 1 }])).not.toBe(hash([{ kind: 'flag', b: true }]));
    expect(hash([{ kind: 'num', n: -0 }])).toBe(hash([{ kind: 'num', n: 0 }]));
  });

  it('the remaining moves are part of the hash', () => {
    fc.assert(
      fc.property(fieldsArb, fc.uint8Array({ maxLength: 4 }), fc.uint8Array({ maxLength: 4 }), (fields, a, b) => {
        const same = a.length === b.length && a.every((x, i) => x === b[i]);
        return (hash(fields, a) === hash(fields, b)) === same;
      }),
    );
  });

  it('64 bits spread: 200,000 distinct small keys, no two with one hash', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++)
      seen.add(
        hash([
          { kind: 'num', n: i % 1000 },
          { kind: 'str', s: String(i) },
          { kind: 'list', n: i % 7 },
        ]),
      );
    expect(seen.size).toBe(200_000);
  });

  it('long strings (hashed by their kept digest): 200,000 distinct ones, no two with one hash; equal ones alike whenever asked', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(hash([{ kind: 'str', s: `xstate.after.${i}.hpa.waiting` }]));
    expect(seen.size).toBe(200_000);
    // past the digests kept (they were forgotten on the way), the same string still writes the same words
    expect(hash([{ kind: 'str', s: 'xstate.after.7.hpa.waiting' }])).toBe(hash([{ kind: 'str', s: `xstate.after.${7}.hpa.waiting` }]));
  });
});

describe('plain data into a key, as JSON would write it', () => {
  const dataText = (v: unknown, sortKeys = false) => {
    const w = new TextKeyWriter();
    writeData(v, w, sortKeys);
    return w.text;
  };

  it('equal exactly when the JSON texts are equal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => (dataText(a) === dataText(b)) === (JSON.stringify(a) === JSON.stringify(b))),
    );
  });

  it('a value and its JSON round trip write the same fields (NaN and undefined as JSON has them)', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withObjectString: false,
          withNullPrototype: false,
          withBigInt: false,
          withDate: false,
          withMap: false,
          withSet: false,
          withTypedArray: false,
          withSparseArray: false,
          withBoxedValues: false,
        }),
        (v) => {
          const json = JSON.stringify(v);
          if (json === undefined) return true;
          return dataText(v) === dataText(JSON.parse(json) as unknown);
        },
      ),
    );
  });

  it('sortKeys: members in any order are the same object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        return dataText(o, true) === dataText(reversed, true);
      }),
    );
    expect(dataText({ a: 1, b: 2 })).not.toBe(dataText({ b: 2, a: 1 }));
  });

  it('an array and an object never write the same fields', () => {
    expect(dataText(['a', 1])).not.toBe(dataText({ a: 1 }));
    expect(dataText([])).not.toBe(dataText({}));
  });
});

describe("the transition memo's keys: the same distinctions as stableKey, without its text", () => {
  const stableText = (v: unknown) => {
    const w = new TextKeyWriter();
    try {
      writeStable(v, w);
    } catch (e) {
      if (e instanceof NotPlainData) return 'not plain';
      throw e;
    }
    return w.text;
  };
  const stable = (v: unknown) => {
    try {
      return stableKey(v);
    } catch (e) {
      if (e instanceof NotPlainData) return 'not plain';
      throw e;
    }
  };
  const valueArb = fc.anything({
    withMap: true,
    withSet: true,
    withDate: true,
    withNullPrototype: true,
    withBigInt: true,
    withSparseArray: false,
  });

  it('two values write equal fields exactly when their stableKey texts are equal (or neither is plain data)', () => {
    fc.assert(fc.property(valueArb, valueArb, (a, b) => (stableText(a) === stableText(b)) === (stable(a) === stable(b))));
  });

  it('undefined and a missing member, -0 and 0, an Error and its message stay apart; a class instance is refused', () => {
    expect(stableText({ a: undefined })).not.toBe(stableText({}));
    expect(stableText(-0)).not.toBe(stableText(0));
    expect(stableText(new Error('x'))).not.toBe(stableText('x'));
    expect(stableText(new (class Thing {})())).toBe('not plain');
  });
});
