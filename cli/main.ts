import { reportInternalError } from './internal-error';
import { runCli } from './run';

// `loopscope sim … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); throw e; });

// A bug in a callback (a timer, a file watcher, a socket) reaches no try/catch: one line, exit 1.
const internal = (e: unknown) => { process.stderr.write(`${reportInternalError(e, process.argv)}\n`); process.exit(1); };
process.on('uncaughtException', internal);
process.on('unhandledRejection', internal);

process.exit(await runCli(process.argv));
