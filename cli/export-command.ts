import type { Command } from 'commander';
import { scenarioArgument } from './shipped';
import { LANGUAGES } from '../web/i18n/messages';
import { EXPORT_FORMATS } from './export/formats';
import type { ExportOptions } from './export/run-export';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      'write slides of a scenario: the lab as one self-contained HTML file (opens from file://, no network), and the statechart and chart at a moment as SVG and PNG',
    )
    .argument(
      '[scenario]',
      "scenario YAML file (see scenarios/); without one, the talk's (scenarios/talk-lab.yaml), opening in presenter mode",
    )
    .option('--out <dir>', 'output directory (created if missing)', 'out/export')
    .option('--format <list>', `what to write, comma-separated: ${EXPORT_FORMATS.join(',')}`, EXPORT_FORMATS.join(','))
    .option('--at <time>', "the moment the pictures show and the page opens at, e.g. 2m30s (default: the scenario's end)")
    .option('--seed <n>', "seed (overrides the scenario's)")
    .option('--policy <name>', "one of the loop's policies")
    .option('--lang <lang>', `language of the pictures and the page: ${LANGUAGES.join(', ')}`, 'en')
    .option('--scale <n>', 'PNG pixels per SVG pixel, 1 to 4', '2')
    .addHelpText('after', '\nExit codes: 0 written · 1 the environment (no chromium for png) · 2 bad input (nothing written)\n')
    .action(async (argument: string | undefined, opts: ExportOptions) => {
      const file = argument === undefined ? undefined : scenarioArgument(argument);
      // Loaded here: the export's dependencies (ELK, playwright, the lab's HTML) would slow every other command's start.
      const { runExport } = await import('./export/run-export');
      await runExport(file, opts);
    });
}
