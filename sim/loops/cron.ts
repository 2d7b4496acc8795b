import { z } from 'zod';
import type { EventObject } from 'xstate';
import type { CronConfig, CronContext, CronEntry } from '../../machines/cron';
import { cronMachine, formatMinute, parseEntry } from '../../machines/cron';
import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { parseDuration } from '../units';
import type { CronFault, CronWorld, JobRuntime } from '../worlds/cron';
import { createCronWorld, cronWorldModel } from '../worlds/cron';

export const cronBinding: LoopBinding<CronWorld, CronFault, CronConfig> = {
  loop: 'cron',
  machine: cronMachine,
  world: cronWorldModel,
  machineInput: (config) => ({ config }),
  configEvent: (config) => ({ type: 'CONFIG.UPDATE', config }),
  note: (ctx, event) => noteFor(ctx as CronContext, event),
};

const KIND_WORDS: Record<string, string> = {
  small: 'woke late: every missed minute runs',
  medium: 'clock jumped forward (DST starts?): wildcard jobs once, fixed-time jobs for each skipped minute',
  negative: 'clock went back (DST ends?): wildcard jobs only, fixed-time jobs are not repeated',
  large: 'clock jumped more than 3 h: treated as a correction, virtual time reset',
};

function noteFor(ctx: CronContext, event: EventObject): string | undefined {
  if (event.type === 'xstate.done.actor.readClock') {
    if (ctx.timeRunning === null) return undefined;
    const now = formatMinute(ctx.timeRunning);
    const runs = ctx.pending.map((r) => (r.minute === ctx.timeRunning ? r.job : `${r.job}@${formatMinute(r.minute).slice(11)}`)).join(', ');
    if (!ctx.wakeup) return `crond started at ${now}: missed runs are not made up${runs ? `; @reboot: ${runs}` : ''}`;
    const w = ctx.wakeup;
    if (w.kind === 'normal') return runs ? `${now}: due ${runs}` : undefined;
    // While the clock catches up after going back, only wake-ups that start something are told.
    if (w.kind === 'negative' && !runs && w.diff !== 0) return undefined;
    return `${now}: timeDiff ${w.diff > 0 ? '+' : ''}${w.diff} min — ${KIND_WORDS[w.kind]}${runs ? `; run ${runs}` : '; nothing due'}`;
  }
  if (event.type === 'CONFIG.UPDATE') return `crontab reloaded: ${ctx.config.entries.length} entries${ctx.config.flock ? ', flock -n' : ''}`;
  return undefined;
}

const signedDuration = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = String(v).trim();
  const sign = text.startsWith('-') ? -1 : 1;
  const ms = parseDuration(text.replace(/^[+-]/, ''));
  if (ms === null) { ctx.addIssue({ code: 'custom', message: `expected a signed duration like "+1h", "-1h", "3m", got ${JSON.stringify(v)}` }); return z.NEVER; }
  return sign * ms;
});

const entrySchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/, { error: 'expected a job name (lowercase letters, digits, dashes)' }),
  schedule: z.string({ error: 'expected a schedule like "*/5 * * * *", "@daily" or "@reboot"' }),
  runs: durationField.optional(),
  jitter: durationField.optional(),
});

const timelineEntrySchema = z.strictObject({
  at: durationField,
  clockJump: signedDuration.optional(),
  hostDown: durationField.optional(),
  crontab: z.array(entrySchema).optional(),
  flock: z.boolean({ error: 'expected true or false' }).optional(),
}).refine((e) => Object.keys(e).length === 2, { error: 'expected "at" and exactly one change (clockJump, hostDown, crontab or flock)' });

export const cronScenarioSchema = z.strictObject({
  loop: z.literal('cron'),
  name: z.string().optional(),
  description: z.string().optional(),
  seed: z.number().int().min(0, { error: 'expected a whole number ≥ 0' }).optional(),
  duration: durationField.optional(),
  start: z.string().regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/, { error: 'expected a local date and time like "2026-03-29 01:50"' }),
  flock: z.boolean({ error: 'expected true or false' }).optional(),
  crontab: z.array(entrySchema, { error: 'expected a list of crontab entries' }).min(1, { error: 'expected at least one entry' }),
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

export interface CronScenario {
  file: string; name: string; description: string; seed: number; durationMs: number;
  config: CronConfig; world: CronWorld; timeline: TimelineEntry<CronFault, CronConfig>[];
}

function toEntries(file: string, field: string, list: z.output<typeof entrySchema>[]): { entries: CronEntry[]; runtimes: Record<string, JobRuntime> } {
  const names = new Set<string>();
  const runtimes: Record<string, JobRuntime> = {};
  const entries = list.map((e, i) => {
    if (names.has(e.name)) throw new InputError(file, `${field}[${i}].name`, `expected a unique name ("${e.name}" appears twice)`);
    names.add(e.name);
    runtimes[e.name] = { durationMs: e.runs ?? 1000, jitterMs: e.jitter ?? 0 };
    try {
      return parseEntry(e.name, e.schedule);
    } catch (err) {
      throw new InputError(file, `${field}[${i}].schedule`, `expected a cron schedule: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return { entries, runtimes };
}

export function parseCronScenario(file: string, name: string, doc: unknown, seedOverride?: number): CronScenario {
  const parsed = cronScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const { entries, runtimes } = toEntries(file, 'crontab', s.crontab);
  const startWallMs = Date.parse(`${s.start.replace(' ', 'T')}${s.start.length === 16 ? ':00' : ''}Z`);
  if (Number.isNaN(startWallMs)) throw new InputError(file, 'start', `expected a valid date, got "${s.start}"`);
  const timeline = (s.timeline ?? []).map((e, idx): TimelineEntry<CronFault, CronConfig> => {
    if (e.clockJump !== undefined) return { at: e.at, fault: { kind: 'clockJump', byMs: e.clockJump } };
    if (e.hostDown !== undefined) return { at: e.at, fault: { kind: 'hostDown', forMs: e.hostDown } };
    if (e.flock !== undefined) return { at: e.at, config: { flock: e.flock } };
    const next = toEntries(file, `timeline[${idx}].crontab`, e.crontab!);
    Object.assign(runtimes, next.runtimes);
    return { at: e.at, config: { entries: next.entries } };
  });
  const seed = seedOverride ?? s.seed ?? 1;
  return {
    file, name: s.name ?? name, description: s.description ?? '', seed, durationMs: s.duration ?? 3 * 3_600_000,
    config: { entries, flock: s.flock ?? false }, world: createCronWorld(seed, startWallMs, runtimes), timeline,
  };
}
