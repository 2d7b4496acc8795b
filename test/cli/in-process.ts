// Runs the command line in this process (cli/run.ts runCli) with stdout and stderr captured:
// hundreds of cases in seconds, where a process each would cost ~1 s of tsx start-up.
import { runCli } from '../../cli/run';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

let busy = false;

export async function runInProcess(args: string[]): Promise<CliResult> {
  if (busy) throw new Error('runInProcess: one command at a time (stdout/stderr are captured globally)');
  busy = true;
  const out = { stdout: '', stderr: '' };
  const write =
    (key: 'stdout' | 'stderr') =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      out[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      const done = rest.find((r): r is () => void => typeof r === 'function');
      done?.();
      return true;
    };
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = write('stdout') as typeof process.stdout.write;
  process.stderr.write = write('stderr') as typeof process.stderr.write;
  const t0 = performance.now();
  try {
    const code = await runCli(['node', 'loopscope', ...args]);
    return { code, ...out, ms: performance.now() - t0 };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    busy = false;
  }
}
