import type { CronEntry } from './schedule';
import { parseEntry } from './schedule';

/**
 * The schedule a CronJob controller computes with: robfig/cron v3 as the Kubernetes CronJob
 * controller uses it (cron.ParseStandard(formatSchedule(cj)): "TZ=<spec.timeZone> <schedule>").
 * - a five-field schedule or a nickname: SpecSchedule.Next(t) — the first whole minute after t
 *   whose fields match the wall clock of the time zone (none: UTC, kube-controller-manager's zone
 *   here). A local time a DST change skips never matches; one it repeats matches twice (Next adds
 *   absolute hours and minutes). No match within five years → the zero time (here null).
 * - "@every <duration>": ConstantDelaySchedule.Next(t) = t rounded down to the second + delay
 *   (Every: at least 1 s, whole seconds); the time zone plays no part.
 * Times are ms since the epoch.
 */
export type CronJobSchedule = { kind: 'cron'; entry: CronEntry; timeZone: string | null } | { kind: 'every'; delayMs: number };

const FIVE_YEARS_MIN = 5 * 366 * 1440;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset (minutes) at an absolute minute; cached per quarter hour (zone changes happen on those). */
const offsetCache = new Map<string, number>();
function offsetMin(timeZone: string, minute: number): number {
  const quarter = Math.floor(minute / 15);
  const key = `${timeZone}@${quarter}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const at = quarter * 15;
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(at * 60_000))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute)) / 60_000;
  const off = local - at;
  if (offsetCache.size > 200_000) offsetCache.clear();
  offsetCache.set(key, off);
  return off;
}

/** The wall-clock fields of an absolute minute in a zone (null: UTC). */
function localFields(minute: number, timeZone: string | null) {
  const d = new Date((minute + (timeZone ? offsetMin(timeZone, minute) : 0)) * 60_000);
  return { minute: d.getUTCMinutes(), hour: d.getUTCHours(), dom: d.getUTCDate(), month: d.getUTCMonth(), dow: d.getUTCDay() };
}

/** SpecSchedule match (robfig spec.go dayMatches: both day fields restricted → either one). */
export function matchesIn(e: CronEntry, minute: number, timeZone: string | null): boolean {
  if (e.reboot || e.everyMs !== undefined) return false;
  const f = localFields(minute, timeZone);
  const dom = e.dom[f.dom - 1]!;
  const dow = e.dow[f.dow]!;
  const day = e.domStar || e.dowStar ? dom && dow : dom || dow;
  return e.minute[f.minute]! && e.hour[f.hour]! && e.month[f.month]! && day;
}

/** schedule.Next(t): the first scheduled time strictly after t, or null (robfig's zero time). */
export function scheduleNext(s: CronJobSchedule, afterMs: number): number | null {
  if (s.kind === 'every') return Math.floor(afterMs / 1000) * 1000 + s.delayMs;
  const { entry, timeZone } = s;
  const start = Math.floor(afterMs / 60_000) + 1;
  for (let m = start; m < start + FIVE_YEARS_MIN;) {
    const f = localFields(m, timeZone);
    const dom = entry.dom[f.dom - 1]!;
    const dow = entry.dow[f.dow]!;
    const dayOk = entry.month[f.month]! && (entry.domStar || entry.dowStar ? dom && dow : dom || dow);
    // Skip to the next local hour when the day or the hour does not match (a zone's hours are whole
    // minutes of the absolute clock, so no matching minute is jumped over).
    if (!dayOk || !entry.hour[f.hour]!) {
      m += 60 - f.minute;
      continue;
    }
    if (entry.minute[f.minute]!) return m * 60_000;
    m++;
  }
  return null;
}

/** Go's time.ParseDuration (units ns, us, µs, ms, s, m, h; decimals; a sign), in ms. Null when it is not one. */
function parseGoDuration(text: string): number | null {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!m || text === '0') return text === '0' ? 0 : null;
  const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const part of text.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g))
    total += Number(part[1]) * unitMs[part[2]!]!;
  return m[1] === '-' ? -total : total;
}

/** robfig constantdelay.go Every(): below one second it is one second; sub-second parts are dropped. */
const everyDelayMs = (durationMs: number) => (durationMs < 1000 ? 1000 : durationMs - (durationMs % 1000));

// https://data.iana.org/time-zones/theory.html#naming, as batch validation's validTimeZoneCharacters.
const TZ_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/**
 * pkg/apis/batch/validation validateTimeZone: non-empty, each '/'-part of IANA's characters (not
 * "." or "..", not starting with '-'), not "Local", and time.LoadLocation must know it (here the
 * ICU zone database; like LoadLocation on Linux, a name in other letter case is not the zone).
 * Returns the error text, or null.
 */
export function timeZoneError(tz: string): string | null {
  if (tz.length === 0) return 'timeZone must be nil or non-empty string';
  if (tz.split('/').some((p) => p === '.' || p === '..' || p.startsWith('-') || !TZ_PART.test(p))) return `unknown time zone ${tz}`;
  if (tz.toLowerCase() === 'local') return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone ${tz}`;
  }
  if (resolved !== tz && resolved.toLowerCase() === tz.toLowerCase()) return `unknown time zone ${tz}`;
  return null;
}

/**
 * cron.ParseStandard as the CronJob controller calls it: "@every <Go duration>" (ConstantDelaySchedule),
 * a nickname, or five fields where '?' stands for '*'. Throws with the reason.
 */
export function parseCronJobSchedule(name: string, schedule: string): CronEntry {
  const text = schedule.trim();
  if (text.startsWith('@every ')) {
    const ms = parseGoDuration(text.slice('@every '.length));
    if (ms === null) throw new Error(`failed to parse duration ${text}: expected a Go duration like "90m" or "1h30m"`);
    return { ...parseEntry(name, '* * * * *'), schedule: text, everyMs: everyDelayMs(ms), wildcard: false };
  }
  if (text === '@reboot') throw new Error('unrecognized descriptor: @reboot');
  return {
    ...parseEntry(
      name,
      text
        .split(/\s+/)
        .map((f) => (f === '?' ? '*' : f))
        .join(' '),
    ),
    schedule: text,
  };
}
