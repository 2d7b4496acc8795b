import { describe, expect, it } from 'vitest';
import type { CronJobSpec } from '../../machines/cron';
import {
  CRONIE_ANACRONTAB,
  anacronDue,
  dayOf,
  decideCronJob,
  inStartHours,
  jobName,
  mostRecentScheduleTime,
  parseEntry,
  requeueAfter,
} from '../../machines/cron';

const T = (iso: string) => Date.parse(`${iso}Z`);
const spec = (over: Partial<CronJobSpec> = {}): CronJobSpec => ({
  name: 'report',
  entry: parseEntry('report', '*/10 * * * *'),
  concurrencyPolicy: 'Allow',
  startingDeadlineSeconds: null,
  suspend: false,
  ...over,
});
const created = T('2026-05-01T00:00:00');

// pkg/controller/cronjob/utils.go mostRecentScheduleTime and cronjob_controllerv2.go syncCronJob.
describe('Kubernetes CronJob controller (v2)', () => {
  it('only the most recent missed time is started, with the estimate of missed ones', () => {
    const d = decideCronJob(spec(), { lastScheduleTime: T('2026-05-01T10:00:00'), active: [] }, created, T('2026-05-01T10:45:30'));
    expect(d).toMatchObject({ action: 'create', scheduled: T('2026-05-01T10:40:00'), missed: 'few', estimate: 4 });
    expect(jobName(spec(), T('2026-05-01T10:40:00'))).toBe(`report-${T('2026-05-01T10:40:00') / 60_000}`);
  });
  it('more than 100 missed start times: a TooManyMissedTimes warning, and it still starts (v2)', () => {
    const d = decideCronJob(spec(), { lastScheduleTime: T('2026-05-01T00:00:00'), active: [] }, created, T('2026-05-02T00:05:00'));
    expect(d.action).toBe('create');
    expect(d.warning).toContain('TooManyMissedTimes');
    expect(
      mostRecentScheduleTime(spec(), { lastScheduleTime: T('2026-05-01T00:00:00'), active: [] }, created, T('2026-05-02T00:05:00')),
    ).toMatchObject({ missed: 'many', estimate: 144 });
  });
  it('startingDeadlineSeconds bounds how far back it looks: older missed times are dropped', () => {
    const s = spec({ startingDeadlineSeconds: 200 });
    const status = { lastScheduleTime: T('2026-05-01T00:00:00'), active: [] };
    expect(mostRecentScheduleTime(s, status, created, T('2026-05-02T00:05:00')).missed).toBe('none');
    expect(decideCronJob(s, status, created, T('2026-05-02T00:05:00'))).toMatchObject({ action: 'none', reason: 'no unmet start time' });
    expect(decideCronJob(s, status, created, T('2026-05-02T00:02:00'))).toMatchObject({
      action: 'create',
      scheduled: T('2026-05-02T00:00:00'),
    });
    // 00:10 was missed by more than 60 s: the look-back (now − 60 s) already excludes it, so the
    // controller's own tooLate check (MissSchedule) has nothing left to catch — the run is silently gone.
    expect(
      decideCronJob(
        spec({ startingDeadlineSeconds: 60 }),
        { lastScheduleTime: T('2026-05-02T00:00:00'), active: [] },
        created,
        T('2026-05-02T00:12:00'),
      ),
    ).toMatchObject({ action: 'none', reason: 'no unmet start time' });
  });
  it.each([
    // policy, active jobs → decision
    ['Allow', ['report-1'], 'create', []],
    ['Forbid', ['report-1'], 'skip', undefined],
    ['Replace', ['report-1'], 'create', ['report-1']],
    ['Forbid', [], 'create', []],
  ] as const)('concurrencyPolicy %s with active %j → %s', (policy, active, action, deleted) => {
    const d = decideCronJob(
      spec({ concurrencyPolicy: policy }),
      { lastScheduleTime: T('2026-05-01T10:00:00'), active: [...active] },
      created,
      T('2026-05-01T10:10:05'),
    );
    expect(d.action).toBe(action);
    if (d.action === 'create') expect(d.deleteActive).toEqual(deleted);
    if (d.action === 'skip') expect(d.reason).toBe('JobAlreadyActive');
  });
  it('a time already processed is not started twice; suspend starts nothing', () => {
    expect(
      decideCronJob(spec(), { lastScheduleTime: T('2026-05-01T10:10:00'), active: [] }, created, T('2026-05-01T10:15:00')),
    ).toMatchObject({ action: 'none', reason: 'no unmet start time' });
    expect(decideCronJob(spec({ suspend: true }), { lastScheduleTime: null, active: [] }, created, T('2026-05-01T10:15:00'))).toMatchObject(
      { action: 'none', reason: 'suspended' },
    );
  });
  it('requeues at the next schedule time + 100 ms (nextScheduleDelta)', () => {
    expect(requeueAfter(spec(), { lastScheduleTime: T('2026-05-01T10:10:00'), active: [] }, created, T('2026-05-01T10:12:00'))).toBe(
      8 * 60_000 + 100,
    );
  });
});

// anacron(8) / cronie anacron/main.c consider_job; cronie's anacrontab defaults.
describe('anacron', () => {
  const today = dayOf(T('2026-05-10T08:00:00'));
  it.each([
    // period, last run (days ago; null = never) → due
    [1, null, true],
    [1, 0, false],
    [1, 1, true],
    [7, 6, false],
    [7, 7, true],
    [7, 30, true],
    [7, -2, true], // timestamp in the future: clock skew, re-run
  ] as const)('period %s, last run %s days ago → due %s', (period, ago, due) => {
    expect(anacronDue({ id: 'j', period, delayMin: 5 }, ago === null ? null : today - ago, today)).toBe(due);
  });
  it('@monthly: once per calendar month', () => {
    const job = { id: 'm', period: '@monthly' as const, delayMin: 45 };
    expect(anacronDue(job, dayOf(T('2026-05-01T00:00:00')), today)).toBe(false);
    expect(anacronDue(job, dayOf(T('2026-04-30T00:00:00')), today)).toBe(true);
  });
  it('cronie defaults RANDOM_DELAY=45, START_HOURS_RANGE=3-22', () => {
    expect(CRONIE_ANACRONTAB).toEqual({ randomDelayMin: 45, startHoursRange: [3, 22] });
    expect([2, 3, 21, 22].map((h) => inStartHours(CRONIE_ANACRONTAB, T(`2026-05-10T${String(h).padStart(2, '0')}:30:00`)))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('cron loop, mode kubernetes (scenarios/cron-kubernetes.yaml)', async () => {
  const { runnerFor } = await import('../../sim/loops');
  const run = () => {
    const { runner, scenario } = runnerFor('scenarios/cron-kubernetes.yaml');
    runner.run(scenario.durationMs);
    return runner.world as import('../../sim/worlds/cron').CronWorld;
  };
  it('Forbid and Replace never overlap; Allow does', () => {
    const w = run();
    expect(w.counts.report!.maxConcurrent).toBe(1);
    expect(w.counts.sync!.maxConcurrent).toBe(1);
    expect(w.counts.export!.maxConcurrent).toBe(2);
  });
  it('after the controller outage each CronJob starts once, for its most recent missed time', () => {
    const w = run();
    const back = Date.parse('2026-05-01T04:03:00Z') / 60_000;
    const after = w.ran.filter((r) => r.minute >= Date.parse('2026-05-01T01:50:00Z') / 60_000 && r.minute <= back);
    expect(after.map((r) => r.job).sort()).toEqual(['backup', 'export', 'report', 'sync']);
    expect(new Set(after.map((r) => r.minute))).toEqual(new Set([Date.parse('2026-05-01T04:00:00Z') / 60_000]));
  });
  it('crontab options of the kubernetes mode are refused in cronie mode, naming the field', async () => {
    const { parseCronScenario } = await import('../../sim/loops/cron');
    expect(() =>
      parseCronScenario('c.yaml', 'c', {
        loop: 'cron',
        start: '2026-05-01 00:00',
        crontab: [{ name: 'a', schedule: '* * * * *', concurrencyPolicy: 'Forbid' }],
      }),
    ).toThrow('c.yaml: crontab[0].concurrencyPolicy: expected only with mode: kubernetes');
  });
});

describe('cron loop, mode anacron (scenarios/cron-anacron.yaml)', async () => {
  const { runnerFor } = await import('../../sim/loops');
  const { parseCronScenario } = await import('../../sim/loops/cron');
  type World = import('../../sim/worlds/cron').CronWorld;
  const run = (until?: number) => {
    const { runner, scenario } = runnerFor('scenarios/cron-anacron.yaml');
    runner.run(until ?? scenario.durationMs);
    return runner.world as World;
  };
  const day = (iso: string) => dayOf(T(`${iso}T12:00:00`));
  it('each job at most once per period — a killed run gets no timestamp and runs again after boot', () => {
    const w = run();
    expect(w.ran.filter((r) => r.job === 'cron.weekly')).toHaveLength(2); // 07:30 (killed at 08:20), 17:20 (completed)
    expect(w.stamps['cron.weekly']).toBe(day('2026-05-04'));
    expect(w.stamps['cron.monthly']).toBe(day('2026-05-04'));
    expect(w.stamps['cron.daily']).toBe(day('2026-05-07'));
    // daily: 05-04 (twice: one killed), 05-05, 05-06, 05-07 — never twice on a day once it completed
    expect(w.ran.filter((r) => r.job === 'cron.daily')).toHaveLength(5);
  });
  it('nothing starts outside START_HOURS_RANGE (3-22)', () => {
    const w = run();
    for (const r of w.history) expect(new Date(T('2026-05-04T07:30:00') + r.startedAt).getUTCHours()).toBeGreaterThanOrEqual(3);
  });
  it('runs jobs one after another (anacron -s)', () => {
    const w = run(60 * 60_000 * 10);
    const firstBoot = w.history.filter((r) => r.startedAt > 9 * 3_600_000);
    for (let i = 1; i < firstBoot.length; i++) expect(firstBoot[i]!.startedAt).toBeGreaterThanOrEqual(firstBoot[i - 1]!.endsAt);
  });
  it('bad input names the field', () => {
    expect(() => parseCronScenario('a.yaml', 'a', { loop: 'cron', mode: 'anacron', start: '2026-05-01 00:00' })).toThrow(
      'a.yaml: anacrontab: expected a list of anacrontab jobs with mode: anacron',
    );
    expect(() =>
      parseCronScenario('a.yaml', 'a', {
        loop: 'cron',
        mode: 'anacron',
        start: '2026-05-01 00:00',
        anacrontab: [{ name: 'x', period: '@hourly', delay: 1 }],
      }),
    ).toThrow('anacrontab[0].period');
  });
});
