/**
 * A 64-bit hash of a canonical key plus the environment's remaining-move counters, as two 32-bit
 * halves (two independent FNV-1a style hashes over the text, then the counters mixed in). The
 * visited set (visited-set.ts) stores these 8 bytes instead of ~0.5 kB keys. Two distinct states
 * collide with probability ≈ n²/2⁶⁵ (≈ 3·10⁻⁸ at 10⁶ states); a collision could only hide states,
 * never invent a violation (every counterexample is replayed through the Runner and re-checked).
 * Measured against xxhash-wasm's h64 (bench notes): faster per key, but its initialisation is
 * asynchronous and the explorer is synchronous; hashing is < 3% of a search (profile), so it stays.
 */
export function hashState(text: string, counters: Uint8Array, out: Uint32Array): void {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  for (let i = 0; i < counters.length; i++) {
    const c = 0x10000 + counters[i]!; // outside the char range: counters never read as text
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 13;
  a = Math.imul(a, 0xc2b2ae35);
  a ^= a >>> 16;
  b ^= b >>> 13;
  b = Math.imul(b, 0x27d4eb2f);
  b ^= b >>> 16;
  out[0] = a;
  out[1] = b;
}
