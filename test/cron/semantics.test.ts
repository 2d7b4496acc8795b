import { describe, expect, it } from 'vitest';
import { cronieWakeup, dueRuns, entryMatches, minuteOf, parseEntry } from '../../machines/cron';

const at = (iso: string) => minuteOf(Date.parse(`${iso}:00Z`));

// cronie src/cron.c main(): timeDiff = timeRunning − virtualTime, then
//   1 → normal; 2..5 → small (every missed minute, all jobs); 6..180 → medium (wildcard once,
//   fixed-time for each skipped minute); −180..0 → negative (wildcard only, virtual time kept);
//   beyond ±180 → large (correction: virtual time = now, this minute's jobs).
describe('cronie wake-up classification (src/cron.c)', () => {
  it.each([
    [1, 'normal'],
    [2, 'small'],
    [5, 'small'],
    [6, 'medium'],
    [60, 'medium'],
    [180, 'medium'],
    [181, 'large'],
    [0, 'negative'],
    [-1, 'negative'],
    [-60, 'negative'],
    [-180, 'negative'],
    [-181, 'large'],
  ])('timeDiff %i → %s', (diff, kind) => {
    expect(cronieWakeup(1000, 1000 + diff).kind).toBe(kind);
  });

  const wild = parseEntry('tick', '*/5 * * * *');
  const hourly = parseEntry('hourly', '30 * * * *'); // hour field '*': HR_STAR → wildcard too
  const fixed = parseEntry('backup', '30 2 * * *');
  const entries = [wild, hourly, fixed];

  it('wildcard = minute or hour field starting with * (MIN_STAR | HR_STAR)', () => {
    expect([
      wild.wildcard,
      hourly.wildcard,
      fixed.wildcard,
      parseEntry('d', '@daily').wildcard,
      parseEntry('h', '@hourly').wildcard,
    ]).toEqual([true, true, false, false, true]);
  });

  it('woke 4 minutes late: every missed minute runs, all jobs', () => {
    const runs = dueRuns(entries, cronieWakeup(at('2026-03-29T02:26'), at('2026-03-29T02:30')));
    expect(runs.map((r) => r.job)).toEqual(['tick', 'hourly', 'backup']);
  });

  it('DST starts (+60): wildcard jobs once for now, fixed-time jobs for each skipped minute', () => {
    const w = cronieWakeup(at('2026-03-29T02:00'), at('2026-03-29T03:01'));
    const runs = dueRuns(entries, w);
    expect(runs.map((r) => `${r.job}@${r.minute - at('2026-03-29T02:00')}`)).toEqual(['backup@30']);
    expect(w.virtualTime).toBe(at('2026-03-29T03:01'));
    // …and at 03:05 (a wildcard minute) the wildcard job runs once, not for 02:05, 02:10, …
    expect(dueRuns(entries, cronieWakeup(at('2026-03-29T02:00'), at('2026-03-29T03:05'))).map((r) => r.job)).toEqual(['tick', 'backup']);
  });

  it('DST ends (−60): wildcard jobs only, fixed-time jobs are not repeated, virtual time stays', () => {
    const vt = at('2026-10-25T02:59');
    const w = cronieWakeup(vt, at('2026-10-25T02:30'));
    expect(dueRuns(entries, w).map((r) => r.job)).toEqual(['tick', 'hourly']);
    expect(w.virtualTime).toBe(vt);
  });

  it("beyond 3 h: a correction — virtual time jumps, only this minute's jobs", () => {
    const w = cronieWakeup(at('2026-03-29T00:00'), at('2026-03-29T05:30'));
    expect(w.kind).toBe('large');
    expect(dueRuns(entries, w).map((r) => r.job)).toEqual(['tick', 'hourly']);
  });
});

// crontab(5): "If both fields are restricted (i.e., do not contain the "*" character), the command
// will be run when either field matches the current time." (cron.c find_jobs: DOM_STAR/DOW_STAR.)
describe('day-of-month and day-of-week', () => {
  const e = parseEntry('r', '0 7 1 * FRI');
  it.each([
    ['2026-06-01T07:00', true], // Monday the 1st: day-of-month matches
    ['2026-06-05T07:00', true], // Friday the 5th: day-of-week matches
    ['2026-06-02T07:00', false], // Tuesday the 2nd: neither
  ])('both restricted → either matches: %s %s', (iso, due) => expect(entryMatches(e, at(iso))).toBe(due));
  it('one of them "*" → both must match (the * one always does)', () => {
    const dowOnly = parseEntry('w', '0 7 * * FRI');
    expect(entryMatches(dowOnly, at('2026-06-01T07:00'))).toBe(false);
    expect(entryMatches(dowOnly, at('2026-06-05T07:00'))).toBe(true);
    // "*/2" in day-of-month starts with '*': DOM_STAR, so it is ANDed with day-of-week.
    const stepped = parseEntry('s', '0 7 */2 * FRI');
    expect(entryMatches(stepped, at('2026-06-05T07:00'))).toBe(true); // 5th is odd → in */2 (1,3,5…)
    expect(entryMatches(stepped, at('2026-06-12T07:00'))).toBe(false); // Friday but 12th is even
  });
  it('rejects non-cronie syntax', () => {
    expect(() => parseEntry('x', '0 7 L * *')).toThrow();
    expect(() => parseEntry('x', '0 7 * *')).toThrow();
  });
});
