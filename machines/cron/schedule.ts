import { CronPattern } from 'croner';

/** One crontab line as crond holds it (cronie src/entry.c): bit sets plus the *_STAR flags. */
export interface CronEntry {
  name: string;
  /** The schedule as written, e.g. "*\/5 * * * *", "@daily", "@reboot". */
  schedule: string;
  reboot: boolean;
  minute: boolean[];
  hour: boolean[];
  dom: boolean[];
  month: boolean[];
  dow: boolean[];
  /** MIN_STAR | HR_STAR: a "wildcard" job for the clock-jump rules (cron.c find_jobs). */
  wildcard: boolean;
  domStar: boolean;
  dowStar: boolean;
  /** CronJob only: "@every <duration>" (robfig/cron's ConstantDelaySchedule), in ms; cronie has no @every. */
  everyMs?: number;
  /** cronie: the crontab's RANDOM_DELAY (minutes) in effect for this entry. */
  randomDelayMin?: number;
}

// cronie's nicknames (entry.c); @reboot runs once when crond starts after boot.
const NICKNAMES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Parses a five-field schedule (fields by croner); throws with croner's message on bad input. */
export function parseEntry(name: string, schedule: string): CronEntry {
  const text = schedule.trim();
  if (text === '@reboot') {
    const none = (n: number) => Array<boolean>(n).fill(false);
    return {
      name,
      schedule: text,
      reboot: true,
      minute: none(60),
      hour: none(24),
      dom: none(31),
      month: none(12),
      dow: none(7),
      wildcard: false,
      domStar: true,
      dowStar: true,
    };
  }
  const expanded = NICKNAMES[text.toLowerCase()] ?? text;
  const fields = expanded.split(/\s+/);
  if (fields.length !== 5)
    throw new Error(`expected five fields (minute hour day-of-month month day-of-week) or a nickname, got ${fields.length}`);
  if (/[#L?W]/i.test(fields[2]!) || /[#L?W]/i.test(fields[4]!)) throw new Error('cronie has no L, W, # or ? in day fields');
  const p = new CronPattern(expanded);
  const bits = (a: number[]) => a.map((v) => v !== 0);
  return {
    name,
    schedule: text,
    reboot: false,
    minute: bits(p.minute),
    hour: bits(p.hour),
    dom: bits(p.day),
    month: bits(p.month),
    dow: bits(p.dayOfWeek),
    // entry.c sets MIN_STAR/HR_STAR/DOM_STAR/DOW_STAR when the field starts with '*' (so "*/5" too).
    wildcard: fields[0]!.startsWith('*') || fields[1]!.startsWith('*'),
    domStar: fields[2]!.startsWith('*'),
    dowStar: fields[4]!.startsWith('*'),
  };
}

/** Minutes since the epoch on the local wall clock (cron.c: timeRunning = (clockTime + GMToff) / 60). */
export const minuteOf = (wallMs: number) => Math.floor(wallMs / 60_000);

/**
 * Whether an entry is due at a wall-clock minute (cron.c find_jobs): minute, hour and month must
 * match; if day-of-month or day-of-week is '*', both must match, otherwise either one is enough.
 */
export function entryMatches(e: CronEntry, minute: number): boolean {
  if (e.reboot) return false;
  const d = new Date(minute * 60_000);
  const dom = e.dom[d.getUTCDate() - 1]!;
  const dow = e.dow[d.getUTCDay()]!;
  const day = e.domStar || e.dowStar ? dom && dow : dom || dow;
  return e.minute[d.getUTCMinutes()]! && e.hour[d.getUTCHours()]! && e.month[d.getUTCMonth()]! && day;
}

/**
 * cronie RANDOM_DELAY: each entry's delay is the crontab's RANDOM_DELAY scaled by crond's
 * RandomScale (cron.c main: random() / RAND_MAX, drawn once per start of crond, logged as "RANDOM_DELAY
 * will be scaled with factor N% if used"), in whole minutes (entry.c: e->delay).
 */
export const entryDelayMin = (e: CronEntry, randomScale: number) => Math.trunc((e.randomDelayMin ?? 0) * randomScale);

/**
 * find_jobs(vtime, db, doWild, doNonWild): the entries due at `minute` of the kinds asked for. An
 * entry with a delay is tested at vtime − delay (cron.c: virtualSecond = (vtime - e->delay) * 60),
 * so it runs `delay` minutes after each of its times.
 */
function findJobs(entries: CronEntry[], minute: number, doWild: boolean, doNonWild: boolean, randomScale = 0): CronEntry[] {
  return entries.filter(
    (e) => entryMatches(e, minute - entryDelayMin(e, randomScale)) && ((doWild && e.wildcard) || (doNonWild && !e.wildcard)),
  );
}

export type WakeupKind = 'normal' | 'small' | 'medium' | 'negative' | 'large';
export interface Scan {
  minute: number;
  doWild: boolean;
  doNonWild: boolean;
}
export interface Wakeup {
  kind: WakeupKind;
  diff: number;
  scans: Scan[];
  virtualTime: number;
}

/**
 * cronie src/cron.c main loop, after waking in a new minute: classify timeDiff = timeRunning −
 * virtualTime and decide which minutes to scan for which jobs.
 *  1           normal: this minute.
 *  2..5        small (woke late): every missed minute, all jobs.
 *  6..180      medium (DST starts): wildcard jobs once now, fixed-time jobs for each skipped minute.
 *  −180..0     negative (DST ends): wildcard jobs only; virtual time stays until the clock catches up.
 *  beyond ±180 large: a clock correction; jump virtual time, run this minute's jobs.
 */
export function cronieWakeup(virtualTime: number, timeRunning: number): Wakeup {
  const diff = timeRunning - virtualTime;
  if (diff === 1)
    return { kind: 'normal', diff, scans: [{ minute: timeRunning, doWild: true, doNonWild: true }], virtualTime: timeRunning };
  if (diff > 180 || diff < -180)
    return { kind: 'large', diff, scans: [{ minute: timeRunning, doWild: true, doNonWild: true }], virtualTime: timeRunning };
  if (diff > 5) {
    const scans: Scan[] = [{ minute: timeRunning, doWild: true, doNonWild: false }];
    for (let v = virtualTime + 1; v <= timeRunning; v++) scans.push({ minute: v, doWild: false, doNonWild: true });
    return { kind: 'medium', diff, scans, virtualTime: timeRunning };
  }
  if (diff > 0) {
    const scans: Scan[] = [];
    for (let v = virtualTime + 1; v <= timeRunning; v++) scans.push({ minute: v, doWild: true, doNonWild: true });
    return { kind: 'small', diff, scans, virtualTime: timeRunning };
  }
  return { kind: 'negative', diff, scans: [{ minute: timeRunning, doWild: true, doNonWild: false }], virtualTime };
}

export interface DueRun {
  job: string;
  minute: number;
}

/** The runs one wake-up starts, in cron's order (scan by scan, crontab order within a scan). */
export function dueRuns(entries: CronEntry[], wakeup: Wakeup, randomScale = 0): DueRun[] {
  return wakeup.scans.flatMap((s) =>
    findJobs(entries, s.minute, s.doWild, s.doNonWild, randomScale).map((e) => ({ job: e.name, minute: s.minute })),
  );
}

export function formatMinute(minute: number): string {
  return new Date(minute * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}
