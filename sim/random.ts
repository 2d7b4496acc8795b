import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

/** A seeded generator's state, kept inside a world so (scenario, seed) → one trace. */
export type RngState = readonly number[];

export const seedRng = (seed: number): RngState => xoroshiro128plus(seed).getState();

/** Draws a float in [0, 1); returns it with the next state (the input state is not changed). */
export function drawFloat(state: RngState): [number, RngState] {
  const rng = xoroshiro128plusFromState(state);
  const value = uniformFloat64(rng);
  return [value, rng.getState()];
}

export function drawInt(state: RngState, min: number, max: number): [number, RngState] {
  const rng = xoroshiro128plusFromState(state);
  const value = uniformInt(rng, min, max);
  return [value, rng.getState()];
}

/** n lowercase hex digits, like the lab's uuid.New().String()[:8]. */
export function drawHex(state: RngState, n: number): [string, RngState] {
  const rng = xoroshiro128plusFromState(state);
  let out = '';
  for (let i = 0; i < n; i++) out += uniformInt(rng, 0, 15).toString(16);
  return [out, rng.getState()];
}
