import type { Command } from 'commander';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../sim/loops';
import { readYamlFile } from '../sim/scenario/load';
import type { LoopEntry } from '../sim/loops/registry';
import { LOOP_IDS, loopById } from '../sim/loops/registry';
import type { CoverKind } from '../sim/paths/generate';
import { COVER_KINDS } from '../sim/paths/generate';
import { generatePaths, reportText } from '../sim/paths/paths';
import { didYouMean } from '../sim/scenario/suggest';
import { packagePath } from './package-root';
import { scenarioArgument } from './shipped';
import { isCheckScenario } from './check-bounds';
import { UsageError } from './usage';
import { errorCode } from '../sim/error-code';

interface PathsFlags {
  cover?: string;
  out?: string;
  shipped?: boolean;
}

function coverOf(text: string | undefined): CoverKind {
  const cover = COVER_KINDS.find((c) => c === (text ?? 'transitions'));
  if (!cover) throw new UsageError('--cover', `expected one of ${COVER_KINDS.join(', ')}, got "${text}"${didYouMean(text, COVER_KINDS)}`);
  return cover;
}

/** A loop id names its default scenario (its definition's pathScenario); anything else is a scenario file. */
function scenarioFile(argument: string): string {
  const entry = loopById(argument);
  return entry ? packagePath('scenarios', entry.pathScenario) : scenarioArgument(argument);
}

/** The loop's shipped scenarios: the sim ones (run) and the check ones (explored), for the report's shares. */
function shippedOf(entry: LoopEntry): { sim: string[]; check: string[] } {
  const dir = packagePath('scenarios');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join(dir, f));
  // scenarios/ also holds real mode's configs (hpa.yaml): a scenario names its loop.
  const names = (f: string) => {
    const doc = readYamlFile(f);
    return typeof doc === 'object' && doc !== null && 'loop' in doc && doc.loop === entry.id;
  };
  const mine = files.filter(names).map((f) => ({ f, loaded: loadScenario(f) }));
  const isCheck = (x: (typeof mine)[number]) => isCheckScenario(x.f, x.loaded.scenario);
  return { sim: mine.filter((x) => !isCheck(x)).map((x) => x.f), check: mine.filter(isCheck).map((x) => x.f) };
}

export function registerPaths(program: Command): void {
  program
    .command('paths')
    .description(
      `model-based tests from a loop's machine: xstate/graph's shortest paths over the machine with its world, one scenario and one vitest file per path, and a transition-coverage report. A loop id (${LOOP_IDS.join(', ')}) uses its default scenario.`,
    )
    .argument('<loop|scenario>', "a loop id, or a scenario file whose timeline is the environment's moves (as for check)")
    .option('--cover <what>', `what the paths must reach: ${COVER_KINDS.join(' or ')}`, 'transitions')
    .option('--out <dir>', 'where to write the scenarios, the tests and coverage.json / coverage.txt')
    .option('--no-shipped', 'skip the shares of the shipped sim and check scenarios (faster)')
    .action((argument: string, flags: PathsFlags) => {
      const cover = coverOf(flags.cover);
      if (flags.out === undefined) throw new UsageError('--out', 'expected a directory to write the paths into (--out <dir>)');
      const { entry, scenario } = loadScenario(scenarioFile(argument));
      try {
        mkdirSync(flags.out, { recursive: true });
      } catch (e) {
        throw new UsageError(
          '--out',
          `expected a directory that can be created and written, got "${flags.out}" (${errorCode(e) ?? 'error'})`,
        );
      }
      const report = generatePaths(entry, scenario, {
        cover,
        out: flags.out,
        ...(flags.shipped !== false ? { shipped: shippedOf(entry) } : {}),
      });
      process.stdout.write(reportText(report));
    });
}
