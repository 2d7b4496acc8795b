// The programmatic API (api/index.ts, `import … from 'loopscope'`) against the CLI it mirrors: the
// same frames as `sim --json` for the same seed, the same document as `check --format json` (but the
// timings), the same report as `conform --json`, each with the CLI's exit code; bad input throws the
// exported error class with the one line the CLI prints; and the API itself never prints.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CheckResult, Trace } from '../../api/index';
import { check, conform, InputError, loadScenario, simulate, UsageError } from '../../api/index';
import { runInProcess } from '../cli/in-process';
import { HandRun, running } from '../conform/hand-run';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'cli/loopscope');
const SIM_SCENARIO = 'scenarios/flapping.yaml';
const BUGGY = 'examples/podservice/check-buggy.yaml';
const SMALL = 'scenarios/incus-hpa-check-small.yaml';

const dir = mkdtempSync(join(tmpdir(), 'loopscope-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real command line, as a user runs it (through tsx). */
function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(CLI, args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs an API call and fails if it printed anything: on stdout or stderr, directly or through console. */
async function quietly<T>(call: () => Promise<T>): Promise<T> {
  const written: string[] = [];
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write };
  const spy = (chunk: string | Uint8Array): boolean => {
    written.push(String(chunk));
    return true;
  };
  process.stdout.write = spy as typeof process.stdout.write; // a spy in its place: the overloads need not match
  process.stderr.write = spy as typeof process.stderr.write;
  const consoles = CONSOLE_METHODS.map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      written.push(args.map(String).join(' '));
    }),
  );
  try {
    return await call();
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    for (const c of consoles) c.mockRestore();
    expect(written, 'the API printed').toEqual([]);
  }
}
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/** As JSON carries it (undefined fields dropped): what the CLI printed is compared with this. */
function asJson<T>(value: T): T {
  const copy: T = JSON.parse(JSON.stringify(value));
  return copy;
}

/** A check document (the API's, or the CLI's JSON) without what varies from run to run (times, memory). */
function deterministic({ exitCode, runs }: CheckResult): unknown {
  return {
    exitCode,
    runs: runs.map(({ stats, ...run }) => ({
      ...run,
      stats: { generated: stats.generated, distinct: stats.distinct, depth: stats.depth, complete: stats.complete, stopped: stats.stopped },
    })),
  };
}

describe('simulate: what `loopscope sim --json` writes', () => {
  it('the same trace, frame for frame, for the same seed, duration and policy (a fresh seed each run)', async () => {
    const seed = Math.floor(Math.random() * 1_000_000);
    const printed = cli(['sim', SIM_SCENARIO, '--seed', String(seed), '--until', '20m', '--policy', 'kubernetes', '--json']);
    expect(printed.code, printed.stderr).toBe(0);
    const result = await quietly(() => simulate(SIM_SCENARIO, { seed, until: '20m', policy: 'kubernetes' }));
    expect(asJson(result.trace), `seed ${seed}`).toEqual(JSON.parse(printed.stdout));
    expect(result.frames).toBe(result.trace.frames);
    expect(result.exitCode).toBe(0);
    expect(result.summary).toEqual({
      loop: 'incus-hpa',
      scenario: 'flapping',
      seed,
      policy: 'kubernetes',
      frames: result.frames.length,
      untilMs: 20 * 60_000,
      reachedMs: 20 * 60_000,
    });
  });

  it('a handle from loadScenario runs as its file does, with another seed too', async () => {
    const seed = 1 + Math.floor(Math.random() * 1_000_000);
    const scenario = loadScenario(SIM_SCENARIO);
    expect(scenario).toEqual({
      file: SIM_SCENARIO,
      loop: 'incus-hpa',
      name: 'flapping',
      description: expect.stringContaining('Demand swings') as string,
      seed: 3,
      durationMs: 40 * 60_000,
      policies: ['seed', 'kubernetes', 'fixed'],
      policy: 'seed',
    });
    const fromHandle = await quietly(() => simulate(scenario, { seed, until: '10m' }));
    const fromFile = await quietly(() => simulate(SIM_SCENARIO, { seed, until: '10m' }));
    expect(fromHandle.trace, `seed ${seed}`).toEqual(fromFile.trace);
    expect(fromHandle.trace.seed).toBe(seed);
    expect(loadScenario(SIM_SCENARIO, { policy: 'fixed', seed: 4 })).toMatchObject({ seed: 4, policy: 'fixed' });
  });

  it('stops at maxFrames with exit code 3, as --max-frames does (the same frames so far)', async () => {
    const printed = await runInProcess(['sim', SIM_SCENARIO, '--json', '--max-frames', '10']);
    const result = await quietly(() => simulate(SIM_SCENARIO, { maxFrames: 10 }));
    expect([result.exitCode, printed.code]).toEqual([3, 3]);
    expect(result.summary.stopped).toBe('max-frames');
    expect(asJson(result.trace)).toEqual(JSON.parse(printed.stdout));
  });

  it('an aborted signal stops the run with the frames so far, exit code 130 (as Ctrl-C)', async () => {
    const result = await quietly(() => simulate(SIM_SCENARIO, { signal: AbortSignal.abort() }));
    expect(result.exitCode).toBe(130);
    expect(result.summary.stopped).toBe('aborted');
    expect(result.summary.reachedMs).toBeLessThan(result.summary.untilMs);
  });
});

describe('check: what `loopscope check --format json` prints', () => {
  it('the verdicts, exit code and shortest counterexamples of a planted bug', async () => {
    const printed = cli(['check', BUGGY, '--format', 'json', '--workers', '1']);
    expect(printed.code, printed.stderr).toBe(1);
    const result = await quietly(() => check(BUGGY));
    expect(result.exitCode).toBe(1);
    expect(deterministic(asJson(result))).toEqual(deterministic(JSON.parse(printed.stdout)));
    const [run] = result.runs;
    expect(run?.verdicts.find((v) => v.property === 'one-pod')).toMatchObject({ status: 'violated', outcome: 'violated', promised: true });
    const onePod = run?.counterexamples.find((ce) => ce.property === 'one-pod');
    expect(onePod?.steps.filter((s) => s !== 'tick')).toEqual(['stale cache: Pod watch +3s for 5s']);
    expect(onePod?.trace.frames.length).toBe(onePod!.steps.length + 1);
  });

  it('a policy asked for on the handle is the one checked, as --policy', async () => {
    const printed = await runInProcess(['check', SMALL, '--policy', 'kubernetes', '--format', 'json', '--workers', '1']);
    expect(printed.code, printed.stderr).toBe(0);
    const result = await quietly(() => check(loadScenario(SMALL, { policy: 'kubernetes' })));
    expect(result.runs[0]?.policy).toBe('kubernetes');
    expect(deterministic(asJson(result))).toEqual(deterministic(JSON.parse(printed.stdout)));
  });

  it('an aborted signal returns the partial result with exit code 130', async () => {
    const result = await quietly(() => check(SMALL, { signal: AbortSignal.abort() }));
    expect(result.exitCode).toBe(130);
    expect(result.runs[0]?.stats.complete).toBe(false);
  });
});

describe('conform: what `loopscope conform --json` prints', () => {
  /** A real-format run (test/conform/hand-run.ts): fixed policy, min 2, scaled up to two Running pods. */
  const scaleUp = () =>
    new HandRun()
      .at(100)
      .observe([])
      .timer()
      .at(1_100)
      .created('pod-0000000a')
      .at(2_100)
      .created('pod-0000000b')
      .timer()
      .at(3_200)
      .observe([running('pod-0000000a', 500), running('pod-0000000b', 1_500)])
      .timer()
      .trace();

  it.each([
    ['conforms', scaleUp(), 0],
    [
      'diverges (a state the machine is not in)',
      { ...scaleUp(), frames: scaleUp().frames.map((f, i, all) => (i === all.length - 1 ? { ...f, state: 'backoff' } : f)) },
      1,
    ],
  ])('a run that %s: the same report and exit code, from a file and from the parsed object', async (_what, hand, code) => {
    const file = join(dir, `real-${code}.json`);
    writeFileSync(file, JSON.stringify(hand));
    const printed = await runInProcess(['conform', file, '--json']);
    expect(printed.code, printed.stderr).toBe(code);
    const fromFile = await quietly(() => conform(file));
    expect(fromFile.exitCode).toBe(code);
    expect(asJson(fromFile.report)).toEqual(JSON.parse(printed.stdout));
    // The trace as JSON.parse gives it (its frames keep their io records).
    const parsed: Trace = JSON.parse(JSON.stringify(hand));
    const fromObject = await quietly(() => conform(parsed, { name: file }));
    expect(fromObject).toEqual(fromFile);
  });
});

describe('bad input: the exported error, with the one line the CLI prints', () => {
  const notReal = join(dir, 'simulated.json');
  const badLoop = join(dir, 'bad-loop.yaml');
  writeFileSync(badLoop, 'loop: incus\nname: x\n');

  it.each<[string, () => Promise<unknown>, string[], typeof InputError | typeof UsageError]>([
    ['a missing scenario file', () => simulate('no/such/scenario.yaml'), ['sim', 'no/such/scenario.yaml'], InputError],
    ['a directory for a scenario', () => check('scenarios'), ['check', 'scenarios'], InputError],
    ['an unknown loop', () => check(badLoop), ['check', badLoop], InputError],
    ['a duration that is none', () => simulate(SIM_SCENARIO, { until: 'soon' }), ['sim', SIM_SCENARIO, '--until', 'soon'], UsageError],
    ['a seed that is not whole', () => simulate(SIM_SCENARIO, { seed: 1.5 }), ['sim', SIM_SCENARIO, '--seed', '1.5'], UsageError],
    [
      'a policy the loop does not have (sim)',
      () => simulate(SIM_SCENARIO, { policy: 'nope' }),
      ['sim', SIM_SCENARIO, '--policy', 'nope'],
      InputError,
    ],
    ['a policy the loop does not have (check)', () => check(SMALL, { policy: 'nope' }), ['check', SMALL, '--policy', 'nope'], InputError],
    ['no states to explore', () => check(SMALL, { maxStates: 0 }), ['check', SMALL, '--max-states', '0'], UsageError],
    [
      'a simulator trace given to conform',
      async () => {
        writeFileSync(notReal, JSON.stringify((await simulate(SIM_SCENARIO, { until: '1m' })).trace));
        return conform(notReal);
      },
      ['conform', notReal],
      InputError,
    ],
  ])('%s', async (_what, call, args, kind) => {
    const error: unknown = await quietly(() =>
      call().then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(error).toBeInstanceOf(kind);
    if (!(error instanceof Error)) throw new Error(`expected an error, got ${String(error)}`);
    const printed = await runInProcess(args);
    expect(printed.code).toBe(2);
    expect(`loopscope: ${error.message}\n`).toBe(printed.stderr);
  });

  it('loadScenario throws at once, before anything runs', () => {
    expect(() => loadScenario(SIM_SCENARIO, { policy: 'nope' })).toThrow(
      /^--policy: expected one of seed, kubernetes, fixed \(the policies of incus-hpa\), got "nope"$/,
    );
    expect(() => loadScenario(SIM_SCENARIO, { seed: -1 })).toThrow(UsageError);
  });

  it('a scenario handle must come from loadScenario', async () => {
    const forged = { ...loadScenario(SIM_SCENARIO) };
    await expect(simulate(forged)).rejects.toThrow('<scenario>: expected a scenario file path or a Scenario returned by loadScenario()');
  });
});
