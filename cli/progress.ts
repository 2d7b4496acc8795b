/**
 * Progress of a long run on stderr (stdout stays the result): on a terminal one line rewritten in
 * place, otherwise (--progress into a file or pipe) a line every few seconds. At most twice a second.
 */
export class Progress {
  private last = 0;
  private shown = false;
  private readonly began = performance.now();
  private readonly tty = process.stderr.isTTY === true;

  constructor(
    private readonly what: string,
    private readonly enabled: boolean,
  ) {}

  update(text: string): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < (this.tty ? 500 : 5_000)) return;
    this.last = now;
    const line = `loopscope ${this.what}: ${text} · ${((now - this.began) / 1000).toFixed(0)} s`;
    process.stderr.write(this.tty ? `\r\x1b[K${line}` : `${line}\n`);
    this.shown = true;
  }

  done(): void {
    if (this.shown && this.tty) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
