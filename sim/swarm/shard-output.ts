import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreparedCheck } from '../check/check';
import { traceText } from '../check/artifacts';
import { counterexampleTrace } from '../check/counterexample';
import type { PathStep } from '../check/model';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { ShardResult } from './result-file';
import { SHARD_KIND, shardFileName, shardJson } from './result-file';
import type { SeedRange, Shard } from './seeds';
import type { SearchBudget } from './strategy';
import type { StrategyChoice, SwarmRun } from './swarm';

export interface ShardMeta {
  file: string;
  range: SeedRange;
  shard: Shard;
  strategy: StrategyChoice;
  budget: SearchBudget;
}

/** A path as words: "tick" or the move's label (check's JSON writes its steps alike). */
export const stepLabels = (prepared: PreparedCheck, path: readonly PathStep[]) =>
  path.map((s) => (s.kind === 'tick' ? 'tick' : (prepared.alphabet[s.index]?.label ?? `move ${s.index}`)));

/** What a swarm judges: the always-properties, and the eventually-properties with a bound. */
export const judgedProperties = (prepared: PreparedCheck) =>
  prepared.properties.filter((p) => p.kind === 'always' || (p.kind === 'eventually' && p.withinMs !== undefined)).map((p) => p.name);

/** The shard's result as data; `trace` names each counterexample's trace file (written by writeShard). */
export function shardResult(prepared: PreparedCheck, scenario: LoadedScenario, run: SwarmRun, meta: ShardMeta): ShardResult {
  const policy = prepared.policy;
  return {
    kind: SHARD_KIND,
    version: 1,
    scenario: scenario.name,
    file: meta.file,
    loop: prepared.check.loop,
    ...(policy ? { policy } : {}),
    range: meta.range,
    shard: meta.shard,
    strategy: meta.strategy,
    depth: meta.budget.depth,
    maxStates: meta.budget.maxSteps,
    properties: judgedProperties(prepared),
    seeds: run.seeds,
    violations: run.violations.map((v) => ({
      property: v.property,
      kind: v.kind,
      promised: prepared.promises.includes(v.property),
      seed: v.seed,
      strategy: v.strategy,
      foundLength: v.foundLength,
      length: v.path.length,
      steps: stepLabels(prepared, v.path),
      path: v.path,
      ...(v.settleMs !== undefined ? { settleMs: Number.isFinite(v.settleMs) ? v.settleMs : null } : {}),
      seeds: v.seeds,
      trace: `${scenario.name}${policy ? `.${policy}` : ''}.${v.property}.seed-${v.seed}.trace.json`,
    })),
    stats: {
      states: run.states,
      timeMs: Math.round(run.timeMs),
      stoppedEarly: run.stoppedEarly,
      ...(run.firstViolationMs !== undefined ? { firstViolationMs: Math.round(run.firstViolationMs) } : {}),
    },
  };
}

/**
 * --out: each counterexample's trace, replayed through the Runner and marked by the explorer's
 * writer (counterexample.ts) as `check --out` writes it, so the lab and `loopscope trace` open it;
 * then the shard file. Returns the shard file's path.
 */
export function writeShard(dir: string, prepared: PreparedCheck, result: ShardResult): string {
  mkdirSync(dir, { recursive: true });
  for (const v of result.violations) {
    const property = prepared.properties.find((p) => p.name === v.property);
    if (!property) throw new Error(`swarm: no property ${v.property}`);
    const trace = counterexampleTrace(prepared.replayInput, property, v.path, v.settleMs === null ? Number.POSITIVE_INFINITY : v.settleMs);
    writeFileSync(join(dir, v.trace), traceText(trace, {}));
  }
  const file = join(dir, shardFileName(result.scenario, result.policy, result.shard));
  writeFileSync(file, shardJson(result));
  return file;
}
