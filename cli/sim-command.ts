import type { Command } from 'commander';
import { scenarioArgument } from './shipped';
import { writeFileSync } from 'node:fs';
import { runnerFor } from '../sim/loops';
import { formatTimeline } from '../sim/format';
import { traceJson } from '../sim/trace-schema';
import { formatDuration, parseDuration } from '../sim/units';
import { LOOPS } from '../sim/loops/registry';
import { Progress } from './progress';
import { UsageError, parseSeed } from './usage';
import { InspectSocket, parseInspectUrl } from './inspect/inspect-socket';
import { inspectRun } from './inspect/run-inspection';

/**
 * A run is bounded by the frames it records, not by its virtual duration: a scenario of 30 days
 * (or a 1-second period over a month) is millions of frames, hours of CPU and gigabytes of memory.
 * At the bound the run stops, prints what it has, says so on stderr and exits 3 (like check's
 * "a bound was reached"). Frames of the largest loop (kubernetes) take ~17 KB each.
 */
export const DEFAULT_MAX_FRAMES = 50_000;
/** Items processed between looks at the clock, progress and Ctrl-C. */
const SLICE = 256;

export function registerSim(program: Command): void {
  program
    .command('sim')
    .description('run a scenario in the seeded simulator and print its timeline (or trace JSON)')
    .argument('<scenario>', 'scenario YAML file (see scenarios/)')
    .option('--seed <n>', "seed (overrides the scenario's)")
    .option('--until <duration>', "virtual time to simulate, e.g. 30m, 2h (default: the scenario's duration)")
    .option(
      '--policy <name>',
      `run with one of the loop's policies (${Object.values(LOOPS)
        .flatMap((l) => (l.policies ? [`${l.id}: ${l.policies.names.join('|')}`] : []))
        .join('; ')})`,
    )
    .option('--json', 'print the trace JSON instead of the timeline')
    .option('--out <file>', 'also write the trace JSON to this file')
    .option('--max-frames <n>', `stop after this many frames (exit 3; default ${DEFAULT_MAX_FRAMES})`)
    .option('--progress', 'print progress on stderr (default: when stderr is a terminal)')
    .option(
      '--inspect <ws-url>',
      "send the run to an XState inspector (Stately's inspection protocol over WebSocket, e.g. the lab's `loopscope lab --inspect`)",
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 done · 2 bad input · 3 stopped at --max-frames (the timeline so far is printed) · 130 Ctrl-C (likewise)\n',
    )
    .action(
      async (
        argument: string,
        opts: {
          seed?: string;
          until?: string;
          policy?: string;
          json?: boolean;
          out?: string;
          maxFrames?: string;
          progress?: boolean;
          inspect?: string;
        },
      ) => {
        const file = scenarioArgument(argument);
        const seed = opts.seed === undefined ? undefined : parseSeed(opts.seed);
        const until = opts.until === undefined ? undefined : parseDuration(opts.until);
        if (until === null) throw new UsageError('--until', `expected a duration like 30m or 2h, got "${opts.until}"`);
        const maxFrames = opts.maxFrames === undefined ? DEFAULT_MAX_FRAMES : Number(opts.maxFrames);
        if (!/^\d+$/.test(opts.maxFrames ?? '1') || !Number.isSafeInteger(maxFrames) || maxFrames < 1)
          throw new UsageError('--max-frames', `expected a whole number ≥ 1, got "${opts.maxFrames}"`);
        const inspectUrl = opts.inspect === undefined ? undefined : parseInspectUrl(opts.inspect);
        if (typeof inspectUrl === 'string') throw new UsageError('--inspect', inspectUrl);
        const { entry, scenario, runner } = runnerFor(file, {
          ...(seed !== undefined ? { seed } : {}),
          ...(opts.policy ? { policy: opts.policy } : {}),
        });
        const end = until ?? scenario.durationMs;

        // Connected before the run: a receiver that cannot be reached is said before any work is done.
        const socket = inspectUrl
          ? await InspectSocket.open(inspectUrl, (why) =>
              process.stderr.write(`loopscope: --inspect: ${why}; the run goes on without it\n`),
            )
          : undefined;
        const inspection = socket ? inspectRun(socket, runner.binding.machine, `${entry.id}:${scenario.name}`) : undefined;
        // The first frame is the initial snapshot; each processNext records at most one more.
        inspection?.follow(runner);

        const progress = new Progress('sim', opts.progress ?? process.stderr.isTTY === true);
        let interrupted: NodeJS.Signals | undefined;
        const onSignal = (signal: NodeJS.Signals) => {
          interrupted = signal;
        };
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        let stopped: 'frames' | 'interrupted' | undefined;
        try {
          let items = 0;
          for (let next = runner.nextEventAt; next !== undefined && next <= end; next = runner.nextEventAt) {
            runner.processNext();
            inspection?.follow(runner);
            if (runner.frames.length >= maxFrames) {
              stopped = 'frames';
              break;
            }
            if (++items % SLICE === 0) {
              // Let a Ctrl-C in, and tell a watching user how far the run is.
              await new Promise((r) => setImmediate(r));
              if (interrupted) {
                stopped = 'interrupted';
                break;
              }
              progress.update(`${formatDuration(runner.t)} of ${formatDuration(end)} virtual · ${runner.frames.length} frames`);
            }
          }
          if (!stopped) runner.run(end);
        } finally {
          process.removeListener('SIGINT', onSignal);
          process.removeListener('SIGTERM', onSignal);
          progress.done();
        }
        await socket?.close();

        const trace = runner.trace();
        const json = traceJson(trace);
        if (opts.out) writeFileSync(opts.out, json + '\n');
        process.stdout.write(opts.json ? json + '\n' : formatTimeline(trace, entry.columns));
        if (stopped === 'frames') {
          process.stderr.write(
            `loopscope: sim stopped at virtual time ${formatDuration(runner.t)} of ${formatDuration(end)}: --max-frames ${maxFrames} reached (shorten with --until, or raise --max-frames)\n`,
          );
          process.exitCode = 3;
        } else if (stopped === 'interrupted') {
          process.stderr.write(
            `loopscope: sim interrupted (${interrupted ?? 'SIGINT'}) at virtual time ${formatDuration(runner.t)} of ${formatDuration(end)}: the timeline so far is printed · exit 130\n`,
          );
          process.exitCode = 130;
        }
      },
    );
}
