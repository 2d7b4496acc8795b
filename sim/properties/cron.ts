import type { CronEntry } from '../../machines/cron';
import { entryMatches } from '../../machines/cron';
import type { Violation } from './systemd-restart';

export type { Violation };
type Ran = { job: string; minute: number }[];

/**
 * cronie (src/cron.c) with clock jumps within ±3 h and no outage: every fixed-time job runs
 * exactly once for each of its minutes from crond's start up to its virtual time — forward
 * jumps are caught up, backward jumps are not repeated.
 */
export function fixedTimeJobsRunOnce(ran: Ran, entries: CronEntry[], startMinute: number, virtualTime: number): Violation[] {
  const out: Violation[] = [];
  for (const e of entries.filter((x) => !x.wildcard && !x.reboot)) {
    const seen = new Map<number, number>();
    for (const r of ran) if (r.job === e.name) seen.set(r.minute, (seen.get(r.minute) ?? 0) + 1);
    for (let m = startMinute + 1; m <= virtualTime; m++) {
      const n = seen.get(m) ?? 0;
      const due = entryMatches(e, m);
      if (due && n !== 1) out.push({ frame: -1, t: m, property: 'fixedTimeJobsRunOnce', message: `${e.name} ran ${n} times for minute ${m}` });
      if (!due && n > 0) out.push({ frame: -1, t: m, property: 'fixedTimeJobsRunOnce', message: `${e.name} ran for minute ${m}, which its schedule does not match` });
    }
  }
  return out;
}

/** With a steady clock every job (wildcard or not) runs exactly at its due minutes, once each. */
export function steadyClockRunsExactly(ran: Ran, entries: CronEntry[], startMinute: number, virtualTime: number): Violation[] {
  const out: Violation[] = [];
  for (const e of entries.filter((x) => !x.reboot)) {
    const minutes = ran.filter((r) => r.job === e.name).map((r) => r.minute);
    const expected: number[] = [];
    for (let m = startMinute + 1; m <= virtualTime; m++) if (entryMatches(e, m)) expected.push(m);
    if (JSON.stringify(minutes) !== JSON.stringify(expected)) out.push({ frame: -1, t: virtualTime, property: 'steadyClockRunsExactly', message: `${e.name}: ran at ${minutes.length} minutes, due at ${expected.length}` });
  }
  return out;
}
