/**
 * Where a loop writes a state's canonical key, field by field (model.ts LoopCheck.canonicalizer):
 * numbers and strings go straight into a 64-bit hash, so a search builds no key text per state (the
 * text keys cost ~15 % of a search and much of its garbage collection: docs/benchmarks.md). Every
 * field is tagged with its kind and a string with its length, so two different field sequences
 * never write the same words; a list is written as its length, then its items.
 */
export interface KeyWriter {
  /** Any number: a count, a time relative to now, a size (-0 is 0; every NaN is one NaN). */
  num(n: number): void;
  /** A string, by its content. */
  str(s: string): void;
  flag(b: boolean): void;
  /** A list of `n` items follows (its items are the next fields). */
  list(n: number): void;
}

const TAG_INT = 0x1b873593;
const TAG_F64 = 0x2c1b3c6d;
const TAG_NAN = 0x297a2d39;
const TAG_STR = 0x5f356495;
const TAG_TRUE = 0x6b43a9b5;
const TAG_FALSE = 0x3c6ef372;
const TAG_LIST = 0x7f4a7c15;
const TAG_MOVES = 0x165667b1;

const TAG_LONG_STR = 0x4cf5ad43;
/** Strings up to this many characters are hashed in place; longer ones by their kept digest. */
const SHORT_STRING = 8;
/** Digests kept at most (then forgotten all at once): a search meets a few hundred distinct long strings. */
const STRING_DIGESTS = 1 << 16;
const stringDigests = new Map<string, Uint32Array>();

/** A string's own 64-bit digest (two lanes over its characters, as the writer's), kept by content. */
function stringDigest(s: string): Uint32Array {
  const known = stringDigests.get(s);
  if (known !== undefined) return known;
  let a = 0x3c6ef372 ^ s.length;
  let b = 0xa54ff53a;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    a ^= a >>> 15;
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  b ^= b >>> 16;
  const d = Uint32Array.of(a, b);
  if (stringDigests.size >= STRING_DIGESTS) stringDigests.clear();
  stringDigests.set(s, d);
  return d;
}

const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);

/**
 * The hash: two independent 32-bit lanes over the fields' 32-bit words (lane a MurmurHash3's block
 * step, lane b a multiply-xorshift with other constants), finished by their avalanches. Two distinct
 * states collide with probability ≈ n²/2⁶⁵ (≈ 3·10⁻⁸ at 10⁶ states); a collision could only hide
 * states, never invent a violation (every counterexample is replayed through the Runner and
 * re-checked). One writer is reused for every state of a search.
 */
export class HashKeyWriter implements KeyWriter {
  private a = 0;
  private b = 0;
  /** Words written since the reset: the size of what was keyed (the transition memo bounds itself by it). */
  words = 0;

  reset(): void {
    this.a = 0x9747b28c;
    this.b = 0x01000193;
    this.words = 0;
  }

  private word(x: number): void {
    this.words++;
    let k = Math.imul(x, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    let a = this.a ^ Math.imul(k, 0x1b873593);
    a = (a << 13) | (a >>> 19);
    this.a = (Math.imul(a, 5) + 0xe6546b64) | 0;
    let b = Math.imul(this.b ^ x, 0x5bd1e995);
    b ^= b >>> 15;
    this.b = Math.imul(b, 0x27d4eb2f);
  }

  num(n: number): void {
    if ((n | 0) === n) {
      this.word(TAG_INT);
      this.word(n);
    } else if (n !== n) {
      this.word(TAG_NAN);
    } else {
      f64[0] = n;
      this.word(TAG_F64);
      this.word(f64Words[0]!);
      this.word(f64Words[1]!);
    }
  }

  str(s: string): void {
    const n = s.length;
    if (n > SHORT_STRING) {
      // A long string (an event type, a state path, a name) is met again and again: its own 64-bit digest is kept.
      const d = stringDigest(s);
      this.word(TAG_LONG_STR);
      this.word(d[0]!);
      this.word(d[1]!);
      return;
    }
    this.word(TAG_STR);
    this.word(n);
    let i = 0;
    for (; i + 1 < n; i += 2) this.word(s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16));
    if (i < n) this.word(s.charCodeAt(i));
  }

  flag(b: boolean): void {
    this.word(b ? TAG_TRUE : TAG_FALSE);
  }

  list(n: number): void {
    this.word(TAG_LIST);
    this.word(n);
  }

  /** The environment's remaining-move counters, after the canonical key (a search state is both). */
  moves(counters: Uint8Array): void {
    this.word(TAG_MOVES);
    this.word(counters.length);
    for (let i = 0; i < counters.length; i++) this.word(counters[i]!);
  }

  /** The 64-bit hash as two 32-bit halves. */
  digest(out: Uint32Array): void {
    let a = this.a;
    a ^= a >>> 16;
    a = Math.imul(a, 0x85ebca6b);
    a ^= a >>> 13;
    a = Math.imul(a, 0xc2b2ae35);
    a ^= a >>> 16;
    let b = this.b;
    b ^= b >>> 13;
    b = Math.imul(b, 0x27d4eb2f);
    b ^= b >>> 16;
    out[0] = a;
    out[1] = b;
  }
}

/**
 * The same fields as readable text, for tests and for telling two keys apart: equal texts exactly
 * when the fields are equal (strings quoted), so a text equality is the key equality the hash stands for.
 */
export class TextKeyWriter implements KeyWriter {
  text = '';
  num(n: number): void {
    this.text += `${n === 0 ? 0 : n} `;
  }
  str(s: string): void {
    this.text += `${JSON.stringify(s)} `;
  }
  flag(b: boolean): void {
    this.text += b ? 'T ' : 'F ';
  }
  list(n: number): void {
    this.text += `[${n}] `;
  }
}

/** A key written as text (tests, replays that compare keys along a path). */
export function keyText<S>(write: (state: S, key: KeyWriter) => void): (state: S) => string {
  return (state) => {
    const w = new TextKeyWriter();
    write(state, w);
    return w.text;
  };
}

/** A state's 64-bit hash: its canonical key, then its remaining moves. */
export function hashKey<S>(
  write: (state: S, key: KeyWriter) => void,
  writer: HashKeyWriter,
  state: S,
  counters: Uint8Array,
  out: Uint32Array,
): void {
  writer.reset();
  write(state, writer);
  writer.moves(counters);
  writer.digest(out);
}
