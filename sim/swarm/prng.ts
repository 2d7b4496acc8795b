import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** The largest seed: pure-rand seeds its generators from a 32-bit integer. */
export const MAX_SEED = 0xffff_ffff;

/**
 * One swarm search's randomness: the same generator the simulated worlds use (sim/random.ts,
 * pure-rand's xoroshiro128+), kept as one mutable generator because a search draws at every step
 * and never branches its randomness. A seed fully determines the draws, hence the search.
 */
export class SwarmRandom {
  private readonly rng: RandomGenerator;
  constructor(readonly seed: number) {
    this.rng = xoroshiro128plus(seed | 0);
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  /** True with probability num/den. */
  chance(num: number, den: number): boolean {
    return this.int(1, den) <= num;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('SwarmRandom.pick: nothing to pick from');
    return items[this.int(0, items.length - 1)]!;
  }

  /** A copy in random order (Fisher–Yates). */
  shuffled<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** A whole number in [1, max], log-uniform: small scales as likely as large ones (a horizon, a rate). */
  logScale(max: number): number {
    const bits = Math.max(0, Math.floor(Math.log2(Math.max(1, max))));
    const scale = 2 ** this.int(0, bits);
    return Math.min(max, this.int(scale, Math.min(max, scale * 2)));
  }
}
