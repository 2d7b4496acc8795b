import { Command, CommanderError } from 'commander';
import { InputError, InputErrors } from '../sim/scenario/errors';
import { registerCheck } from './check-command';
import { registerReal } from './real-command';
import { registerSim } from './sim-command';
import { UsageError } from './usage';

const program = new Command('loopscope')
  .description('control loops as state machines: simulate, check, run for real')
  .exitOverride()
  .showHelpAfterError(false);
registerSim(program);
registerCheck(program);
registerReal(program);

// `loopscope sim … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); throw e; });

/** Bad input → one clear message and exit code 2; anything else is a bug → exit 1. */
async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') process.exit(0);
      process.exit(2);
    }
    if (e instanceof InputError || e instanceof InputErrors || e instanceof UsageError) {
      process.stderr.write(`loopscope: ${e.message.split('\n').join('\nloopscope: ')}\n`);
      process.exit(2);
    }
    throw e;
  }
}

await main();
