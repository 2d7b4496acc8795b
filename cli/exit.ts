/** Ends the command with a message on stderr and an exit code (2 bad input, 1 the environment). */
export class ExitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ExitError';
  }
}
