// A bug must not look like bad input, and must not dump a stack trace on an operator: one line
// says it is an internal error and where the details (stack, argv, versions) were written.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shorten } from '../sim/scenario/input-error';

/** Writes the details to a file under the OS temp dir; returns the one line to print. */
export function reportInternalError(error: unknown, argv: readonly string[]): string {
  const file = join(tmpdir(), `loopscope-internal-error-${process.pid}-${Date.now()}.txt`);
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const cause =
    error instanceof Error && error.cause !== undefined
      ? `\ncause: ${error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : String(error.cause)}`
      : '';
  const message = error instanceof Error ? error.message : String(error);
  let where = file;
  try {
    writeFileSync(file, `loopscope internal error\nargv: ${JSON.stringify(argv.slice(2))}\nnode: ${process.version}\n\n${stack}${cause}\n`);
  } catch {
    where = '(could not write the details file)';
  }
  return `loopscope: internal error (a bug, not your input): ${shorten(message.split('\n')[0] ?? '', 160)} — details in ${where}`;
}
