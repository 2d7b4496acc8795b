import { reportInternalError } from './internal-error';
import { runCli } from './run';

// `loopscope sim … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// A bug in a callback (a timer, a file watcher, a socket) reaches no try/catch: one line, exit 1.
const internal = (e: unknown) => {
  process.stderr.write(`${reportInternalError(e, process.argv)}\n`);
  process.exit(1);
};
process.on('uncaughtException', internal);
process.on('unhandledRejection', internal);

const code = await runCli(process.argv);
// process.exit() does not wait for a pipe: flush what was written (a long timeline, a trace) first.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((done) => {
    stream.write('', () => done());
  });
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
