import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { POLICY_NAMES } from '../machines/incus-hpa';
import type { CheckRun } from '../sim/check/check';
import { anyViolated, checkScenario } from '../sim/check/check';
import { findingsTable, formatReport } from '../sim/check/report';
import { formatTimeline } from '../sim/format';
import { loadScenario } from '../sim/loops';
import { UsageError } from './usage';

interface CheckFlags { depth?: string; maxStates?: string; out?: string; policy?: string; within?: string; table?: boolean }

function positive(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) throw new UsageError(option, `expected a whole number ≥ 1, got "${text}"`);
  return Number(text);
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('explore every reachable state of a small scenario; the timeline is what the environment may do, at any instant, in any order')
    .argument('<scenario>', 'scenario YAML file (see scenarios/check-*.yaml)')
    .option('--depth <n>', 'stop expanding after this many steps from the start')
    .option('--max-states <n>', 'stop after this many distinct states (default 2000000)')
    .option('--out <dir>', 'write each counterexample trace (JSON, loadable by the lab) into this directory')
    .option('--policy <name>', `HPA policy: ${POLICY_NAMES.join('|')}`)
    .option('--within <periods>', 'convergence bound K in periods (default: per policy)')
    .option('--table', `check every policy (${POLICY_NAMES.join(', ')}) and print the findings table`)
    .action((file: string, flags: CheckFlags) => {
      const maxDepth = positive('--depth', flags.depth);
      const maxStates = positive('--max-states', flags.maxStates);
      const withinPeriods = positive('--within', flags.within);
      if (flags.policy !== undefined && !(POLICY_NAMES as readonly string[]).includes(flags.policy)) {
        throw new UsageError('--policy', `expected one of ${POLICY_NAMES.join(', ')}, got "${flags.policy}"`);
      }
      if (flags.table && flags.policy) throw new UsageError('--table', 'checks every policy: leave out --policy');
      const { entry, scenario } = loadScenario(file);
      const policies = flags.table ? [...POLICY_NAMES] : [flags.policy];
      const runs: CheckRun[] = policies.map((policy) => checkScenario(entry, scenario, {
        ...(policy ? { policy } : {}), ...(maxDepth ? { maxDepth } : {}), ...(maxStates ? { maxStates } : {}), ...(withinPeriods ? { withinPeriods } : {}),
      }));
      if (flags.out) mkdirSync(flags.out, { recursive: true });
      for (const run of runs) {
        process.stdout.write(formatReport(run));
        for (const { property, trace } of run.counterexamples) {
          process.stdout.write(`\n## shortest counterexample: ${property}\n`);
          if (flags.out) {
            const path = join(flags.out, `${scenario.name}${run.policy ? `.${run.policy}` : ''}.${property}.trace.json`);
            writeFileSync(path, JSON.stringify(trace) + '\n');
            process.stdout.write(`(trace: ${path})\n`);
          }
          process.stdout.write(formatTimeline(trace, entry.columns));
        }
        process.stdout.write('\n');
      }
      if (flags.table) process.stdout.write(findingsTable(runs));
      process.exitCode = runs.some(anyViolated) ? 1 : 0;
    });
}
