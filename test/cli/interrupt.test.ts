// Ctrl-C (SIGINT) or SIGTERM during `loopscope check`: the partial report is printed, and what it
// says the exit code is — its result line, the JSON's exitCode, the last line on stderr — is the
// code the process exits with: 130 (cli/run.ts). The CLI runs as a real process; the signal is sent
// once it has printed its first line (no sleeps).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScenarioAsync } from '../../sim/check/check';
import { EXIT, exitCode, summaryLine } from '../../sim/check/outcome';
import { loadScenario } from '../../sim/loops';

const ROOT = resolve(import.meta.dirname, '../..');
// Child processes must not inherit this vitest's worker variables (a nested vitest would read them).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));

interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `loopscope <args>` and sends `signal` once stderr shows `ready` (by default a first whole line). */
function interrupted(signal: NodeJS.Signals, args: string[], ready = (stderr: string) => stderr.includes('\n')): Promise<Interrupted> {
  return new Promise((done, fail) => {
    const child = spawn(join(ROOT, 'cli/loopscope'), args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && ready(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', fail);
    child.on('close', (code, received) => done({ code, signal: received, stdout, stderr }));
  });
}

const checkInterrupted = (signal: NodeJS.Signals, args: string[]) => interrupted(signal, ['check', ...args]);

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
const statedCode = (line: string) => Number(/· exit (\d+)$/.exec(line)?.[1]);

// A scenario made for sim: check says so on stderr at once (cli/check-bounds.ts), then searches
// for seconds (kubernetes, the slowest per state) — the first line comes before the search.
const LONG = ['scenarios/kubernetes-decorator.yaml', '--workers', '1', '--no-progress'];

describe('an interrupted check states the exit code it exits with', () => {
  it('SIGINT: the result line and the last stderr line say 130, the process exits 130', async () => {
    const r = await checkInterrupted('SIGINT', LONG);
    expect(r.signal, r.stderr).toBeNull(); // it exited, not killed by the signal
    expect(r.code, r.stderr).toBe(130);
    expect(lastLine(r.stderr)).toBe('loopscope: check interrupted (SIGINT): the report above is partial · exit 130');
    expect(statedCode(lastLine(r.stderr))).toBe(r.code);
    const result = lastLine(r.stdout);
    expect(result).toMatch(/^result: interrupted before the search was complete/);
    expect(statedCode(result)).toBe(r.code);
    expect(r.stdout).toMatch(/^states: .*\(interrupted: verdicts hold up to it\)$/m);
  }, 180_000);

  it("SIGTERM, JSON: the document's exitCode and the last stderr line say 130, the process exits 130", async () => {
    const r = await checkInterrupted('SIGTERM', [...LONG, '--format', 'json']);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(statedCode(lastLine(r.stderr))).toBe(r.code);
    expect(lastLine(r.stderr)).toContain('(SIGTERM)');
    const report = JSON.parse(r.stdout) as { exitCode: number; runs: { stats: { stopped: string } }[] };
    expect(report.exitCode).toBe(r.code);
    expect(report.runs.map((run) => run.stats.stopped)).toEqual(['interrupted']);
  }, 180_000);
});

describe('an interrupted sim states the exit code it exits with', () => {
  it('SIGTERM during a long run: the timeline so far, and the last stderr line says 130, as the process exits', async () => {
    // The progress line (forced on: stderr is a pipe) shows the run has started its slices.
    const r = await interrupted(
      'SIGTERM',
      ['sim', 'scenarios/bench-200-pods.yaml', '--until', '1000h', '--max-frames', '100000000', '--progress'],
      (stderr) => stderr.includes('virtual'),
    );
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(lastLine(r.stderr)).toMatch(/^loopscope: sim interrupted \(SIGTERM\) at virtual time .* · exit 130$/);
    expect(statedCode(lastLine(r.stderr))).toBe(r.code);
    expect(r.stdout).toMatch(/^# incus-hpa · scenario bench-200-pods/);
  }, 180_000);
});

describe('the exit code of interrupted runs (sim/check/outcome.ts)', () => {
  it('130 once a search was interrupted, whatever it found; the summary line says so', async () => {
    const { entry, scenario } = loadScenario('scenarios/flapping.yaml');
    const stopped = new AbortController();
    stopped.abort();
    // A search given a signal already raised stops after its first slice.
    const run = await checkScenarioAsync(entry, scenario, { signal: stopped.signal, sliceMs: 1 });
    expect(run.result.stats.stopped).toBe('interrupted');
    expect(exitCode([run])).toBe(EXIT.interrupted);
    expect(summaryLine([run])).toMatch(/^result: interrupted before the search was complete .* · exit 130\n$/);
    const complete = await checkScenarioAsync(entry, scenario, { maxStates: 50 });
    expect(exitCode([complete])).toBe(EXIT.unknown);
    expect(exitCode([complete, run])).toBe(EXIT.interrupted);
  }, 60_000);
});
