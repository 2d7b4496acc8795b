import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CronConfig, CronJobFields } from '../../machines/cron';
import { cronJobMatches, cronJobNext, decideCronJob, mostRecentScheduleTime, parseCronJobSchedule, parseEntry } from '../../machines/cron';
import { cronBinding } from '../../sim/loops/cron';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { CronFault, CronWorld } from '../../sim/worlds/cron';
import { createCronWorld } from '../../sim/worlds/cron';
import { propertyRuns } from '../property-runs';

/**
 * Properties of the CronJob controller's arithmetic (Kubernetes 1.35 utils.go), of spec.timeZone
 * and @every (robfig/cron v3), and of cronie's RANDOM_DELAY, over generated schedules and runs.
 */
type Move = TimelineEntry<CronFault, CronConfig>;
const MIN = 60_000;
const NUM_RUNS = propertyRuns(100);
/** The Runner-based ones simulate a day or more minute by minute: fewer runs, more time. */
const SIM_RUNS = propertyRuns(12);
const SIM_TIMEOUT = 240_000;
const START = Date.parse('2026-03-27T00:00:00Z');
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Adelaide', 'UTC', 'Asia/Kathmandu'];
const fields = (over: Partial<CronJobFields> = {}): CronJobFields => ({
  concurrencyPolicy: 'Allow',
  startingDeadlineSeconds: null,
  suspend: false,
  timeZone: null,
  ...over,
});

function run(config: CronConfig, startMs: number, untilMs: number, timeline: Move[] = [], seed = 1): CronWorld {
  const runtimes = Object.fromEntries(config.entries.map((e) => [e.name, { durationMs: 1000, jitterMs: 0 }]));
  const r = new Runner(cronBinding, {
    scenario: 'p',
    seed,
    world: createCronWorld(seed, startMs, runtimes),
    config,
    timeline,
    recordFrames: false,
  });
  r.run(untilMs);
  return r.world;
}

describe('mostRecentScheduleTime: the estimate never invents a time', () => {
  const scheduleArb = fc.oneof(
    fc
      .record({
        m: fc.integer({ min: 0, max: 59 }),
        hours: fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 4 }),
        weekdays: fc.boolean(),
      })
      .map((s) => `${s.m} ${[...s.hours].sort((a, b) => a - b).join(',')} * * ${s.weekdays ? '1-5' : '*'}`),
    fc.constantFrom('*/5 * * * *', '0 * * * *', '30 6-16/4 * * 1-5', '0 12 * * 4', '15 3 1 * *'),
  );
  const caseArb = fc.record({
    schedule: scheduleArb,
    lastMin: fc.integer({ min: 0, max: 14 * 1440 }),
    gapMin: fc.integer({ min: 0, max: 10 * 1440 }),
  });

  it('the time found is a scheduled time, after lastScheduleTime, not after now, and no scheduled time lies between it and now', () => {
    fc.assert(
      fc.property(caseArb, ({ schedule, lastMin, gapMin }) => {
        const spec = {
          name: 'j',
          entry: parseCronJobSchedule('j', schedule),
          concurrencyPolicy: 'Allow' as const,
          startingDeadlineSeconds: null,
          suspend: false,
        };
        const last = START + lastMin * MIN;
        const now = last + gapMin * MIN + 30_000;
        const m = mostRecentScheduleTime(spec, { lastScheduleTime: last, active: [] }, START, now);
        if (m.scheduled === null) return;
        expect(cronJobMatches(spec, m.scheduled / MIN)).toBe(true);
        expect(m.scheduled).toBeGreaterThan(last);
        expect(m.scheduled).toBeLessThanOrEqual(now);
        const next = cronJobNext(spec, m.scheduled);
        expect(next === null || next > now).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('for a regular schedule (constant interval) it finds exactly the most recent time, and "many" means more than 100 missed', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 5, 10, 15, 30), fc.integer({ min: 0, max: 3 * 1440 }), (step, gapMin) => {
        const spec = {
          name: 'j',
          entry: parseEntry('j', `*/${step} * * * *`),
          concurrencyPolicy: 'Allow' as const,
          startingDeadlineSeconds: null,
          suspend: false,
        };
        const last = START;
        const now = last + gapMin * MIN + 20_000;
        const m = mostRecentScheduleTime(spec, { lastScheduleTime: last, active: [] }, START, now);
        const exactCount = Math.floor(gapMin / step);
        expect(m.scheduled).toBe(exactCount === 0 ? null : last + exactCount * step * MIN);
        if (exactCount >= 2) expect(m.missed).toBe(exactCount > 100 ? 'many' : 'few');
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('decideCronJob creates a Job only for a scheduled time not yet processed', () => {
    fc.assert(
      fc.property(caseArb, fc.option(fc.integer({ min: 10, max: 7200 }), { nil: null }), ({ schedule, lastMin, gapMin }, sds) => {
        const spec = {
          name: 'j',
          entry: parseCronJobSchedule('j', schedule),
          concurrencyPolicy: 'Allow' as const,
          startingDeadlineSeconds: sds,
          suspend: false,
        };
        const last = START + lastMin * MIN;
        const now = last + gapMin * MIN + 30_000;
        const d = decideCronJob(spec, { lastScheduleTime: last, active: [] }, START, now);
        if (d.action !== 'create') return;
        expect(cronJobMatches(spec, d.scheduled / MIN)).toBe(true);
        expect(d.scheduled).toBeGreaterThan(last);
        if (sds !== null) expect(d.scheduled + sds * 1000).toBeGreaterThanOrEqual(now);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('spec.timeZone', () => {
  // Start days: any day, or the eve of a DST change of one of the zones (2026: EU 29 Mar / 25 Oct,
  // US 8 Mar / 1 Nov, Adelaide 5 Apr / 4 Oct).
  const DST_EVES = ['2026-03-28', '2026-10-24', '2026-03-07', '2026-10-31', '2026-04-04', '2026-10-03'].map((d) =>
    Date.parse(`${d}T12:00:00Z`),
  );
  const startArb = fc.oneof(
    fc.integer({ min: 0, max: 240 * 1440 }).map((m) => START + m * MIN),
    fc.constantFrom(...DST_EVES),
  );
  const caseArb = fc.record({
    zone: fc.constantFrom(...ZONES),
    minute: fc.integer({ min: 0, max: 59 }),
    hour: fc.integer({ min: 0, max: 23 }),
    start: startArb,
  });

  it(
    'with a steady controller, a daily CronJob gets exactly one Job per zone-local scheduled minute (DST: none or two) and each Job is at one',
    () => {
      fc.assert(
        fc.property(caseArb, ({ zone, minute, hour, start }) => {
          const entry = parseCronJobSchedule('daily', `${minute} ${hour} * * *`);
          const config: CronConfig = {
            entries: [entry],
            flock: false,
            mode: 'kubernetes',
            cronJobs: { daily: fields({ timeZone: zone }) },
          };
          const world = run(config, start, 1440 * MIN);
          const jobs = world.ran.map((r) => r.minute);
          const expected: number[] = [];
          for (let m = start / MIN + 1; m <= start / MIN + 1440; m++) if (cronJobMatches({ entry, timeZone: zone }, m)) expected.push(m);
          expect(jobs).toEqual(expected);
          const local = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
          for (const m of jobs)
            expect(local.format(new Date(m * MIN))).toBe(`${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
        }),
        { numRuns: SIM_RUNS },
      );
    },
    SIM_TIMEOUT,
  );
});

describe('@every', () => {
  it(
    'times are counted from creation: each Job comes one period after the previous, the first one period after creation',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 180 }), fc.integer({ min: 0, max: 59 }), (periodMin, offset) => {
          const config: CronConfig = {
            entries: [parseCronJobSchedule('e', `@every ${periodMin}m`)],
            flock: false,
            mode: 'kubernetes',
            cronJobs: { e: fields() },
          };
          const start = START + offset * MIN;
          const world = run(config, start, 6 * 60 * MIN);
          const jobs = world.ran.map((r) => r.minute * MIN);
          expect(jobs.length).toBe(Math.floor((6 * 60) / periodMin));
          jobs.forEach((t, i) => expect(t).toBe(start + (i + 1) * periodMin * MIN));
        }),
        { numRuns: SIM_RUNS },
      );
    },
    SIM_TIMEOUT,
  );

  it(
    'after an outage: of the times it missed only the most recent one gets a Job, on the chain, and none twice',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 2, max: 120 }),
          fc.integer({ min: 1, max: 200 }),
          fc.integer({ min: 1, max: 200 }),
          (periodMin, atMin, forMin) => {
            const config: CronConfig = {
              entries: [parseCronJobSchedule('e', `@every ${periodMin}m`)],
              flock: false,
              mode: 'kubernetes',
              cronJobs: { e: fields() },
            };
            const world = run(config, START, 7 * 60 * MIN, [
              { at: atMin * MIN + 30_000, fault: { kind: 'controllerDown', forMs: forMin * MIN } },
            ]);
            const mins = world.ran.map((r) => r.minute - START / MIN);
            expect(new Set(mins).size).toBe(mins.length);
            for (const m of mins) expect(m % periodMin).toBe(0);
            // Down from atMin:30 to (atMin + forMin):30: the missed chain times are atMin+1 … atMin+forMin.
            const missed = [];
            for (let m = atMin + 1; m <= atMin + forMin; m++) if (m % periodMin === 0) missed.push(m);
            expect(mins.filter((m) => m > atMin && m <= atMin + forMin)).toEqual(missed.slice(-1));
          },
        ),
        { numRuns: SIM_RUNS },
      );
    },
    SIM_TIMEOUT,
  );
});

describe('cronie RANDOM_DELAY', () => {
  const caseArb = fc.record({
    delay: fc.integer({ min: 0, max: 29 }),
    seed: fc.integer({ min: 1, max: 10_000 }),
    downAtMin: fc.integer({ min: 30, max: 400 }),
  });

  // RANDOM_DELAY below the jobs' smallest gap (30 min), so a run's lateness is read unambiguously.
  it(
    'every run of every job is the same whole number of minutes (≤ RANDOM_DELAY) after a scheduled minute, per boot; deterministic per seed',
    () => {
      fc.assert(
        fc.property(caseArb, ({ delay, seed, downAtMin }) => {
          const entries = [parseEntry('hourly', '0 * * * *'), parseEntry('q', '20,50 * * * *')].map((e) => ({
            ...e,
            randomDelayMin: delay,
          }));
          const config: CronConfig = { entries, flock: false };
          const timeline: Move[] = [{ at: downAtMin * MIN, fault: { kind: 'hostDown', forMs: 5 * MIN } }];
          const world = run(config, START, 8 * 60 * MIN, timeline, seed);
          const boundary = START / MIN + downAtMin + 5;
          for (const boot of [world.ran.filter((r) => r.minute < boundary), world.ran.filter((r) => r.minute >= boundary)]) {
            const lateness = new Set(
              boot.map((r) => {
                const e = entries.find((x) => x.name === r.job)!;
                let late = 0;
                while (!cronJobMatches({ entry: e, timeZone: null }, r.minute - late)) late++;
                return late;
              }),
            );
            expect(lateness.size).toBeLessThanOrEqual(1);
            for (const l of lateness) expect(l).toBeLessThanOrEqual(delay);
          }
          expect(run(config, START, 8 * 60 * MIN, timeline, seed).ran).toEqual(world.ran);
        }),
        { numRuns: SIM_RUNS },
      );
    },
    SIM_TIMEOUT,
  );
});
