// `loopscope lab …` as a process, for the tests that open what it serves in chromium: the one line it
// prints is the URL; its exit code is awaited after a signal.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface LabProcess {
  child: ChildProcess;
  url: Promise<string>;
  exit: Promise<number | null>;
}

/** Runs `launcher… lab args… --port 0` in `cwd` (the files named relative to it). */
export function startLabProcess(
  launcher: readonly string[],
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): LabProcess {
  const [command, ...first] = launcher;
  if (command === undefined) throw new Error('an empty launcher');
  const child = spawn(command, [...first, 'lab', ...args, '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exit = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const url = new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const m = /^lab: (http:\/\/127\.0\.0\.1:\d+\/\S*)$/.exec(line);
      if (m) ok(m[1]!);
      else fail(new Error(`expected "lab: <URL>", got ${JSON.stringify(line)}`));
    });
    void exit.then((code) => fail(new Error(`loopscope lab ended (exit ${code}) before printing its URL: ${stderr}`)));
  });
  return { child, url, exit };
}
