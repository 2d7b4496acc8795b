import { describe, expect, it } from 'vitest';
import type { CronJobSpec, CronJobStatus } from '../../machines/cron';
import { cronJobNext, decideCronJob, mostRecentScheduleTime, parseCronJobSchedule, requeueAfter, timeZoneError } from '../../machines/cron';

// Cases from kubernetes pkg/controller/cronjob/utils_test.go (topOfTheHour = 2016-05-19T10:00:00Z, a Thursday).
const TOP = Date.parse('2016-05-19T10:00:00Z');
const MIN = 60_000;
const H = 60 * MIN;
const at = (ms: number) => TOP + ms;
const spec = (schedule: string, over: Partial<CronJobSpec> = {}): CronJobSpec => ({
  name: 'mycronjob',
  entry: parseCronJobSchedule('mycronjob', schedule),
  concurrencyPolicy: 'Allow',
  startingDeadlineSeconds: null,
  suspend: false,
  ...over,
});
const status = (last: number | null): CronJobStatus => ({ lastScheduleTime: last, active: [] });

describe('mostRecentScheduleTime (utils_test.go TestMostRecentScheduleTime)', () => {
  // name, schedule, creation, lastScheduleTime, startingDeadlineSeconds, includeSDS, now → earliest, most recent, missed
  const cases: [string, string, number, number | null, number | null, boolean, number, number, number | null, 'none' | 'few' | 'many'][] = [
    ['now before next schedule', '0 * * * *', TOP, null, null, false, at(30_000), TOP, null, 'none'],
    ['now just after next schedule', '0 * * * *', TOP, null, null, false, at(61 * MIN), TOP, at(60 * MIN), 'none'],
    ['missed 5 schedules', '0 * * * *', at(10_000), null, null, false, at(301 * MIN), at(10_000), at(300 * MIN), 'few'],
    [
      'complex schedule',
      '30 6-16/4 * * 1-5',
      TOP,
      at(30 * MIN),
      null,
      false,
      at(24 * H + 31 * MIN),
      at(30 * MIN),
      at(24 * H + 30 * MIN),
      'few',
    ],
    // Irregular: the estimate (one hour apart, from 10:30 and 11:30) says 20 missed, and the
    // search from 20 − 2 hours after t1 finds nothing up to Friday 16:30 — no Job, though Friday's
    // 10:30, 11:30 and 12:30 were all missed.
    ['another complex schedule', '30 10,11,12 * * 1-5', TOP, at(30 * MIN), null, false, at(30 * H + 30 * MIN), at(30 * MIN), null, 'few'],
    [
      'complex schedule with longer diff between executions',
      '30 6-16/4 * * 1-5',
      TOP,
      at(30 * MIN),
      null,
      false,
      at(96 * H + 31 * MIN),
      at(30 * MIN),
      at(96 * H + 30 * MIN),
      'few',
    ],
    [
      'complex schedule with shorter diff between executions',
      '30 6-16/4 * * 1-5',
      TOP,
      null,
      null,
      false,
      at(24 * H + 31 * MIN),
      TOP,
      at(24 * H + 30 * MIN),
      'few',
    ],
    [
      '@every schedule',
      '@every 1h',
      at(-59 * MIN),
      at(1 * MIN),
      10,
      false,
      at(7 * 24 * H),
      at(1 * MIN),
      at(6 * 24 * H + 23 * H + 1 * MIN),
      'many',
    ],
    ['earliestTime being CreationTimestamp and LastScheduleTime', '0 * * * *', TOP, TOP, null, false, at(30_000), TOP, null, 'none'],
    ['earliestTime being LastScheduleTime', '*/5 * * * *', TOP, at(30 * MIN), null, false, at(31 * MIN), at(30 * MIN), null, 'none'],
    [
      'earliestTime being LastScheduleTime (within StartingDeadlineSeconds)',
      '*/5 * * * *',
      TOP,
      at(30 * MIN),
      60,
      false,
      at(31 * MIN),
      at(30 * MIN),
      null,
      'none',
    ],
    [
      'earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)',
      '*/5 * * * *',
      TOP,
      at(30 * MIN),
      60,
      true,
      at(32 * MIN),
      at(31 * MIN),
      null,
      'none',
    ],
  ];
  it.each(cases)('%s', (_name, schedule, created, last, sds, includeSDS, now, earliest, recent, missed) => {
    const m = mostRecentScheduleTime(spec(schedule, { startingDeadlineSeconds: sds }), status(last), created, now, includeSDS);
    expect(m.error).toBeUndefined();
    expect(m.earliest).toBe(earliest);
    expect(m.scheduled).toBe(recent);
    expect(m.missed).toBe(missed);
  });

  it('rogue cronjob: "59 23 31 2 *" never comes — an error, no time', () => {
    const m = mostRecentScheduleTime(spec('59 23 31 2 *'), status(null), at(10_000), at(H), false);
    expect(m.error).toBe('time difference between two schedules is less than 1 second');
    expect(m.scheduled).toBeNull();
  });
});

describe('nextScheduleTimeDuration (utils_test.go TestNextScheduleTimeDuration)', () => {
  it.each([
    ['complex schedule skipping weekend', '30 6-16/4 * * 1-5', at(30 * MIN), at(24 * H + 31 * MIN), 3 * H + 59 * MIN + 100],
    ['another complex schedule skipping weekend', '30 10,11,12 * * 1-5', at(30 * MIN), at(30 * H + 30 * MIN), 66 * H + 100],
    ['once a week cronjob, missed two runs', '0 12 * * 4', at(2 * H), at(19 * 24 * H + H + 30 * MIN), 48 * H + 30 * MIN + 100],
    ['no previous run of a cronjob', '0 12 * * 5', null, at(6 * H), 20 * H + 100],
  ] as const)('%s', (_name, schedule, last, now, expected) => {
    expect(requeueAfter(spec(schedule), status(last), TOP, now)).toBe(expected);
  });
});

describe('nextScheduleTime through syncCronJob (utils_test.go TestNextScheduleTime)', () => {
  const hourly = spec('0 * * * ?');
  const T1 = TOP;
  const T2 = at(H);
  it('case 1: no known start times, and none needed yet', () => {
    expect(decideCronJob(hourly, status(null), T1 - 10 * MIN, T1 - 7 * MIN)).toMatchObject({
      action: 'none',
      reason: 'no unmet start time',
    });
  });
  it('case 2: no known start times, and one needed', () => {
    expect(decideCronJob(hourly, status(null), T1 - 10 * MIN, T1 + 2000)).toMatchObject({ action: 'create', scheduled: T1 });
  });
  it('case 3: known LastScheduleTime, no start needed', () => {
    expect(decideCronJob(hourly, status(T1), T1 - 10 * MIN, T1 + 2 * MIN)).toMatchObject({ action: 'none', reason: 'no unmet start time' });
  });
  it('case 4: known LastScheduleTime, a start needed', () => {
    expect(decideCronJob(hourly, status(T1), T1 - 10 * MIN, T2 + 5 * MIN)).toMatchObject({ action: 'create', scheduled: T2 });
  });
  it('case 5: known LastScheduleTime, two starts needed — only the most recent', () => {
    expect(decideCronJob(hourly, status(T1 - H), T1 - 2 * H, T2 + 5 * MIN)).toMatchObject({ action: 'create', scheduled: T2 });
  });
  it('case 6: now is way way ahead of last start time, and there is no deadline', () => {
    const d = decideCronJob(hourly, status(T1 - H), T1 - 2 * H, T2 + 10 * 24 * H);
    expect(d.action).toBe('create');
    expect(d.warning).toContain('TooManyMissedTimes');
  });
  it('case 7: now is way way ahead of last start time, but there is a short deadline', () => {
    expect(decideCronJob({ ...hourly, startingDeadlineSeconds: 2 * 3600 }, status(T1 - H), T1 - 2 * H, T2 + 10 * 24 * H).action).toBe(
      'create',
    );
  });
  it('case 8: the error from mostRecentScheduleTime gets populated up (InvalidSchedule)', () => {
    const d = decideCronJob(spec('59 23 31 2 *'), status(null), T1 + 10_000, T2);
    expect(d).toMatchObject({ action: 'none', reason: 'InvalidSchedule' });
    expect(d.warning).toContain('InvalidSchedule');
  });
});

describe('schedules the controller reads with robfig/cron v3', () => {
  it('@every: ConstantDelaySchedule — the last time rounded down to the second, plus the delay (at least 1 s)', () => {
    expect(cronJobNext(spec('@every 90m'), TOP + 1500)).toBe(TOP + 1000 + 90 * MIN);
    expect(cronJobNext(spec('@every 1h30m'), TOP)).toBe(TOP + 90 * MIN);
    expect(cronJobNext(spec('@every 300ms'), TOP)).toBe(TOP + 1000);
    expect(() => parseCronJobSchedule('x', '@every soon')).toThrow(/failed to parse duration/);
  });

  it("timeZone: the fields are read on the zone's wall clock", () => {
    // 2016-05-19 10:00 UTC is 12:00 in Paris (CEST): "0 12 * * *" in Europe/Paris is due at 10:00 UTC.
    expect(cronJobNext(spec('0 12 * * *', { timeZone: 'Europe/Paris' }), TOP - MIN)).toBe(TOP);
    expect(cronJobNext(spec('0 12 * * *'), TOP - MIN)).toBe(TOP + 2 * H);
  });

  it('timeZone and DST: a skipped local time never comes that day; a repeated one comes twice', () => {
    // Europe/Paris: 2026-03-29 02:00 → 03:00 (01:00 UTC), 2026-10-25 03:00 → 02:00 (01:00 UTC).
    const s = spec('30 2 * * *', { timeZone: 'Europe/Paris' });
    expect(new Date(cronJobNext(s, Date.parse('2026-03-28T12:00:00Z'))!).toISOString()).toBe('2026-03-30T00:30:00.000Z');
    const first = cronJobNext(s, Date.parse('2026-10-24T12:00:00Z'))!;
    expect(new Date(first).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(cronJobNext(s, first)!).toISOString()).toBe('2026-10-25T01:30:00.000Z');
  });

  it('timeZone validation (batch validation validateTimeZone)', () => {
    expect(timeZoneError('Europe/Paris')).toBeNull();
    expect(timeZoneError('UTC')).toBeNull();
    expect(timeZoneError('Europe/Pariss')).toBe('unknown time zone Europe/Pariss');
    expect(timeZoneError('europe/paris')).toBe('unknown time zone europe/paris');
    expect(timeZoneError('')).toBe('timeZone must be nil or non-empty string');
    expect(timeZoneError('Local')).toContain('explicit time zone');
    expect(timeZoneError('../etc/passwd')).toContain('unknown time zone');
  });
});
