import { MAX_SEED } from './prng';

/** A range of seeds, both ends included. */
export interface SeedRange {
  from: number;
  to: number;
}

/** One of n shards: index in [0, n). */
export interface Shard {
  index: number;
  count: number;
}

export const rangeSize = (r: SeedRange) => r.to - r.from + 1;

/** Why a --seeds text is not a range, or the range: `A..B` (both included) or `N` (N seeds from 0). */
export function parseSeedRange(text: string): SeedRange | string {
  const whole = (s: string) => (/^\d+$/.test(s) && Number(s) <= MAX_SEED ? Number(s) : undefined);
  const span = /^(\d+)\.\.(\d+)$/.exec(text);
  if (span) {
    const from = whole(span[1]!);
    const to = whole(span[2]!);
    if (from === undefined || to === undefined) return `expected seeds between 0 and ${MAX_SEED}, got "${text}"`;
    if (to < from) return `expected A..B with A ≤ B, got "${text}"`;
    return { from, to };
  }
  const count = whole(text);
  if (count === undefined || count < 1) return `expected A..B (seeds A to B, both included) or a count N ≥ 1 (seeds 0..N-1), got "${text}"`;
  return { from: 0, to: count - 1 };
}

/**
 * Why a --shard text (with JOB_COMPLETION_INDEX, when set) names no shard, or the shard:
 * `i/n` names it; `/n` takes i from JOB_COMPLETION_INDEX, which a Kubernetes Indexed Job sets in
 * each pod (0 … completions − 1). When both are given they must agree.
 */
export function parseShard(text: string, jobIndex: string | undefined): Shard | string {
  const m = /^(\d*)\/(\d+)$/.exec(text);
  if (!m) return `expected i/n (shard i of n, 0 ≤ i < n) or /n (i from JOB_COMPLETION_INDEX), got "${text}"`;
  const count = Number(m[2]);
  if (!Number.isSafeInteger(count) || count < 1) return `expected n ≥ 1 shards, got "${text}"`;
  const fromEnv = jobIndex === undefined ? undefined : /^\d+$/.test(jobIndex) ? Number(jobIndex) : Number.NaN;
  if (fromEnv !== undefined && Number.isNaN(fromEnv)) return `JOB_COMPLETION_INDEX is "${jobIndex}": expected a whole number ≥ 0`;
  const given = m[1] === '' ? undefined : Number(m[1]);
  const index = given ?? fromEnv;
  if (index === undefined) return `"${text}" leaves the shard's index to JOB_COMPLETION_INDEX, which is not set: give i/n`;
  if (given !== undefined && fromEnv !== undefined && given !== fromEnv)
    return `shard ${given} of "${text}" is not JOB_COMPLETION_INDEX=${fromEnv}`;
  if (index >= count) return `expected an index below ${count}, got ${index}${given === undefined ? ' (JOB_COMPLETION_INDEX)' : ''}`;
  return { index, count };
}

/**
 * The seeds of one shard: the range cut into n consecutive blocks as even as can be (the first
 * size mod n blocks one seed longer). Consecutive blocks, not every n-th seed, so each shard
 * still rotates through every strategy (seed mod 3).
 */
export function shardSeeds(range: SeedRange, shard: Shard): SeedRange | undefined {
  const size = rangeSize(range);
  const start = (i: number) => range.from + Math.floor((i * size) / shard.count);
  const from = start(shard.index);
  const to = start(shard.index + 1) - 1;
  return to < from ? undefined : { from, to };
}

export function seedsOf(range: SeedRange | undefined): number[] {
  if (!range) return [];
  return Array.from({ length: rangeSize(range) }, (_, i) => range.from + i);
}

/** Seeds as short text: runs of consecutive ones as A..B. */
export function formatSeeds(seeds: readonly number[], max = 8): string {
  const sorted = [...seeds].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(i === j ? `${sorted[i]}` : `${sorted[i]}..${sorted[j]}`);
    i = j + 1;
  }
  return runs.length > max ? `${runs.slice(0, max).join(', ')} … (${runs.length - max} more runs)` : runs.join(', ');
}
