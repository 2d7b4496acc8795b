import type { Command } from 'commander';
import { conform } from '../sim/conform/conform';
import { loadTracePolicies, readRealTrace } from '../sim/conform/load';
import { conformExitCode, formatConform } from '../sim/conform/report';

const CONFORM_EXIT_CODES = `Exit codes:
  0  the run conforms: every recorded answer and decision is one the model allows, and no promised
     property was violated
  1  a divergence (the first is printed: frame, time, what was recorded, what the model allowed
     instead) or a promised property violated on some frame
  2  bad input: no such file, not JSON, not a real incus-hpa trace with I/O records, a policy
     module that cannot be found`;

export function registerConform(program: Command): void {
  program
    .command('conform')
    .description(
      'replay a real Incus HPA run (loopscope real --out) against the model: the same machine fed the recorded answers must take the same states and decisions, every answer and observation must be one the simulated world allows (with the outside moves of its fault vocabulary), and the properties run as monitors',
    )
    .argument('<trace>', 'trace JSON written by loopscope real --out (or --json)')
    .option('--json', 'print the report as JSON')
    .option('--policy-module <file>', 'the policy module of a run whose policy is module:<file>, when it is not where the run found it')
    .addHelpText('after', `\n${CONFORM_EXIT_CODES}\n`)
    .action((file: string, opts: { json?: boolean; policyModule?: string }) => {
      const real = readRealTrace(file);
      const report = conform(file, real, loadTracePolicies(file, real, opts.policyModule));
      process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : formatConform(report));
      process.exitCode = conformExitCode(report);
    });
}
