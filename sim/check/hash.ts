/**
 * A 64-bit hash of a canonical key, as a 4-character string (two independent 32-bit FNV-1a
 * style hashes, 16 bits a character). The visited set stores these instead of ~0.5 kB keys, which
 * keeps 10⁶ states well inside 2 GB. Two distinct states collide with probability ≈ n²/2⁶⁵
 * (≈ 3·10⁻⁸ at 10⁶ states); a collision could only hide states, never invent a violation
 * (every counterexample is replayed through the Runner and re-checked).
 */
export function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 13; a = Math.imul(a, 0xc2b2ae35); a ^= a >>> 16;
  b ^= b >>> 13; b = Math.imul(b, 0x27d4eb2f); b ^= b >>> 16;
  return String.fromCharCode(a & 0xffff, a >>> 16, b & 0xffff, b >>> 16);
}
