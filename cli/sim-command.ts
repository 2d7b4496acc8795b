import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { runnerFor } from '../sim/loops';
import { formatTimeline } from '../sim/format';
import { traceJson } from '../sim/trace-schema';
import { parseDuration } from '../sim/units';
import { LOOPS } from '../sim/loops/registry';
import { UsageError, parseSeed } from './usage';

export function registerSim(program: Command): void {
  program
    .command('sim')
    .description('run a scenario in the seeded simulator and print its timeline (or trace JSON)')
    .argument('<scenario>', 'scenario YAML file (see scenarios/)')
    .option('--seed <n>', 'seed (overrides the scenario\'s)')
    .option('--until <duration>', 'virtual time to simulate, e.g. 30m, 2h (default: the scenario\'s duration)')
    .option('--policy <name>', `run with one of the loop's policies (${Object.values(LOOPS).flatMap((l) => (l.policies ? [`${l.id}: ${l.policies.names.join('|')}`] : [])).join('; ')})`)
    .option('--json', 'print the trace JSON instead of the timeline')
    .option('--out <file>', 'also write the trace JSON to this file')
    .action((file: string, opts: { seed?: string; until?: string; policy?: string; json?: boolean; out?: string }) => {
      const seed = opts.seed === undefined ? undefined : parseSeed(opts.seed);
      const until = opts.until === undefined ? undefined : parseDuration(opts.until);
      if (until === null) throw new UsageError('--until', `expected a duration like 30m or 2h, got "${opts.until}"`);
      const { entry, scenario, runner } = runnerFor(file, { ...(seed !== undefined ? { seed } : {}), ...(opts.policy ? { policy: opts.policy } : {}) });
      runner.run(until ?? scenario.durationMs);
      const trace = runner.trace();
      const json = traceJson(trace);
      if (opts.out) writeFileSync(opts.out, json + '\n');
      process.stdout.write(opts.json ? json + '\n' : formatTimeline(trace, entry.columns));
    });
}
