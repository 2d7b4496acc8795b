import type { CronConfig, CronContext, CronEntry } from '../../machines/cron';
import { DEFAULT_CRONJOB, cronJobMatches, entryMatches } from '../../machines/cron';
import type { CheckProperty, CheckView, EnvMove, LoopCheck } from '../check/model';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { TimelineEntry } from '../runner';
import { InputError } from '../scenario/errors';
import type { StepState } from '../step';
import type { CronFault, CronWorld } from '../worlds/cron';
import { cronCanonicalizer, jumps, modeOf, scheduled } from './cron-key';

type View = CheckView<CronWorld, CronConfig, CronContext>;

type Entry = TimelineEntry<CronFault, CronConfig>;
type Prop = CheckProperty<CronWorld, CronConfig, CronContext>;
type Which = (e: CronEntry) => boolean;

/** "1h", "2h30m", "45m", "90s": the way the scenarios write durations. */
function shortDuration(ms: number): string {
  const parts: [number, string][] = [
    [Math.floor(ms / 3_600_000), 'h'],
    [Math.floor(ms / 60_000) % 60, 'm'],
    [Math.floor(ms / 1000) % 60, 's'],
  ];
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, u]) => `${n}${u}`)
      .join('') || `${ms}ms`
  );
}

const ctxOf = (v: View) => v.snapshot.context;
/** cron.c find_jobs: a job whose minute or hour field starts with '*' is a "wildcard" job. */
const fixedTime: Which = (e) => !e.reboot && !e.wildcard;
const wildcard: Which = (e) => !e.reboot && e.wildcard;

// ---- what is claimed ------------------------------------------------------------------------
// The history these read is the world's monitor (sim/worlds/cron.ts CronMonitor): it is part of
// the state, so the same objects serve the explorer and the fast-check runs along a Runner.

/** No run of the last wake-up repeated a scheduled minute of a job `which` selects. */
const noRepeatOf = (which: Which) => (v: View) =>
  v.world.monitor.repeats.every((r) => !v.config.entries.some((e) => e.name === r.job && which(e)));

/**
 * Judged when crond reads the clock again: every scheduled minute the previous reading passed for
 * the first time (a forward jump passes many) has had a run of each job `which` selects by then.
 */
const noSkipOf = (which: Which) => (v: View) => {
  const passed = v.world.monitor.passed;
  if (!passed || !v.snapshot.hasTag('observe')) return true;
  // A CronJob reads its fields on its timeZone's wall clock; @every times are not minutes of a pattern.
  const kubernetes = modeOf(v.config) === 'kubernetes';
  for (const e of v.config.entries) {
    if (!which(e) || e.everyMs !== undefined) continue;
    const runs = v.world.monitor.runs[e.name] ?? [];
    const timeZone = v.config.cronJobs?.[e.name]?.timeZone ?? null;
    const due = (m: number) => (kubernetes ? cronJobMatches({ entry: e, timeZone }, m) : entryMatches(e, m));
    for (let m = passed.from + 1; m <= passed.to; m++) if (due(m) && !runs.some((r) => r.minute === m)) return false;
  }
  return true;
};

/** cron(8)'s promise holds only for clock changes under 3 h on one boot of crond. */
const withinContract = (holds: (v: View) => boolean) => (v: View) => v.world.monitor.outsideContract || holds(v);
const CONTRACT = 'while crond runs on one boot and every clock change is under 3 h';

export const fixedNoRepeat: Prop = {
  name: 'fixed-no-repeat',
  kind: 'always',
  claim: `${CONTRACT}, no fixed-time job runs twice for one scheduled time (cron(8): "running the same job twice is avoided")`,
  holds: withinContract(noRepeatOf(fixedTime)),
};

export const fixedNoSkip: Prop = {
  name: 'fixed-no-skip',
  kind: 'always',
  claim: `${CONTRACT}, every scheduled time of a fixed-time job that the clock passed has had its run by crond's next reading (cron(8): skipped jobs "will be run immediately")`,
  holds: withinContract(noSkipOf(fixedTime)),
};

export const wildcardNoRepeat: Prop = {
  name: 'wildcard-no-repeat',
  kind: 'always',
  claim: `${CONTRACT}, no wildcard job (minute or hour field starting with *) runs twice for one scheduled time`,
  holds: withinContract(noRepeatOf(wildcard)),
};

export const wildcardNoSkip: Prop = {
  name: 'wildcard-no-skip',
  kind: 'always',
  claim: `${CONTRACT}, every scheduled time of a wildcard job that the clock passed has had its run by crond's next reading`,
  holds: withinContract(noSkipOf(wildcard)),
};

/** Mode kubernetes: the controller names a Job after its scheduled time (getJobName) and records lastScheduleTime. */
export const oneJobPerTime: Prop = {
  name: 'one-job-per-time',
  kind: 'always',
  claim: 'no CronJob creates two Jobs for one scheduled time',
  holds: noRepeatOf(scheduled),
};

export const everyTimeStarted: Prop = {
  name: 'every-time-started',
  kind: 'always',
  claim: "every scheduled time of a CronJob that the clock passed has had its Job by the controller's next sync",
  holds: noSkipOf(scheduled),
};

/** concurrencyPolicy Forbid and Replace (batch/v1 CronJobSpec): never two Jobs of one CronJob at once. */
export const noOverlap: Prop = {
  name: 'no-overlap',
  kind: 'always',
  claim: 'a CronJob with concurrencyPolicy Forbid or Replace never has two Jobs running at once',
  holds: (v) =>
    v.config.entries.every((e) => {
      const policy = (v.config.cronJobs?.[e.name] ?? DEFAULT_CRONJOB).concurrencyPolicy;
      return policy === 'Allow' || v.world.running.filter((r) => r.job === e.name && r.endsAt > v.t).length <= 1;
    }),
};

/** Reachability: a wake-up started a fixed-time job for a minute the clock jumped over. */
const catchesUp: Prop = {
  name: 'catches-up',
  kind: 'sometimes',
  claim: 'some wake-up runs a fixed-time job for a minute the clock skipped (the forward-jump rule is reached)',
  holds: (v) =>
    v.snapshot.hasTag('compare') &&
    ctxOf(v).pending.some(
      (r) => r.minute < (ctxOf(v).timeRunning ?? r.minute) && v.config.entries.some((e) => e.name === r.job && fixedTime(e)),
    ),
};

/** Reachability: a wake-up found the clock behind crond's virtual time. */
const clockWentBack: Prop = {
  name: 'clock-went-back',
  kind: 'sometimes',
  claim: "some wake-up finds the clock behind crond's virtual time (the backward-change rule is reached)",
  holds: (v) => ctxOf(v).wakeup?.kind === 'negative' && ctxOf(v).wakeup!.diff < 0,
};

/** crond's virtual time has caught up with the clock minute it last read. */
export const inStep = (v: View) => {
  const ctx = ctxOf(v);
  return ctx.virtualTime !== null && ctx.virtualTime === ctx.timeRunning;
};

const outages = (alphabet: readonly EnvMove<CronFault, CronConfig>[]) =>
  alphabet.flatMap((m) =>
    'fault' in m.entry && (m.entry.fault.kind === 'hostDown' || m.entry.fault.kind === 'controllerDown') ? [m.entry.fault.forMs] : [],
  );

/**
 * K for back-in-step: after backward changes crond waits, running only wildcard jobs, until the
 * clock is back at its virtual time (cron.c, −180 ≤ timeDiff ≤ 0; beyond −180 it resets virtual
 * time at once). Changes made before it caught up add up, so K is the sum of the backward changes
 * in the alphabet, at most 3 h; after an outage crond's first reading on the new boot sets it, so
 * K is at least the longest outage; plus 2 min for the wake-up that reads the clock and the next.
 */
export function inStepWithinMs(alphabet: readonly EnvMove<CronFault, CronConfig>[]): number {
  const back = Math.min(
    jumps(alphabet)
      .filter((b) => b < 0)
      .reduce((a, b) => a - b, 0),
    3 * 3_600_000,
  );
  return Math.max(back, ...outages(alphabet)) + 2 * 60_000;
}

function cronProperties(config: CronConfig, alphabet: readonly EnvMove<CronFault, CronConfig>[]): Prop[] {
  if (modeOf(config) === 'kubernetes') {
    const exclusive = config.entries.some((e) => (config.cronJobs?.[e.name] ?? DEFAULT_CRONJOB).concurrencyPolicy !== 'Allow');
    return [oneJobPerTime, everyTimeStarted, ...(exclusive ? [noOverlap] : [])];
  }
  const withinMs = inStepWithinMs(alphabet);
  const within = shortDuration(withinMs);
  const out: Prop[] = [
    fixedNoRepeat,
    fixedNoSkip,
    wildcardNoRepeat,
    wildcardNoSkip,
    {
      name: 'back-in-step',
      kind: 'eventually',
      withinMs,
      within,
      claim: `once the environment stops, within ${within} crond's virtual time equals the clock minute it read, and stays so`,
      holds: inStep,
    },
  ];
  if (jumps(alphabet).some((b) => b > 0)) out.push(catchesUp);
  if (jumps(alphabet).some((b) => b < 0)) out.push(clockWentBack);
  return out;
}

/**
 * cronie: cron(8) "Daylight Saving Time and other time changes" — fixed-time jobs in a skipped
 * interval run at once, and are not run twice when the clock goes back; wildcard jobs "are
 * scheduled normally" (by the new time), so it promises nothing for them. The Kubernetes CronJob
 * controller promises one Job per scheduled time (Job name = CronJob + scheduled time) and no
 * overlap under Forbid/Replace; it starts only the most recent missed time (utils.go), so not
 * every time.
 */
function cronPromises(config: CronConfig): readonly string[] {
  return modeOf(config) === 'kubernetes' ? ['one-job-per-time', 'no-overlap'] : ['fixed-no-repeat', 'fixed-no-skip', 'back-in-step'];
}

// ---- what the environment may do ------------------------------------------------------------

const signed = (ms: number) => `${ms < 0 ? '−' : '+'}${shortDuration(Math.abs(ms))}`;

function cronLabel(entry: Entry): string {
  if ('config' in entry) return `crontab change ${JSON.stringify(entry.config)}`;
  const f = entry.fault;
  switch (f.kind) {
    case 'clockJump':
      return `clock ${signed(f.byMs)}`;
    case 'hostDown':
      return `host down ${shortDuration(f.forMs)}`;
    case 'controllerDown':
      return `controller down ${shortDuration(f.forMs)}`;
    case 'overrun':
      return `${f.job} overruns ${shortDuration(f.byMs)}`;
  }
}

/**
 * A move may happen at any instant up to its entry's `at` (a DST change happens on its night, not
 * at any time of the year), at most once, or never; after the last `at` the loop runs on for ever
 * and the search closes over the time of day. An outage needs the host (controller) up, an
 * overrun a run of its job.
 */
function applicable(state: StepState<CronWorld, CronConfig>, entry: Entry): boolean {
  if (state.t > entry.at) return false;
  if ('config' in entry) return false;
  const f = entry.fault;
  if (f.kind === 'clockJump') return true;
  if (f.kind === 'overrun') return state.world.running.some((r) => r.job === f.job && r.endsAt > state.t);
  return state.t >= state.world.downUntil;
}

const MAX_MOVES = 6;
const MAX_BACK_MS = 12 * 3_600_000;

function validate(scenario: LoadedScenario<CronWorld, CronFault, CronConfig>): void {
  const { file, config, world, timeline } = scenario;
  if (modeOf(config) === 'anacron')
    throw new InputError(file, 'mode', 'expected cronie or kubernetes for check (anacron has no check yet)');
  config.entries.forEach((e, i) => {
    if (!e.reboot && !(e.dom.every(Boolean) && e.month.every(Boolean) && e.dow.every(Boolean))) {
      throw new InputError(
        file,
        `crontab[${i}].schedule`,
        `expected a schedule that repeats every day (day of month, month and day of week "*") for check: the search closes over the time of day, got "${e.schedule}"`,
      );
    }
    if ((world.runtimes[e.name]?.jitterMs ?? 0) > 0)
      throw new InputError(file, `crontab[${i}].jitter`, 'expected no jitter for check: the explorer does not branch on random run times');
    if (config.cronJobs?.[e.name]?.suspend)
      throw new InputError(
        file,
        `crontab[${i}].suspend`,
        'expected no suspended CronJob for check: its missed times pile up without bound',
      );
    // The search closes over the time of day: a zone's DST changes, an @every period and crond's
    // per-boot RANDOM_DELAY scale do not repeat with it.
    if (config.cronJobs?.[e.name]?.timeZone)
      throw new InputError(file, `crontab[${i}].timeZone`, 'expected no timeZone for check: the search closes over the UTC time of day');
    if (e.everyMs !== undefined)
      throw new InputError(file, `crontab[${i}].schedule`, `expected a five-field schedule for check, got "${e.schedule}"`);
    if (e.randomDelayMin)
      throw new InputError(file, 'RANDOM_DELAY', 'expected no RANDOM_DELAY for check: each boot of crond draws its own delay');
  });
  if (timeline.length > MAX_MOVES)
    throw new InputError(
      file,
      'timeline',
      `expected at most ${MAX_MOVES} entries for check (each is a move the environment may make at any instant up to its "at"), got ${timeline.length}`,
    );
  timeline.forEach((e, i) => {
    if ('config' in e)
      throw new InputError(
        file,
        `timeline[${i}]`,
        'expected only clockJump, hostDown, controllerDown or overrun for check: the properties read one crontab',
      );
  });
  const back = jumps(timeline.map((entry, index) => ({ index, label: '', entry })))
    .filter((b) => b < 0)
    .reduce((a, b) => a - b, 0);
  if (back > MAX_BACK_MS)
    throw new InputError(
      file,
      'timeline',
      `expected backward clock jumps of at most ${shortDuration(MAX_BACK_MS)} in all for check (the monitor keeps one day of runs), got ${shortDuration(back)}`,
    );
}

export const cronCheck: LoopCheck<CronWorld, CronFault, CronConfig, CronContext> = {
  loop: 'cron',
  validate,
  label: cronLabel,
  applicable,
  canonicalizer: cronCanonicalizer,
  // Symmetry (sim/check/symmetry.ts): no two jobs are interchangeable.
  symmetry: { none: 'every job has its own schedule, and a CronJob names each Job after its scheduled time' },
  properties: (config, alphabet) => cronProperties(config, alphabet),
  promises: cronPromises,
};
