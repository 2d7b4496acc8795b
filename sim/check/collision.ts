/**
 * The probability that two distinct states shared a 64-bit fingerprint (key-writer.ts), so that one of
 * them was never explored: TLC's "calculated (optimistic)" estimate, n·(g − n)/2⁶⁴ for n distinct
 * and g generated states — each of the g − n lookups that found a known fingerprint could have
 * been a collision with one of ≤ n stored ones. TLC: AbstractChecker.calculateOptimisticProbability
 * (tlaplus/tlaplus, tlatools/org.lamport.tlatools/src/tlc2/tool/AbstractChecker.java), printed by
 * reportSuccess. TLC also prints one "based on the actual fingerprints" (FPSet.checkFPs: the
 * smallest gap between sorted fingerprints), only when the optimistic one is ≥ 10⁻¹⁰; loopscope
 * does not compute that one.
 */
export function collisionProbability(distinct: number, generated: number): number {
  // Same evaluation order as TLC's: n * ((g - n) / 2^64); clamped, as a probability.
  return Math.min(1, Math.max(0, distinct * ((generated - distinct) / 2 ** 64)));
}

export interface FingerprintStats {
  /** Bits of each state's fingerprint in the visited set. */
  bits: 64;
  /** collisionProbability(distinct, generated): TLC's optimistic estimate. */
  collisionProbability: number;
}

export const fingerprintStats = (distinct: number, generated: number): FingerprintStats => ({
  bits: 64,
  collisionProbability: collisionProbability(distinct, generated),
});

/** The report's line, worded as TLC words it (an optimistic estimate, not a bound on the real one). */
export function fingerprintLine(f: FingerprintStats): string {
  const p = f.collisionProbability === 0 ? '0' : f.collisionProbability.toExponential(1);
  return `fingerprints: ${f.bits}-bit; collision probability ≈ ${p} (TLC's optimistic estimate: distinct × (generated − distinct) / 2^64)`;
}
