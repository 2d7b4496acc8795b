import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import type { SystemdFault } from '../../sim/worlds/systemd-restart';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { loadScenario, parseScenarioText, runnerFor } from '../../sim/loops';
import { InputError } from '../../sim/scenario/errors';
import { parseTraceText } from '../../sim/trace-schema';
import { checkFile, movesAt, verdictOf, verdictsOf } from '../check/check-run';

const START_LIMIT = 'scenarios/systemd-restart-check-start-limit.yaml';
const RESTART_SEC = 'scenarios/systemd-restart-check-restart-sec.yaml';
const SAFETY = [
  'start-limit-respected',
  'manual-stop-never-restarts',
  'failed-needs-operator',
  'restart-delay-respected',
  'oneshot-never-running',
  'stop-within-timeout',
];
const SAFETY_HOLD = Object.fromEntries(SAFETY.map((name) => [name, 'holds']));

const check = (file: string) => checkFile(file);
const verdicts = verdictsOf;
const verdict = verdictOf;
const moves = movesAt;

describe(`loopscope check ${START_LIMIT}`, () => {
  const run = check(START_LIMIT);

  // 7407 before the hold-off commands followed service.c: `systemctl start` in the auto-restart hold-off is now the restart itself
  // (service_start's shortcut, tested against the start limit twice), `systemctl restart` there
  // cancels and starts, and the key holds the hurry-up flag and the stop-sigterm monitor.
  it('explores the whole bounded space: 8084 distinct states', () => {
    expect(run.result.stats).toMatchObject({ complete: true, distinct: 8084, depth: 67 });
    expect(run.alphabet.map((m) => m.label)).toEqual([
      'deploy: then dies of SIGSEGV after 0.2s',
      'systemctl restart',
      'deploy: then exits 0 after 3600s',
      'systemctl reset-failed',
      'systemctl start',
    ]);
  });

  it('every verdict; the default start limit does not promise never-gives-up', () => {
    expect(verdicts(run)).toEqual({ ...SAFETY_HOLD, 'restarts-automatically': 'holds', 'never-gives-up': 'violated' });
    expect(run.promises).toEqual(SAFETY);
    expect(moves(run, verdict(run, 'restarts-automatically').path)).toEqual(['1: deploy: then dies of SIGSEGV after 0.2s']);
    expect(verdict(run, 'restarts-automatically').path).toHaveLength(6);
  });

  it('never-gives-up: the crashing build deployed before the first start, then nothing (1 step) — failed, start-limit-hit, for good', () => {
    const v = verdict(run, 'never-gives-up');
    expect(v.path).toEqual([{ kind: 'env', index: 0 }]);
    expect(v.settleMs).toBe(Infinity);
    const trace = run.counterexamples.find((c) => c.property === 'never-gives-up')!.trace;
    expect(trace.frames.filter((f) => f.note?.startsWith('Started app.service')).length).toBe(5);
    expect(trace.frames.some((f) => f.note?.includes('Start request repeated too quickly'))).toBe(true);
    const last = trace.frames.at(-1)!;
    expect([last.t, last.state]).toEqual([1500, 'failed']);
    expect(last.note).toMatch(/Failed with result 'start-limit-hit'.*✗ never-gives-up/);
  });

  it('the counterexample is a Runner trace the lab loads (its trace schema accepts it)', () => {
    expect(run.counterexamples.map((c) => c.property)).toEqual(['never-gives-up']);
    const parsed = parseTraceText(JSON.stringify(run.counterexamples[0]!.trace));
    expect(parsed.ok ? parsed.trace.loop : parsed.error).toBe('systemd-restart');
  });

  it('`loopscope check --out` writes it; findings on unpromised claims exit 0', () => {
    const out = mkdtempSync(join(tmpdir(), 'loopscope-systemd-check-'));
    const stdout = execFileSync('./cli/loopscope', ['check', START_LIMIT, '--out', out], { encoding: 'utf8' });
    expect(stdout).toMatch(/✗ eventually never-gives-up/);
    const parsed = parseTraceText(readFileSync(join(out, 'systemd-restart-check-start-limit.never-gives-up.trace.json'), 'utf8'));
    expect(parsed.ok ? parsed.trace.frames.at(-1)!.state : parsed.error).toBe('failed');
  }, 60_000);
});

describe(`loopscope check ${RESTART_SEC}`, () => {
  const run = check(RESTART_SEC);

  // 8252 with RestartSec=3s before the hold-off commands followed service.c (see the start-limit scenario for why counts changed).
  it('explores the whole bounded space: 6311 distinct states', () => {
    expect(run.result.stats).toMatchObject({ complete: true, distinct: 6311, depth: 45 });
    expect(run.alphabet.map((m) => m.label)).toEqual([
      'deploy: then exits 0 after 3600s',
      'systemctl kill --signal=SIGKILL',
      'systemctl stop',
      'systemctl reset-failed',
      'systemctl start',
    ]);
  });

  it('RestartSec=4s promises never-gives-up, and every claim holds: no counterexample', () => {
    expect(run.promises).toEqual([...SAFETY, 'never-gives-up']);
    expect(verdicts(run)).toEqual({ ...SAFETY_HOLD, 'restarts-automatically': 'holds', 'never-gives-up': 'holds' });
    expect(verdict(run, 'never-gives-up').settleMs).toBe(0);
    expect(verdict(run, 'restarts-automatically').path).toHaveLength(5);
    expect(run.counterexamples).toEqual([]);
  });

  it('a second operator start uses the burst up: with `systemctl restart` added (and no kill), never-gives-up is refuted', () => {
    const { entry, scenario } = loadScenario(RESTART_SEC);
    const timeline = [
      ...scenario.timeline.filter(
        (e) =>
          !(
            'fault' in e &&
            (e.fault as SystemdFault).kind === 'systemctl' &&
            (e.fault as Extract<SystemdFault, { kind: 'systemctl' }>).request.verb === 'kill'
          ),
      ),
      { at: 0, fault: { kind: 'systemctl', request: { verb: 'restart' } } },
    ];
    const more = checkScenario(entry, { ...scenario, timeline });
    expect(more.result.stats).toMatchObject({ complete: true, distinct: 8547 });
    const v = verdict(more, 'never-gives-up');
    expect(v.status).toBe('violated');
    expect(v.path).toHaveLength(10);
    expect(moves(more, v.path)).toEqual(['5: systemctl start', '9: systemctl restart']);
    for (const name of SAFETY) expect(verdict(more, name).status).toBe('holds');
  });

  // service_start() in AUTO_RESTART: the client's start job is tested against the start limit, then
  // the restart job it re-enqueues is tested again (service_test_startable skips only the start
  // states): one `systemctl start` in the hold-off costs two. With RestartSec=3s, 1 + 3 + 2 > 5.
  it('RestartSec=3s: a single `systemctl start` during the hold-off uses the burst up', () => {
    const { entry, scenario } = loadScenario(RESTART_SEC);
    const { unit } = scenario.config as SystemdConfig;
    const three = checkScenario(entry, { ...scenario, config: { unit: { ...unit, restartSecMs: 3000 } } });
    expect(three.result.stats).toMatchObject({ complete: true, distinct: 7970 });
    const v = verdict(three, 'never-gives-up');
    expect(v.status).toBe('violated');
    expect(moves(three, v.path)).toEqual(['5: systemctl start']);
    const trace = three.counterexamples.find((c) => c.property === 'never-gives-up')!.trace;
    expect(trace.frames.filter((f) => f.note?.includes('Scheduled restart job immediately on client request'))).toHaveLength(1);
    expect(trace.frames.at(-1)!.state).toBe('failed');
    for (const name of SAFETY) expect(verdict(three, name).status).toBe('holds');
  });
});

const TIMEOUT = 'scenarios/systemd-restart-check-timeout.yaml';
describe(`loopscope check ${TIMEOUT}`, () => {
  const run = check(TIMEOUT);

  it('explores the whole bounded space: a oneshot that hangs and catches SIGTERM', () => {
    expect(run.result.stats).toMatchObject({ complete: true, distinct: 2112, depth: 43 });
    expect(run.alphabet.map((m) => m.label)).toEqual([
      'deploy: then exits 0 after 2s',
      'systemctl stop',
      'systemctl start',
      'systemctl reset-failed',
    ]);
  });

  it('stop-within-timeout and oneshot-never-running hold in every state; never-gives-up holds although unpromised', () => {
    expect(run.promises).toEqual(SAFETY);
    expect(verdicts(run)).toEqual({ ...SAFETY_HOLD, 'restarts-automatically': 'holds', 'never-gives-up': 'holds' });
    expect(run.counterexamples).toEqual([]);
  });

  it('the same scenario as a sim: start timeout at 5 s, SIGKILL at 8 s (TimeoutStopSec=3s), result timeout, restart at 10 s', () => {
    const { runner } = runnerFor(TIMEOUT);
    runner.run(10_000);
    const at = (t: number, text: string) => runner.frames.some((f) => f.t === t && f.note?.includes(text));
    expect(at(5000, 'start operation timed out. Terminating.')).toBe(true);
    expect(at(5000, 'caught the signal and keeps running')).toBe(true);
    expect(at(8000, "State 'stop-sigterm' timed out. Killing.")).toBe(true);
    expect(at(8000, "result 'timeout'; Restart=on-failure: restart in 2s")).toBe(true);
    expect(runner.frames.filter((f) => f.note?.startsWith('Started job.service')).map((f) => f.t)).toEqual([0, 10_000]);
  });
});

describe('bad check scenarios are rejected with the file, the field and what is expected', () => {
  const HEAD = 'loop: systemd-restart\nunit: { Restart: on-failure }\n';
  const rejects = (yaml: string, field: string, expected: RegExp) => {
    const { entry, scenario } = parseScenarioText('bad.yaml', 'bad', yaml);
    let error: unknown;
    try {
      checkScenario(entry, scenario);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    expect((error as InputError).message).toMatch(/^bad\.yaml: /);
    expect((error as InputError).expected).toMatch(expected);
  };

  it('random run times (jitter), in the program or in a deploy', () => {
    rejects(`${HEAD}program: { then: { runFor: 1s, exit: 1 }, jitter: 500ms }\n`, 'program.jitter', /expected 0 for check/);
    rejects(
      `${HEAD}program: { then: { runFor: 1s, exit: 1 } }\ntimeline:\n  - { at: 1s, program: { then: { runFor: 1s, exit: 0 }, jitter: 1s } }\n`,
      'timeline[0].program.jitter',
      /expected 0 for check/,
    );
  });

  it('unit edits (the claims are judged against one unit file)', () => {
    rejects(
      `${HEAD}program: { then: { runFor: 1s, exit: 1 } }\ntimeline:\n  - { at: 1s, systemctl: stop }\n  - { at: 2s, unit: { RestartSec: 5s } }\n`,
      'timeline[1].unit',
      /expected no unit edits for check/,
    );
  });

  it('random restart delays (RestartRandomizedDelaySec=)', () => {
    rejects(
      'loop: systemd-restart\nunit: { Restart: on-failure, RestartRandomizedDelaySec: 2s }\nprogram: { then: { runFor: 1s, exit: 1 } }\n',
      'unit.RestartRandomizedDelaySec',
      /expected 0 for check/,
    );
  });

  it('more than 8 moves', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `  - { at: ${i + 1}s, systemctl: start }`).join('\n');
    rejects(
      `${HEAD}program: { then: { runFor: 1s, exit: 1 } }\ntimeline:\n${nine}\n`,
      'timeline',
      /expected at most 8 entries for check.*got 9/,
    );
  });

  it('the CLI exits 2 and names file and field', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'loopscope-systemd-bad-')), 'jitter.yaml');
    writeFileSync(file, `${HEAD}program: { then: { runFor: 1s, exit: 1 }, jitter: 500ms }\n`);
    let status = 0;
    let stderr = '';
    try {
      execFileSync('./cli/loopscope', ['check', file], { stdio: 'pipe' });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = String((e as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toContain(`${file}: program.jitter: expected 0 for check`);
  }, 60_000);
});
