import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../scenario/input-error';
import { STRATEGY_NAMES } from './strategy';

/**
 * What one `loopscope swarm` run writes with --out: the seeds it covered (each with its
 * strategy), and per property the shortest counterexample it has, with the file of its trace
 * (written by the explorer's counterexample writer). `swarm merge` reads these back.
 */
export const SHARD_KIND = 'loopscope-swarm-shard';

const seed = z.number().int().min(0);
const strategy = z.enum(STRATEGY_NAMES);
const pathStep = z.union([z.object({ kind: z.literal('tick') }), z.object({ kind: z.literal('env'), index: z.number().int().min(0) })]);

const shardSchema = z.object({
  kind: z.literal(SHARD_KIND),
  version: z.literal(1),
  scenario: z.string(),
  file: z.string(),
  loop: z.string(),
  policy: z.string().optional(),
  /** The whole range the shards split, and this shard's place in it. */
  range: z.object({ from: seed, to: seed }),
  shard: z.object({ index: z.number().int().min(0), count: z.number().int().min(1) }),
  strategy: z.union([strategy, z.literal('rotate')]),
  depth: z.number().int().min(1),
  maxStates: z.number().int().min(1),
  /** The properties the swarm judges (always, and eventually with a bound). */
  properties: z.array(z.string()),
  /** The seeds this shard ran (a time limit may have stopped it before its last). */
  seeds: z.array(z.object({ seed, strategy, states: z.number().int().min(0), found: z.array(z.string()) })),
  violations: z.array(
    z.object({
      property: z.string(),
      kind: z.enum(['always', 'eventually']),
      promised: z.boolean(),
      seed,
      strategy,
      foundLength: z.number().int().min(0),
      length: z.number().int().min(0),
      steps: z.array(z.string()),
      path: z.array(pathStep),
      settleMs: z.number().nullable().optional(),
      seeds: z.number().int().min(1),
      /** The trace file, beside this one. */
      trace: z.string(),
    }),
  ),
  stats: z.object({
    states: z.number().min(0),
    timeMs: z.number().min(0),
    stoppedEarly: z.boolean(),
    firstViolationMs: z.number().min(0).optional(),
  }),
});

export type ShardResult = z.infer<typeof shardSchema>;

/** The shard file's name: one per shard, so the pods of a Job can share one directory. */
export const shardFileName = (scenario: string, policy: string | undefined, shard: { index: number; count: number }) =>
  `swarm-${scenario}${policy ? `.${policy}` : ''}-shard-${shard.index}-of-${shard.count}.json`;

export const SHARD_FILE = /^swarm-.+-shard-\d+-of-\d+\.json$/;

export const shardJson = (result: ShardResult) => `${JSON.stringify(result, null, 1)}\n`;

/** Reads and validates one shard file; bad input names the file and the field. */
export function readShard(file: string): ShardResult {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code; // a read error carries one; a JSON syntax error none
    throw new InputError(file, '', code ? `expected a readable swarm shard file (${code})` : `expected JSON (${(e as Error).message})`); // cast: JSON.parse throws SyntaxError, an Error
  }
  const parsed = shardSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(file, issue.path.join('.'), `expected a swarm shard file (${SHARD_KIND} version 1): ${issue.message}`);
  }
  if (parsed.data.shard.index >= parsed.data.shard.count)
    throw new InputError(file, 'shard.index', `expected below shard.count ${parsed.data.shard.count}`);
  if (parsed.data.range.to < parsed.data.range.from) throw new InputError(file, 'range', 'expected from ≤ to');
  return parsed.data;
}
