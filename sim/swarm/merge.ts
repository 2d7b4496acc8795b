import { basename, dirname, join } from 'node:path';
import { InputError } from '../scenario/input-error';
import type { ShardResult } from './result-file';
import { formatSeeds, rangeSize, shardSeeds } from './seeds';

export interface ShardFile {
  file: string;
  result: ShardResult;
}

export type MergedViolation = ShardResult['violations'][number] & { shardFile: string; traceFile: string };

export interface Merged {
  first: ShardResult;
  shards: readonly ShardFile[];
  /** Seeds run, out of the range. */
  covered: number;
  /** Seeds a shard did not run (it stopped at its time limit or on a signal), as text; empty when none. */
  notRun: string;
  violations: MergedViolation[];
  states: number;
  /** The shards' time added up (on a Job, they ran side by side). */
  timeMs: number;
}

/** The most seeds merge counts one by one. */
const MAX_RANGE = 50_000_000;

/**
 * Merges shard results: they must be of one swarm (scenario, policy, range, shard count,
 * strategy, budget), every shard present once, no seed run twice — else bad input, in one line
 * naming what is missing or duplicated. Keeps the shortest counterexample per property (on a
 * tie, the lowest seed: the same whatever order the shards come in).
 */
export function mergeShards(given: readonly ShardFile[]): Merged {
  const shards = [...given].sort((a, b) => a.result.shard.index - b.result.shard.index);
  if (shards.length === 0)
    throw new InputError('swarm merge', '', 'expected shard files (swarm-*-shard-*-of-*.json) in the directories given, found none');
  const first = shards[0]!;
  const same = (s: ShardFile, field: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b))
      throw new InputError(
        s.file,
        field,
        `expected ${JSON.stringify(b)} as in ${first.file} (one swarm's shards), got ${JSON.stringify(a)}`,
      );
  };
  for (const s of shards.slice(1)) {
    same(s, 'scenario', s.result.scenario, first.result.scenario);
    same(s, 'policy', s.result.policy, first.result.policy);
    same(s, 'range', s.result.range, first.result.range);
    same(s, 'shard.count', s.result.shard.count, first.result.shard.count);
    same(s, 'strategy', s.result.strategy, first.result.strategy);
    same(s, 'depth', s.result.depth, first.result.depth);
    same(s, 'maxStates', s.result.maxStates, first.result.maxStates);
  }
  const { range } = first.result;
  const count = first.result.shard.count;
  const byIndex = new Map<number, ShardFile>();
  for (const s of shards) {
    const twice = byIndex.get(s.result.shard.index);
    if (twice)
      throw new InputError(
        'swarm merge',
        '',
        `shard ${s.result.shard.index}/${count} given twice (${twice.file} and ${s.file}): its seeds would count twice`,
      );
    byIndex.set(s.result.shard.index, s);
  }
  const absent = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (absent.length > 0) {
    const seeds = absent.flatMap((i) => {
      const r = shardSeeds(range, { index: i, count });
      return r ? [`${r.from}..${r.to}`] : [];
    });
    throw new InputError(
      'swarm merge',
      '',
      `shard${absent.length > 1 ? 's' : ''} ${formatSeeds(absent)} of ${count} missing: seeds ${seeds.join(', ') || 'none'} not covered`,
    );
  }
  if (rangeSize(range) > MAX_RANGE) throw new InputError(first.file, 'range', `expected at most ${MAX_RANGE} seeds to merge`);
  const runs = new Uint8Array(rangeSize(range));
  const notRun: number[] = [];
  for (const s of shards) {
    const own = shardSeeds(range, s.result.shard);
    for (const { seed } of s.result.seeds) {
      if (!own || seed < own.from || seed > own.to)
        throw new InputError(
          s.file,
          'seeds',
          `expected only the seeds of shard ${s.result.shard.index}/${count} (${own ? `${own.from}..${own.to}` : 'none'}), got seed ${seed}`,
        );
      if (runs[seed - range.from]!++ > 0) throw new InputError(s.file, 'seeds', `seed ${seed} run twice`);
    }
    if (own) for (let seed = own.from; seed <= own.to; seed++) if (runs[seed - range.from] === 0) notRun.push(seed);
  }
  const best = new Map<string, MergedViolation>();
  for (const s of shards) {
    for (const v of s.result.violations) {
      const known = best.get(v.property);
      const merged = { ...v, seeds: v.seeds + (known?.seeds ?? 0), shardFile: s.file, traceFile: join(dirname(s.file), basename(v.trace)) };
      if (!known || v.length < known.length || (v.length === known.length && v.seed < known.seed)) best.set(v.property, merged);
      else known.seeds = merged.seeds;
    }
  }
  return {
    first: first.result,
    shards,
    covered: rangeSize(range) - notRun.length,
    notRun: notRun.length ? formatSeeds(notRun) : '',
    violations: [...best.values()],
    states: shards.reduce((n, s) => n + s.result.stats.states, 0),
    timeMs: shards.reduce((n, s) => n + s.result.stats.timeMs, 0),
  };
}
