import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { LANGUAGES } from '../web/i18n/messages';
import type { LabOptions } from './lab/options';
import { DEFAULT_INSPECT_BYTES, DEFAULT_INSPECT_HISTORY, DEFAULT_LAB_PORT } from './lab/options';

export function registerLab(program: Command): void {
  program
    .command('lab')
    .description(
      'serve the lab (built, from this package) on 127.0.0.1 and open your own files in it: scenarios join the list, traces open to step through',
    )
    .argument(
      '[file...]',
      'scenario YAML files and trace JSON files (sim --json, check --out, real --out); the URL printed opens the first',
    )
    .option('--port <n>', `port to listen on (default ${DEFAULT_LAB_PORT}, or any free port when it is taken; 0: any free port)`)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--presenter', 'open in presenter mode (full screen: one click on the page)')
    .option('--lang <lang>', `language of the lab: ${LANGUAGES.join(', ')}`, 'en')
    .option(
      '--inspect [port]',
      "also relay XState inspection (@statelyai/inspect createWebSocketInspector) from any app to the lab's inspector page: apps send to ws://127.0.0.1:<lab port>/inspect, or to ws://127.0.0.1:<port> when a port is given (8080 is the library's default)",
    )
    .option(
      '--inspect-history <events>',
      `with --inspect: how many events a page opened later still gets (the oldest go first; also at most ${DEFAULT_INSPECT_BYTES / 1024 / 1024} MB)`,
      String(DEFAULT_INSPECT_HISTORY),
    )
    .addHelpText(
      'after',
      `
Prints one line, "lab: <URL>", and serves until Ctrl-C (SIGINT) or SIGTERM. With --inspect, stderr names the
address apps send to and the inspector page's URL. Nothing is fetched from the network.
Exit codes: 0 stopped by a signal · 1 the environment (the lab not built, the port taken) · 2 bad input (a file the lab cannot open; nothing served)
LOOPSCOPE_LAB_DIR=<dir> serves another build of the lab (the package's dist/lab by default).
`,
    )
    .action(async (files: string[], opts: LabOptions) => {
      // `--inspect` takes an optional port, so commander hands it the word after it: `lab --inspect
      // my.yaml` means a file, not a port named my.yaml. A word that is a file to open goes back to the files.
      const word = typeof opts.inspect === 'string' ? opts.inspect : undefined;
      const inspectIsFile = word !== undefined && !/^\d+$/.test(word) && (existsSync(word) || /\.(ya?ml|json)$/i.test(word));
      // Loaded here: the scenario parsers and the trace schema would slow every other command's start.
      const { runLab } = await import('./lab/run-lab');
      await runLab(inspectIsFile ? [word, ...files] : files, inspectIsFile ? { ...opts, inspect: true } : opts);
    });
}
