import type { Command } from 'commander';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCheck, variantNames } from '../sim/check/check';
import { loadScenario } from '../sim/loops';
import { didYouMean } from '../sim/scenario/suggest';
import { InputError } from '../sim/scenario/input-error';
import { parseDuration } from '../sim/units';
import { mergeShards } from '../sim/swarm/merge';
import type { ShardFile } from '../sim/swarm/merge';
import { formatSwarmReport, swarmExitCode } from '../sim/swarm/report';
import { SHARD_FILE, readShard } from '../sim/swarm/result-file';
import { formatSeeds, parseSeedRange, parseShard, rangeSize, seedsOf, shardSeeds } from '../sim/swarm/seeds';
import { shardResult, writeShard } from '../sim/swarm/shard-output';
import type { StrategyChoice } from '../sim/swarm/swarm';
import { DEFAULT_BUDGET, runSwarm } from '../sim/swarm/swarm';
import { STRATEGY_NAMES } from '../sim/swarm/strategy';
import { scenarioArgument } from './shipped';
import { UsageError } from './usage';
import { errorCode } from '../sim/error-code';

interface SwarmFlags {
  seeds?: string;
  depth?: string;
  maxStates?: string;
  strategy?: string;
  shard?: string;
  out?: string;
  timeLimit?: string;
  policy?: string;
}

const DEFAULT_SEEDS = 300;
const STRATEGY_CHOICES = [...STRATEGY_NAMES, 'all'] as const;

const SWARM_EXIT_CODES = `Exit codes:
  0  no promised property violated by these seeds (not a proof: \`loopscope check\` explores every state)
  1  a promised property is violated (unpromised ones are findings: reported, not failed)
  2  bad input (scenario file, option, JOB_COMPLETION_INDEX; for merge: a shard file, or shards missing or given twice)
  130 interrupted (SIGINT or SIGTERM): the seeds run so far are reported and written`;

function positive(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new UsageError(option, `expected a whole number ≥ 1, got "${text}"`);
  return Number(text);
}

function strategyOf(text: string | undefined): StrategyChoice {
  if (text === undefined || text === 'all') return 'rotate';
  const name = STRATEGY_NAMES.find((s) => s === text);
  if (!name)
    throw new UsageError(
      '--strategy',
      `expected one of ${STRATEGY_CHOICES.join(', ')}, got "${text}"${didYouMean(text, STRATEGY_CHOICES)}`,
    );
  return name;
}

/** Shard files in the directories (or files) given, in a stable order. */
function shardFiles(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      throw new InputError(p, '', `expected a directory of swarm shard files or a shard file (${errorCode(e) ?? 'error'})`);
    }
    return isDir
      ? readdirSync(p)
          .filter((f) => SHARD_FILE.test(f))
          .sort()
          .map((f) => join(p, f))
      : [p];
  });
}

export function registerSwarm(program: Command): void {
  const swarm = program
    .command('swarm')
    .description(
      'many short randomized searches of a check scenario (random walks, bounded DFS, a PCT-style scheduler), one per seed; violations shrunk to short counterexamples',
    )
    .argument('<scenario>', 'scenario YAML file (see scenarios/*-check-*.yaml)')
    .option('--seeds <range>', `the seeds: A..B (both included) or a count N (0..N-1); default ${DEFAULT_SEEDS}`)
    .option('--depth <n>', `the longest path a search builds (default ${DEFAULT_BUDGET.depth})`)
    .option('--max-states <n>', `the states one search may make (default ${DEFAULT_BUDGET.maxSteps})`)
    .option(
      '--strategy <name>',
      `${STRATEGY_CHOICES.join('|')} (default all: seed s runs ${STRATEGY_NAMES.map((n, i) => `${n} when s mod 3 = ${i}`).join(', ')})`,
    )
    .option(
      '--shard <i/n>',
      'run only shard i of n of the seeds (consecutive blocks); /n takes i from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job sets it), which must agree with i when both are given',
    )
    .option(
      '--out <dir>',
      'write the shard result (swarm-<scenario>-shard-<i>-of-<n>.json) and each counterexample trace (JSON, loadable by the lab) into this directory',
    )
    .option(
      '--time-limit <duration>',
      'start no new seed after this long (e.g. 90s, 5m; the seed under way finishes); the seeds not run are not covered, and merge says so',
    )
    .option('--policy <name>', "search this policy of the loop instead of the scenario's")
    .addHelpText(
      'after',
      `\n${SWARM_EXIT_CODES}\n\nJOB_COMPLETION_INDEX: read only with --shard; --shard /n requires it, --shard i/n must agree with it. See docs/swarm.md.\n`,
    )
    .action(async (argument: string, flags: SwarmFlags) => {
      const file = scenarioArgument(argument);
      const range = flags.seeds === undefined ? { from: 0, to: DEFAULT_SEEDS - 1 } : parseSeedRange(flags.seeds);
      if (typeof range === 'string') throw new UsageError('--seeds', range);
      const depth = positive('--depth', flags.depth) ?? DEFAULT_BUDGET.depth;
      const maxSteps = positive('--max-states', flags.maxStates) ?? DEFAULT_BUDGET.maxSteps;
      const strategy = strategyOf(flags.strategy);
      const jobIndex = process.env.JOB_COMPLETION_INDEX;
      const shard = flags.shard === undefined ? { index: 0, count: 1 } : parseShard(flags.shard, jobIndex);
      if (typeof shard === 'string') throw new UsageError('--shard', shard);
      const timeLimitMs = flags.timeLimit === undefined ? undefined : parseDuration(flags.timeLimit);
      if (timeLimitMs === null || (timeLimitMs !== undefined && timeLimitMs <= 0))
        throw new UsageError('--time-limit', `expected a duration such as 90s or 5m, got "${flags.timeLimit}"`);
      const { entry, scenario } = loadScenario(file);
      const names = variantNames(entry);
      if (flags.policy !== undefined && !names.includes(flags.policy)) {
        throw new UsageError(
          '--policy',
          names.length === 0
            ? `expected no --policy: loop ${entry.binding.loop} has no policies`
            : `expected one of ${names.join(', ')} (the policies of ${entry.binding.loop}), got "${flags.policy}"${didYouMean(flags.policy, names)}`,
        );
      }
      if (flags.out !== undefined) {
        try {
          mkdirSync(flags.out, { recursive: true });
        } catch (e) {
          throw new UsageError(
            '--out',
            `expected a directory that can be created and written, got "${flags.out}" (${errorCode(e) ?? 'error'})`,
          );
        }
      }
      const prepared = prepareCheck(entry, scenario, flags.policy !== undefined ? { policy: flags.policy } : {});
      const mine = shardSeeds(range, shard);

      let signal: NodeJS.Signals | undefined;
      const stop = (received: NodeJS.Signals) => {
        signal ??= received;
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      let run: Awaited<ReturnType<typeof runSwarm>>;
      try {
        run = await runSwarm(prepared, {
          seeds: seedsOf(mine),
          strategy,
          budget: { depth, maxSteps },
          ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
          stopped: () => signal !== undefined,
        });
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
      const result = shardResult(prepared, scenario, run, { file, range, shard, strategy, budget: { depth, maxSteps } });
      const written = flags.out !== undefined ? writeShard(flags.out, prepared, result) : undefined;
      const ran = run.seeds.length;
      const header = [
        `# swarm ${scenario.name}${prepared.policy ? ` · policy ${prepared.policy}` : ''}${shard.count > 1 ? ` · shard ${shard.index}/${shard.count}` : ''}`,
        `seeds: ${mine ? `${mine.from}..${mine.to}` : 'none'} of ${range.from}..${range.to} · ${ran} run${run.stoppedEarly ? ` (stopped early: ${signal ? `${signal}` : 'time limit'}; not run: ${formatSeeds(seedsOf(mine).slice(ran))})` : ''} · strategy ${strategy === 'rotate' ? 'all (by seed)' : strategy} · depth ${depth}, ${maxSteps} states a search`,
        `states: ${run.states} made in ${(run.timeMs / 1000).toFixed(2)}s${ran ? `, ${Math.round((ran / Math.max(run.timeMs, 1)) * 60_000)} seeds/min` : ''}${run.firstViolationMs !== undefined ? ` · first violation after ${(run.firstViolationMs / 1000).toFixed(2)}s` : ''}`,
        ...(written ? [`shard result: ${written}`] : []),
      ];
      const violations = result.violations.map((v) => ({
        ...v,
        ...(flags.out !== undefined ? { traceFile: join(flags.out, v.trace) } : {}),
      }));
      process.stdout.write(formatSwarmReport(header, violations, result.properties, file));
      process.exitCode = signal ? 130 : swarmExitCode(violations);
      if (signal) process.stderr.write(`loopscope: swarm interrupted (${signal}): the seeds run so far are reported · exit 130\n`);
    });

  swarm
    .command('merge')
    .description(
      'merge the shard results of one swarm (e.g. the pods of an Indexed Job): every shard once, the shortest counterexample per property',
    )
    .argument('<dir...>', 'directories holding swarm-*-shard-*-of-*.json (or such files)')
    .addHelpText('after', `\n${SWARM_EXIT_CODES}\n`)
    .action((dirs: string[]) => {
      const shards: ShardFile[] = shardFiles(dirs).map((f) => ({ file: f, result: readShard(f) }));
      const merged = mergeShards(shards);
      const { first } = merged;
      const size = rangeSize(first.range);
      const header = [
        `# swarm merge ${first.scenario}${first.policy ? ` · policy ${first.policy}` : ''} · ${merged.shards.length} shard${merged.shards.length === 1 ? '' : 's'}`,
        `seeds: ${first.range.from}..${first.range.to}, each in one shard · ${merged.covered} of ${size} run${merged.notRun ? ` (not run — a shard stopped at its time limit or a signal: ${merged.notRun})` : ''}`,
        `states: ${merged.states} · shards' time added up: ${(merged.timeMs / 1000).toFixed(2)}s`,
      ];
      process.stdout.write(formatSwarmReport(header, merged.violations, first.properties, first.file));
      process.exitCode = swarmExitCode(merged.violations);
    });
}
