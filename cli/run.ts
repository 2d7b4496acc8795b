// The command line as a function: argv in, exit code out, every outcome one of
//   0 ok · 1 the environment (daemon unreachable…) or a violated promise (check) · 2 bad input ·
//   3 a bound reached (check, sim) · 130 interrupted — and never a stack trace on stderr.
// cli/main.ts calls it for the process; tests call it in-process with stdout/stderr captured.
import { Command, CommanderError } from 'commander';
import { InputError, InputErrors } from '../sim/scenario/input-error';
import { COMMANDS } from './commands';
import { ExitError } from './exit';
import { reportInternalError } from './internal-error';
import { VERSION } from './package-root';
import { UsageError } from './usage';

/** The program with the named command registered in full and the others as one-line entries (for
 * --help and commander's "did you mean"). */
async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('loopscope')
    .description('control loops as state machines: simulate, check, run for real')
    .version(VERSION, '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError(false);
  // The first word that is not an option names the command (the root program has no option taking
  // a value); `loopscope help <command>` names it second.
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const named = words[0] === 'help' ? words[1] : words[0];
  for (const entry of COMMANDS) {
    if (entry.name === named) (await entry.load())(program);
    else program.command(entry.name).description(entry.summary).helpOption(false).allowUnknownOption().allowExcessArguments();
  }
  return program;
}

const say = (text: string) => {
  process.stderr.write(`loopscope: ${text.split('\n').join('\nloopscope: ')}\n`);
};

/** The exit code an error stands for (printing its one line). */
function exitCodeOf(e: unknown, argv: readonly string[]): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return 0;
    return 2; // commander printed its own one-line message
  }
  if (e instanceof InputError || e instanceof InputErrors || e instanceof UsageError) {
    say(e.message);
    return 2;
  }
  if (e instanceof ExitError) {
    say(e.message);
    return e.code;
  }
  process.stderr.write(`${reportInternalError(e, argv)}\n`);
  return 1;
}

/** Runs one command line (argv as process.argv: node, script, args…); resolves with its exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await (await buildProgram(argv)).parseAsync([...argv]);
    const code = process.exitCode;
    return typeof code === 'number' ? code : Number(code ?? 0);
  } catch (e) {
    return exitCodeOf(e, argv);
  } finally {
    process.exitCode = before;
  }
}
