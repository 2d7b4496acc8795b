import { z } from 'zod';
import type { EventObject } from 'xstate';
import type { CronConfig, CronContext, CronEntry, CronJobFields } from '../../machines/cron';
import { cronMachine, entryDelayMin, formatMinute, parseCronJobSchedule, parseEntry, timeZoneError } from '../../machines/cron';
import type { LoopBinding } from '../model';
import type { CronWorldSummary } from './cron-world-schema';
import type { CronController } from './cron-controller-schema';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { headerOf, headerShape } from '../scenario/header';
import { parseDuration } from '../units';
import type { CronFault, CronWorld, JobRuntime } from '../worlds/cron';
import { createCronWorld, cronWorldModel } from '../worlds/cron';
import { cronController } from './cron-controller';
import type { CronNote } from '../notes/cron';
import { cronNote } from '../notes/cron';

export const cronBinding: LoopBinding<CronWorld, CronFault, CronConfig, CronController, typeof cronMachine, CronWorldSummary> = {
  loop: 'cron',
  machine: cronMachine,
  world: cronWorldModel,
  machineInput: (config) => ({ config }),
  configEvent: (config) => ({ type: 'CONFIG.UPDATE', config }),
  note: (ctx, event) => noteFor(ctx, event),
  controller: (ctx, world, t) => cronController(ctx, world, t),
};

/** Mode kubernetes: the controller's decisions and events (kubectl describe cronjob). */
function kubernetesNote(ctx: CronContext): CronNote | undefined {
  if (ctx.timeRunning === null) return undefined;
  const created = ctx.pending.map((r) => ({ job: `${r.job}-${r.minute}`, for: formatMinute(r.minute).slice(11) }));
  if (!created.length && !ctx.k8s.events.length) return undefined;
  return cronNote('cron.cronJobSync', { at: formatMinute(ctx.timeRunning), created, events: ctx.k8s.events });
}

function noteFor(ctx: CronContext, event: EventObject): CronNote | undefined {
  if (event.type === 'xstate.done.actor.readClock' && ctx.config.mode === 'kubernetes') return kubernetesNote(ctx);
  if (event.type === 'xstate.done.actor.readClock' && ctx.config.mode === 'anacron') {
    const lines = ctx.k8s.events.flatMap((e) => (e.kind === 'anacron' ? [e.line] : []));
    return ctx.timeRunning !== null && lines.length ? cronNote('cron.anacron', { at: formatMinute(ctx.timeRunning), lines }) : undefined;
  }
  if (event.type === 'xstate.done.actor.readClock') {
    if (ctx.timeRunning === null) return undefined;
    const at = formatMinute(ctx.timeRunning);
    const runs = ctx.pending.map((r) => (r.minute === ctx.timeRunning ? r.job : `${r.job}@${formatMinute(r.minute).slice(11)}`)).join(', ');
    // cron.c logs RandomScale at start; a crontab with RANDOM_DELAY gets each entry's delay from it.
    const delayed = ctx.config.entries.filter((e) => e.randomDelayMin);
    const randomDelay = delayed.length
      ? `RANDOM_DELAY will be scaled with factor ${Math.trunc(ctx.randomScale * 100)}% (${delayed.map((e) => `${e.name} +${entryDelayMin(e, ctx.randomScale)} min`).join(', ')})`
      : '';
    if (!ctx.wakeup) return cronNote('cron.started', { at, reboot: runs, randomDelay });
    const w = ctx.wakeup;
    if (w.kind === 'normal') return runs ? cronNote('cron.due', { at, runs }) : undefined;
    // While the clock catches up after going back, only wake-ups that start something are told.
    if (w.kind === 'negative' && !runs && w.diff !== 0) return undefined;
    return cronNote('cron.wokeUp', { at, diff: w.diff, kind: w.kind, runs });
  }
  if (event.type === 'CONFIG.UPDATE')
    return cronNote('cron.crontabReloaded', { entries: ctx.config.entries.length, flock: ctx.config.flock === true });
  return undefined;
}

const signedDuration = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = String(v).trim();
  const sign = text.startsWith('-') ? -1 : 1;
  const ms = parseDuration(text.replace(/^[+-]/, ''));
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: `expected a signed duration like "+1h", "-1h", "3m", got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return sign * ms;
});

const entrySchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/, { error: 'expected a job name (lowercase letters, digits, dashes)' }),
  schedule: z.string({ error: 'expected a schedule like "*/5 * * * *", "@daily" or "@reboot"' }),
  runs: durationField.optional(),
  jitter: durationField.optional(),
  // mode: kubernetes — batch/v1 CronJobSpec fields.
  concurrencyPolicy: z.enum(['Allow', 'Forbid', 'Replace'], { error: 'expected Allow, Forbid or Replace' }).optional(),
  startingDeadlineSeconds: z.number().int().min(0, { error: 'expected whole seconds ≥ 0' }).optional(),
  suspend: z.boolean({ error: 'expected true or false' }).optional(),
  timeZone: z.string({ error: 'expected an IANA time zone name like "Europe/Paris"' }).optional(),
});

const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    clockJump: signedDuration.optional(),
    hostDown: durationField.optional(),
    controllerDown: durationField.optional(),
    // A job that runs longer than usual: its current run (if any) ends `by` later.
    overrun: z.strictObject({ job: z.string(), by: durationField }).optional(),
    crontab: z.array(entrySchema).optional(),
    flock: z.boolean({ error: 'expected true or false' }).optional(),
  })
  .refine((e) => Object.keys(e).length === 2, {
    error: 'expected "at" and exactly one change (clockJump, hostDown, controllerDown, overrun, crontab or flock)',
  });

const cronScenarioSchema = z.strictObject({
  ...headerShape('cron'),
  start: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/, { error: 'expected a local date and time like "2026-03-29 01:50"' }),
  flock: z.boolean({ error: 'expected true or false' }).optional(),
  // cronie: the crontab variable RANDOM_DELAY (crontab(5)), in minutes, for every entry of the crontab.
  RANDOM_DELAY: z.number().int({ error: 'expected whole minutes ≥ 0' }).min(0, { error: 'expected whole minutes ≥ 0' }).optional(),
  mode: z.enum(['cronie', 'kubernetes', 'anacron'], { error: 'expected cronie, kubernetes or anacron' }).optional(),
  crontab: z
    .array(entrySchema, { error: 'expected a list of crontab entries' })
    .min(1, { error: 'expected at least one entry' })
    .optional(),
  // mode: anacron — anacrontab(5) lines and its variables.
  anacrontab: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[A-Za-z0-9_.-]+$/, { error: 'expected a job identifier like cron.daily' }),
        period: z.union([
          z.number().int().min(1, { error: 'expected a whole number of days ≥ 1' }),
          z.enum(['@daily', '@weekly', '@monthly'], { error: 'expected days, @daily, @weekly or @monthly' }),
        ]),
        delay: z.number().int().min(0, { error: 'expected whole minutes ≥ 0' }),
        runs: durationField.optional(),
        jitter: durationField.optional(),
      }),
      { error: 'expected a list of anacrontab jobs' },
    )
    .min(1, { error: 'expected at least one job' })
    .optional(),
  anacron: z
    .strictObject({
      RANDOM_DELAY: z.number().int().min(0, { error: 'expected whole minutes ≥ 0' }).optional(),
      START_HOURS_RANGE: z
        .string()
        .regex(/^\d{1,2}-\d{1,2}$/, { error: 'expected hours like "3-22"' })
        .optional(),
    })
    .optional(),
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

export interface CronScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: CronConfig;
  world: CronWorld;
  timeline: TimelineEntry<CronFault, CronConfig>[];
}

/**
 * A CronJob's schedule as the API server validates it (pkg/apis/batch/validation
 * validateScheduleFormat on create: no TZ / CRON_TZ; cron.ParseStandard: five fields, a nickname
 * or "@every <Go duration>"; '?' as '*') and its timeZone (validateTimeZone).
 */
function cronJobEntry(file: string, field: string, name: string, schedule: string, timeZone: string | undefined): CronEntry {
  if (schedule.includes('TZ'))
    throw new InputError(
      file,
      `${field}.schedule`,
      `expected no TZ or CRON_TZ in a CronJob schedule ("cannot use TZ or CRON_TZ in schedule, use timeZone field instead"), got "${schedule}"`,
    );
  if (timeZone !== undefined) {
    const err = timeZoneError(timeZone);
    if (err) throw new InputError(file, `${field}.timeZone`, `expected an IANA time zone name like "Europe/Paris" (${err})`);
  }
  try {
    return parseCronJobSchedule(name, schedule);
  } catch (err) {
    throw new InputError(
      file,
      `${field}.schedule`,
      `expected a schedule a CronJob accepts: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function toEntries(
  file: string,
  field: string,
  list: z.output<typeof entrySchema>[],
  kubernetes = false,
  randomDelayMin?: number,
): { entries: CronEntry[]; runtimes: Record<string, JobRuntime>; cronJobs: Record<string, CronJobFields> } {
  const names = new Set<string>();
  const runtimes: Record<string, JobRuntime> = {};
  const cronJobs: Record<string, CronJobFields> = {};
  const entries = list.map((e, i) => {
    const k8sField = (['concurrencyPolicy', 'startingDeadlineSeconds', 'suspend', 'timeZone'] as const).find((k) => e[k] !== undefined);
    if (k8sField && !kubernetes) throw new InputError(file, `${field}[${i}].${k8sField}`, 'expected only with mode: kubernetes');
    if (kubernetes)
      cronJobs[e.name] = {
        concurrencyPolicy: e.concurrencyPolicy ?? 'Allow',
        startingDeadlineSeconds: e.startingDeadlineSeconds ?? null,
        suspend: e.suspend ?? false,
        timeZone: e.timeZone ?? null,
      };
    if (names.has(e.name)) throw new InputError(file, `${field}[${i}].name`, `expected a unique name ("${e.name}" appears twice)`);
    names.add(e.name);
    runtimes[e.name] = { durationMs: e.runs ?? 1000, jitterMs: e.jitter ?? 0 };
    if (kubernetes) return cronJobEntry(file, `${field}[${i}]`, e.name, e.schedule, e.timeZone);
    if (e.schedule.trim().startsWith('@every'))
      throw new InputError(
        file,
        `${field}[${i}].schedule`,
        'expected a cronie schedule: cronie has no @every (robfig/cron has it, a CronJob accepts it with mode: kubernetes)',
      );
    try {
      const entry = parseEntry(e.name, e.schedule);
      return randomDelayMin ? { ...entry, randomDelayMin } : entry;
    } catch (err) {
      throw new InputError(
        file,
        `${field}[${i}].schedule`,
        `expected a cron schedule: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  });
  return { entries, runtimes, cronJobs };
}

export function parseCronScenario(file: string, name: string, doc: unknown, seedOverride?: number): CronScenario {
  const parsed = cronScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const header = headerOf(file, name, s, seedOverride, 3 * 3_600_000);
  const { seed } = header;
  const kubernetes = s.mode === 'kubernetes';
  if (s.mode === 'anacron' && !s.anacrontab)
    throw new InputError(file, 'anacrontab', 'expected a list of anacrontab jobs with mode: anacron');
  if (s.mode !== 'anacron' && !s.crontab) throw new InputError(file, 'crontab', 'expected a list of crontab entries');
  if (s.mode !== 'anacron' && (s.anacrontab || s.anacron))
    throw new InputError(file, s.anacrontab ? 'anacrontab' : 'anacron', 'expected only with mode: anacron');
  if (s.RANDOM_DELAY !== undefined && (s.mode ?? 'cronie') !== 'cronie')
    throw new InputError(file, 'RANDOM_DELAY', 'expected only with mode: cronie (anacron has anacron.RANDOM_DELAY)');
  const { entries, runtimes, cronJobs } = toEntries(file, 'crontab', s.crontab ?? [], kubernetes, s.RANDOM_DELAY);
  const NAMED: Record<string, number | '@monthly'> = { '@daily': 1, '@weekly': 7, '@monthly': '@monthly' };
  const anacrontab = (s.anacrontab ?? []).map((j) => {
    runtimes[j.name] = { durationMs: j.runs ?? 1000, jitterMs: j.jitter ?? 0 };
    return { id: j.name, period: typeof j.period === 'number' ? j.period : NAMED[j.period]!, delayMin: j.delay };
  });
  const range = s.anacron?.START_HOURS_RANGE?.split('-').map(Number) as [number, number] | undefined; // cast: the schema's pattern admits only N-M
  if (range && !(range[0] < range[1] && range[1] <= 24))
    throw new InputError(file, 'anacron.START_HOURS_RANGE', 'expected from-to hours with from < to ≤ 24');
  const anacronSettings = { randomDelayMin: s.anacron?.RANDOM_DELAY ?? 45, startHoursRange: range ?? ([3, 22] as [number, number]) }; // cast: types the literal as a pair, asserts nothing
  const startWallMs = Date.parse(`${s.start.replace(' ', 'T')}${s.start.length === 16 ? ':00' : ''}Z`);
  if (Number.isNaN(startWallMs)) throw new InputError(file, 'start', `expected a valid date, got "${s.start}"`);
  const timeline = (s.timeline ?? []).map((e, idx): TimelineEntry<CronFault, CronConfig> => {
    if (e.clockJump !== undefined) return { at: e.at, fault: { kind: 'clockJump', byMs: e.clockJump } };
    if (e.hostDown !== undefined) return { at: e.at, fault: { kind: 'hostDown', forMs: e.hostDown } };
    if (e.controllerDown !== undefined) {
      if (!kubernetes) throw new InputError(file, `timeline[${idx}].controllerDown`, 'expected only with mode: kubernetes (use hostDown)');
      return { at: e.at, fault: { kind: 'controllerDown', forMs: e.controllerDown } };
    }
    if (e.overrun !== undefined) {
      if (!runtimes[e.overrun.job])
        throw new InputError(
          file,
          `timeline[${idx}].overrun.job`,
          `expected a job of the crontab (${Object.keys(runtimes).join(', ')}), got "${e.overrun.job}"`,
        );
      return { at: e.at, fault: { kind: 'overrun', job: e.overrun.job, byMs: e.overrun.by } };
    }
    if (e.flock !== undefined) return { at: e.at, config: { flock: e.flock } };
    const next = toEntries(file, `timeline[${idx}].crontab`, e.crontab!, kubernetes, s.RANDOM_DELAY);
    Object.assign(runtimes, next.runtimes);
    return { at: e.at, config: kubernetes ? { entries: next.entries, cronJobs: next.cronJobs } : { entries: next.entries } };
  });
  return {
    ...header,
    config: {
      entries,
      flock: s.flock ?? false,
      ...(kubernetes ? { mode: 'kubernetes' as const, cronJobs } : {}),
      ...(s.mode === 'anacron' ? { mode: 'anacron' as const, anacrontab, anacron: anacronSettings } : {}),
    },
    world: createCronWorld(seed, startWallMs, runtimes),
    timeline,
  };
}
