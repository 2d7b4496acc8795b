import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';
import { parseTrace, parseTraceText } from '../../sim/trace-schema';
import { checkFile, envMoves, verdictOf, verdictsOf } from '../check/check-run';

/**
 * `loopscope check` on the cron check scenarios: complete searches, pinned state counts, every
 * verdict, and each shortest counterexample (its length and the environment moves on it, by
 * position). A change in the loop's semantics, its monitor or its canonical key changes these.
 */
const run = checkFile;
const verdicts = verdictsOf;
/** A verdict's path: its length and the environment's moves on it as [position in the path, label]. */
const moves = (r: CheckRun, name: string) => {
  const { path } = verdictOf(r, name);
  return { length: path?.length, moves: envMoves(r, path).map((m) => [m.at, m.label]) };
};

interface Pinned {
  distinct: number;
  verdicts: Record<string, string>;
  promises: string[];
  /** Shortest counterexamples (and witnesses): path length and moves. */
  paths: Record<string, { length: number; moves: (string | number)[][] }>;
}

const PINNED: Record<string, Pinned> = {
  'scenarios/cron-check-dst-end.yaml': {
    distinct: 20703,
    verdicts: {
      'fixed-no-repeat': 'holds',
      'fixed-no-skip': 'holds',
      'wildcard-no-repeat': 'violated',
      'wildcard-no-skip': 'holds',
      'clock-went-back': 'holds',
      'back-in-step': 'holds',
    },
    promises: ['fixed-no-repeat', 'fixed-no-skip', 'back-in-step'],
    // 02:15 runs hourly; the clock goes back an hour (here at 02:30); 02:15 again: hourly runs again.
    paths: {
      'wildcard-no-repeat': { length: 199, moves: [[61, 'clock −1h']] },
      'clock-went-back': { length: 5, moves: [[3, 'clock −1h']] },
    },
  },
  'scenarios/cron-check-dst-start.yaml': {
    distinct: 10567,
    verdicts: {
      'fixed-no-repeat': 'holds',
      'fixed-no-skip': 'holds',
      'wildcard-no-repeat': 'holds',
      'wildcard-no-skip': 'violated',
      'catches-up': 'holds',
      'back-in-step': 'holds',
    },
    promises: ['fixed-no-repeat', 'fixed-no-skip', 'back-in-step'],
    // 01:51 → 02:51: backup's 02:30 is caught up (catches-up); hourly's 02:15 is gone.
    paths: { 'wildcard-no-skip': { length: 8, moves: [[3, 'clock +1h']] }, 'catches-up': { length: 5, moves: [[3, 'clock +1h']] } },
  },
  'scenarios/cron-check-clock-back-twice.yaml': {
    distinct: 35518,
    verdicts: {
      'fixed-no-repeat': 'violated',
      'fixed-no-skip': 'holds',
      'wildcard-no-repeat': 'holds',
      'wildcard-no-skip': 'holds',
      'clock-went-back': 'holds',
      'back-in-step': 'holds',
    },
    promises: ['fixed-no-repeat', 'fixed-no-skip', 'back-in-step'],
    // backup runs at 02:30; −1h then at once −2h5m: timeDiff −184 < −180 is taken as a correction,
    // virtual time is reset to 23:30, and at 02:30 (3 h later) backup runs again.
    paths: {
      'fixed-no-repeat': {
        length: 572,
        moves: [
          [27, 'clock −1h'],
          [28, 'clock −2h5m'],
        ],
      },
      'clock-went-back': { length: 5, moves: [[3, 'clock −1h']] },
    },
  },
  'scenarios/cron-check-cronjob-forbid.yaml': {
    distinct: 756,
    verdicts: { 'one-job-per-time': 'holds', 'every-time-started': 'violated', 'no-overlap': 'holds' },
    promises: ['one-job-per-time', 'no-overlap'],
    // The 00:10 Job overruns to 00:24: at 00:20 Forbid skips (JobAlreadyActive).
    paths: { 'every-time-started': { length: 65, moves: [[42, 'report overruns 10m']] } },
  },
  'scenarios/cron-check-cronjob-outage.yaml': {
    distinct: 1785,
    verdicts: { 'one-job-per-time': 'holds', 'every-time-started': 'violated' },
    promises: ['one-job-per-time', 'no-overlap'],
    // Down 00:50–01:10: backup's 01:00 is 600 s old > startingDeadlineSeconds 300 (MissSchedule).
    paths: { 'every-time-started': { length: 8, moves: [[2, 'controller down 20m']] } },
  },
};

describe('cron check scenarios', () => {
  it('every shipped cron-check-* scenario is pinned here', () => {
    expect(
      readdirSync('scenarios')
        .filter((f) => f.startsWith('cron-check-'))
        .map((f) => `scenarios/${f}`)
        .sort(),
    ).toEqual(Object.keys(PINNED).sort());
  });

  for (const [file, pinned] of Object.entries(PINNED)) {
    describe(file, () => {
      const r = run(file);
      it('searches the whole bounded space', () => {
        expect(r.result.stats.complete).toBe(true);
        expect(r.result.stats.distinct).toBe(pinned.distinct);
      });
      it('gives the pinned verdicts and promises', () => {
        expect(verdicts(r)).toEqual(pinned.verdicts);
        expect([...r.promises]).toEqual(pinned.promises);
      });
      it('finds the pinned shortest paths', () => {
        for (const [name, path] of Object.entries(pinned.paths)) expect(moves(r, name), name).toEqual(path);
      });
      it('writes each counterexample as a trace the lab loads, its last frame marking the broken claim', () => {
        const violated = r.result.verdicts
          .filter((v) => v.status === 'violated' && v.property.kind !== 'sometimes')
          .map((v) => v.property.name);
        expect(r.counterexamples.map((c) => c.property)).toEqual(violated);
        for (const c of r.counterexamples) {
          const parsed = parseTrace(JSON.parse(JSON.stringify(c.trace)));
          expect(parsed.ok, parsed.ok ? '' : parsed.error).toBe(true);
          expect(c.trace.frames.at(-1)!.note).toContain(`✗ ${c.property}`);
        }
      });
    });
  }

  it('a depth bound gives unknown, not holds', () => {
    const bounded = run('scenarios/cron-check-cronjob-forbid.yaml', { maxDepth: 20 });
    expect(bounded.result.stats.complete).toBe(false);
    expect(verdicts(bounded)['one-job-per-time']).toBe('unknown');
  });

  it('loopscope check --out writes the counterexample trace, and the lab loader reads it', () => {
    const out = mkdtempSync(join(tmpdir(), 'cron-check-'));
    const code = (() => {
      try {
        execFileSync('./cli/loopscope', ['check', 'scenarios/cron-check-cronjob-forbid.yaml', '--out', out], { stdio: 'pipe' });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    })();
    expect(code).toBe(0); // the violated claim is not promised: a finding, not a failure
    const files = readdirSync(out).filter((f) => f.endsWith('.trace.json'));
    expect(files).toEqual(['cron-check-cronjob-forbid.every-time-started.trace.json']);
    const parsed = parseTraceText(readFileSync(join(out, files[0]!), 'utf8'));
    expect(parsed.ok).toBe(true);
  }, 60_000);
});

describe('bad cron check scenarios are rejected, naming file, field and expectation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cron-bad-'));
  const base = 'loop: cron\nstart: "2026-03-29 01:50"\n';
  const cases: [string, string, RegExp][] = [
    [
      'jitter',
      `${base}crontab:\n  - { name: a, schedule: "30 2 * * *", jitter: 1m }\n`,
      /jitter\.yaml: crontab\[0\]\.jitter: expected no jitter/,
    ],
    [
      'weekly',
      `${base}crontab:\n  - { name: a, schedule: "30 2 * * MON" }\n`,
      /weekly\.yaml: crontab\[0\]\.schedule: expected a schedule that repeats every day/,
    ],
    [
      'edit',
      `${base}crontab:\n  - { name: a, schedule: "30 2 * * *" }\ntimeline:\n  - { at: 1m, flock: true }\n`,
      /edit\.yaml: timeline\[0\]: expected only clockJump, hostDown, controllerDown or overrun/,
    ],
    [
      'many',
      `${base}crontab:\n  - { name: a, schedule: "30 2 * * *" }\ntimeline:\n${'  - { at: 1m, clockJump: +1m }\n'.repeat(7)}`,
      /many\.yaml: timeline: expected at most 6 entries for check/,
    ],
    [
      'back',
      `${base}crontab:\n  - { name: a, schedule: "30 2 * * *" }\ntimeline:\n  - { at: 1m, clockJump: -7h }\n  - { at: 1m, clockJump: -6h }\n`,
      /back\.yaml: timeline: expected backward clock jumps of at most 12h in all/,
    ],
    [
      'anacron',
      'loop: cron\nmode: anacron\nstart: "2026-03-29 01:50"\nanacrontab:\n  - { name: cron.daily, period: 1, delay: 5 }\n',
      /anacron\.yaml: mode: expected cronie or kubernetes for check/,
    ],
    [
      'suspended',
      'loop: cron\nmode: kubernetes\nstart: "2026-03-29 01:50"\ncrontab:\n  - { name: a, schedule: "*/5 * * * *", suspend: true }\n',
      /suspended\.yaml: crontab\[0\]\.suspend: expected no suspended CronJob/,
    ],
  ];
  for (const [name, yaml, error] of cases) {
    it(name, () => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, yaml);
      expect(() => run(file)).toThrow(error);
    });
  }

  it('an overrun of a job that is not in the crontab is bad input', () => {
    const file = join(dir, 'overrun.yaml');
    writeFileSync(
      file,
      `${base}crontab:\n  - { name: a, schedule: "30 2 * * *" }\ntimeline:\n  - { at: 1m, overrun: { job: b, by: 5m } }\n`,
    );
    expect(() => loadScenario(file)).toThrow(/overrun\.yaml: timeline\[0\]\.overrun\.job: expected a job of the crontab \(a\), got "b"/);
  });
});
