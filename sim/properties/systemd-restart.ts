import type { SystemdContext, UnitConfig } from '../../machines/systemd-restart';
import { unitStatus } from '../../machines/systemd-restart';
import { dottedState } from '../trace';
import type { CheckProperty, CheckView, EnvMove, LoopCheck, CheckState } from '../check/model';
import type { SystemdConfig } from '../loops/systemd-restart';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { TimelineEntry } from '../runner';
import { InputError } from '../scenario/errors';
import { opPositions, writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
import { ContentDigests, writeSnapshot } from '../check/snapshot-key';
import { writeData } from '../check/data-key';
import type { Program, SystemdFault, SystemdWorld } from '../worlds/systemd-restart';
import { describeRun } from '../worlds/systemd-restart';
import type { SystemdMonitor } from '../worlds/systemd-restart-monitor';

type View = CheckView<SystemdWorld, SystemdConfig, SystemdContext>;
type Entry = TimelineEntry<SystemdFault, SystemdConfig>;
type Property = CheckProperty<SystemdWorld, SystemdConfig, SystemdContext>;

const ctxOf = (v: { snapshot: View['snapshot'] }) => v.snapshot.context;
const topOf = (v: { snapshot: View['snapshot'] }) => {
  const value = v.snapshot.value as string | Record<string, unknown>; // cast: an XState state value is a name or a nested record
  return typeof value === 'string' ? value : Object.keys(value)[0]!;
};
const limitOff = (u: UnitConfig) => u.startLimitIntervalMs <= 0 || u.startLimitBurst <= 0;
/** A start-limit window still counts at `t` (ratelimit_below() opens a new one once now − begin > interval). */
const windowOpen = (w: { begin: number | null }, t: number, u: UnitConfig) => w.begin !== null && t - w.begin <= u.startLimitIntervalMs;

// ---- what is claimed ------------------------------------------------------------------------
// The properties read the unit systemd has loaded (the machine's context) and the monitor data in
// the world (sim/worlds/systemd-restart-monitor.ts), both part of the canonical key below.

/**
 * systemd.unit(5) StartLimitIntervalSec=/StartLimitBurst=: "units which are started more than
 * burst times within an interval time span are not permitted to start any more". The window is
 * the rate limit's (src/basic/ratelimit.c: opened by a start), not a sliding one; every start
 * counts, manual or automatic; `systemctl reset-failed` flushes it.
 */
export const startLimitRespected: Property = {
  name: 'start-limit-respected',
  kind: 'always',
  claim: 'at most StartLimitBurst= process starts within a StartLimitIntervalSec= window opened by a start (reset-failed empties it)',
  holds: (v) => {
    const u = ctxOf(v).unit;
    const w = v.world.monitor.window;
    return limitOff(u) || !windowOpen(w, v.t, u) || w.num <= u.startLimitBurst;
  },
};

/** systemd.service(5) Restart=: "…with the exception of a normal stop by the systemctl stop command". */
export const manualStopNeverRestarts: Property = {
  name: 'manual-stop-never-restarts',
  kind: 'always',
  claim: 'after `systemctl stop` no process is started until an operator asks for a start or restart',
  holds: (v) => (v.world.monitor.startsSinceStop ?? 0) === 0,
};

/** systemd.unit(5): a unit that hit its start limit (or failed without Restart=) is "not attempted to be restarted anymore". */
export const failedNeedsOperator: Property = {
  name: 'failed-needs-operator',
  kind: 'always',
  claim: 'once the unit is `failed`, no process is started until an operator asks for a start or restart',
  holds: (v) => (v.world.monitor.startsSinceFailed ?? 0) === 0,
};

/** systemd.service(5) RestartSec=: "the time to sleep before restarting a service"; RestartSteps= only lengthens it. */
export const restartDelayRespected: Property = {
  name: 'restart-delay-respected',
  kind: 'always',
  claim: 'an automatic restart never comes sooner than RestartSec= after the exit that caused it',
  holds: (v) => {
    const gap = v.world.monitor.lastAutoStartGapMs;
    return gap === null || gap >= ctxOf(v).unit.restartSecMs;
  },
};

/**
 * systemd.service(5) Type=oneshot: "the service manager will consider the unit up after the main
 * process exits" — it goes from activating (start) to active (exited) or inactive, never running.
 */
export const oneshotNeverRunning: Property = {
  name: 'oneshot-never-running',
  kind: 'always',
  claim: 'a Type=oneshot unit is never "active (running)": activating while its process runs, then exited, inactive or failed',
  holds: (v) => {
    const ctx = ctxOf(v);
    if (ctx.unit.type !== 'oneshot') return true;
    const s = unitStatus(dottedState(v.snapshot.value), ctx);
    return !(s.active === 'active' && s.sub === 'running');
  },
};

/**
 * systemd.service(5) TimeoutStopSec=: "If a service is asked to stop, but does not terminate in the
 * specified time, it will be terminated forcibly via SIGTERM, and after another timeout of equal
 * duration with SIGKILL" — the model's stop-sigterm (a process that caught KillSignal=) never
 * lasts longer than TimeoutStopSec=.
 */
export const stopWithinTimeout: Property = {
  name: 'stop-within-timeout',
  kind: 'always',
  claim: 'a process that ignores KillSignal= is killed with FinalKillSignal= once TimeoutStopSec= has passed (never later)',
  holds: (v) => {
    const since = v.world.monitor.sigtermSince;
    const timeout = ctxOf(v).unit.timeoutStopMs;
    return since === null || timeout === null || v.t - since <= timeout;
  },
};

/** Given up: service_start() refused the start and service_enter_dead(SERVICE_FAILURE_START_LIMIT) made it failed. */
const givenUp = (v: { snapshot: View['snapshot'] }) => topOf(v) === 'failed' && ctxOf(v).result === 'start-limit-hit';

/**
 * K for never-gives-up. `failed` is left only by an operator's request, so once the environment
 * stops, a state settles at once (0) or never (∞): K does not change the verdict, it only says
 * how long a counterexample trace runs. Two start-limit intervals cover a window that opened
 * before the environment stopped plus one full window after it. `withinPeriods` (--within)
 * counts in StartLimitIntervalSec= periods.
 */
export function givesUpWithinMs(unit: UnitConfig, withinPeriods?: number): number {
  return (withinPeriods ?? 2) * (limitOff(unit) ? 0 : unit.startLimitIntervalMs);
}

export function neverGivesUp(unit: UnitConfig, withinPeriods?: number): Property {
  const withinMs = givesUpWithinMs(unit, withinPeriods);
  const within = `${withinMs / 1000}s`;
  return {
    name: 'never-gives-up',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within} the unit is not failed with result start-limit-hit, and never becomes so (Restart= keeps a crashing service coming back)`,
    holds: (v) => !givenUp(v),
  };
}

const restartsAutomatically: Property = {
  name: 'restarts-automatically',
  kind: 'sometimes',
  claim: 'some run waits in auto-restart (the bounds exercise Restart=)',
  holds: (v) => topOf(v) === 'autoRestart',
};

/**
 * Whether the start limit can never refuse a start, with `operatorTokens` start-limit tests the
 * operator's requests may take. In a window [s₁, s₁ + interval] every automatic start comes ≥
 * RestartSec after the exit before it, so after the first start at most ⌊interval / RestartSec⌋
 * are automatic and the rest are the operator's: 1 + ⌊interval / RestartSec⌋ + operatorTokens ≤
 * burst keeps every start allowed. (systemd.unit(5): the limit "applies to all kinds of starts
 * (including manual)".) A `systemctl restart` takes one token; a `systemctl start` may take two:
 * during the auto-restart hold-off the client's start job is tested in AUTO_RESTART, and the
 * restart job service_start() re-enqueues is tested again in AUTO_RESTART_QUEUED
 * (service_test_startable() only skips the start states) — see operatorTokens().
 */
export const operatorTokens = (starts: number, restarts: number) => 2 * starts + restarts;

export function startLimitNeverRefuses(unit: UnitConfig, operatorTokens = 0): boolean {
  if (limitOff(unit)) return true;
  if (unit.restartSecMs <= 0) return false;
  return 1 + Math.floor(unit.startLimitIntervalMs / unit.restartSecMs) + operatorTokens <= unit.startLimitBurst;
}

/**
 * What a unit file promises. The four safety claims are systemd's documented behaviour for any
 * unit (the model follows service.c). never-gives-up is promised only when the start limit is off
 * or automatic restarts alone can never reach it (StartLimitBurst × RestartSec > interval, e.g.
 * RestartSec=3s with the defaults); the defaults (RestartSec=100ms) do not promise it — the
 * explorer's counterexample is then a finding about the unit file, not a bug. Operator starts
 * count too (startLimitNeverRefuses): a scenario with more of them can still use the burst up.
 */
function systemdPromises(config: SystemdConfig): readonly string[] {
  const safety = SAFETY_PROPERTIES.map((p) => p.name);
  return startLimitNeverRefuses(config.unit) ? [...safety, 'never-gives-up'] : safety;
}

/** The claims every unit file makes (systemd's documented behaviour, which the model follows). */
export const SAFETY_PROPERTIES: readonly Property[] = [
  startLimitRespected,
  manualStopNeverRestarts,
  failedNeedsOperator,
  restartDelayRespected,
  oneshotNeverRunning,
  stopWithinTimeout,
];

function systemdProperties(
  config: SystemdConfig,
  _alphabet: readonly EnvMove<SystemdFault, SystemdConfig>[],
  withinPeriods?: number,
): Property[] {
  const out = [...SAFETY_PROPERTIES, neverGivesUp(config.unit, withinPeriods)];
  if (config.unit.restart !== 'no') out.push(restartsAutomatically);
  return out;
}

// ---- what the environment may do ------------------------------------------------------------

const describeProgram = (p: Program) => [...p.script.map(describeRun), `then ${describeRun(p.then)}`].join(', ');

function systemdLabel(entry: Entry): string {
  if ('config' in entry) return `unit edit ${JSON.stringify(entry.config.unit ?? {})}`;
  const f = entry.fault;
  if (f.kind === 'program') return `deploy: ${describeProgram(f.program)}`;
  return `systemctl ${f.request.verb}${f.request.signal ? ` --signal=${f.request.signal}` : ''}`;
}

/**
 * The service manager handles a request between its own steps: reading the clock for the start
 * limit, checking conditions and forking (service_start → service_enter_start) run in one go, as
 * does deciding after SIGCHLD (service_sigchld_event → service_enter_dead). The model takes those
 * as zero-time states; a systemctl request cannot land inside them. A deploy (the world) can.
 */
const MID_STEP = new Set(['boot', 'startRequested', 'condition', 'starting', 'evaluating', 'stopped', 'drawingDelay']);

function applicable(state: CheckState<SystemdWorld, SystemdConfig, SystemdContext>, entry: Entry): boolean {
  return ('fault' in entry && entry.fault.kind === 'program') || !MID_STEP.has(topOf(state));
}

const MAX_MOVES = 8;

function validate(scenario: LoadedScenario<SystemdWorld, SystemdFault, SystemdConfig>): void {
  const { file } = scenario;
  if (scenario.config.unit.restartRandomizedDelayMs > 0) {
    throw new InputError(
      file,
      'unit.RestartRandomizedDelaySec',
      'expected 0 for check: restart delays must be fixed (the explorer does not branch on random draws)',
    );
  }
  if (scenario.world.program.jitterMs > 0) {
    throw new InputError(
      file,
      'program.jitter',
      'expected 0 for check: run times must be fixed (the explorer does not branch on random draws)',
    );
  }
  if (scenario.timeline.length > MAX_MOVES) {
    throw new InputError(
      file,
      'timeline',
      `expected at most ${MAX_MOVES} entries for check (each is a move the environment may make at any instant), got ${scenario.timeline.length}`,
    );
  }
  scenario.timeline.forEach((e, i) => {
    if ('fault' in e && e.fault.kind === 'program' && e.fault.program.jitterMs > 0) {
      throw new InputError(
        file,
        `timeline[${i}].program.jitter`,
        'expected 0 for check: run times must be fixed (the explorer does not branch on random draws)',
      );
    }
    if ('config' in e) {
      throw new InputError(
        file,
        `timeline[${i}].unit`,
        'expected no unit edits for check: the properties and promises are judged against one unit file',
      );
    }
  });
}

// ---- which parts of a state matter for its future ------------------------------------------

/**
 * The canonical key: everything the future depends on, times relative to now.
 * - PIDs and op ids are absolute and only ever compared with the current main process: each is
 *   replaced by whether it is that process or not.
 * - The start-limit windows (the machine's and the monitor's) are dropped once expired (the next
 *   start opens a new one) and their counts capped at burst + 1; with the limit off they are dead.
 * - nRestarts matters only for RestartSteps= (capped where the delay reaches RestartMaxDelaySec=);
 *   lastExit, lastError, startedAt, starts, cleanExits and the exit list are read only by notes
 *   and the summary — except the last exit's age, kept while younger than RestartSec=.
 * - The rng is never drawn (validate: jitter 0); runIndex is capped where `then` takes over.
 * - state.config (the unit file) is read only by a controller
 *   restart, which this loop does not have; the machine's own unit is keyed instead.
 * - Monitor counters after a stop / failure are capped at 1 (a violation), the last automatic
 *   start's gap is kept as ok/early (none counts as ok), and a start request only matters at its
 *   own instant.
 */
function canonicalizer() {
  // The unit and the program are shared by every state until an edit: written as digests of their content.
  const digests = new ContentDigests();

  return (state: CheckState<SystemdWorld, SystemdConfig, SystemdContext>, key: KeyWriter): void => {
    const { t, world: w } = state;
    const ctx = state.snapshot.context;
    const u = ctx.unit;
    // none, the current main process, or another one
    const pid = (p: number | null) => key.num(p === null ? 0 : p === w.process?.pid ? 1 : 2);
    const window = (win: { begin: number | null; num: number }) => {
      const open = !limitOff(u) && windowOpen(win, t, u);
      key.flag(open);
      if (open) {
        key.num(t - win.begin!);
        key.num(Math.min(win.num, u.startLimitBurst + 1));
      }
    };
    const steps = u.restartSteps > 0 && u.restartMaxDelayMs !== null && u.restartSecMs > 0 && u.restartSecMs < u.restartMaxDelayMs;

    writeSnapshot(state.snapshot, key);
    digests.write(u, key);
    window(ctx.startLimit);
    key.num(steps ? Math.min(ctx.nRestarts, u.restartSteps) : 0);
    key.str(ctx.result);
    pid(ctx.mainPid);
    key.flag(ctx.forbidRestart);
    key.flag(ctx.startAfterStop);
    key.flag(ctx.autoStart);
    key.flag(ctx.hurry);
    key.num(ctx.decision ? (ctx.decision.restart ? 1 : 2) : 0);
    key.num(ctx.nextRestartDelayMs);

    digests.write(w.program, key);
    key.num(Math.min(w.runIndex, w.program.script.length));
    const p = w.process;
    key.flag(p !== null);
    if (p) {
      key.flag(p.hung);
      if (!p.hung) key.num(p.endsAt - t);
      writeData(p.outcome, key);
      key.list(p.ignore.length);
      for (const s of p.ignore) key.str(s);
    }
    const lastExit = w.exits.at(-1);
    const exitAge = lastExit && t - lastExit.at < u.restartSecMs ? t - lastExit.at : null;
    key.flag(exitAge !== null);
    if (exitAge !== null) key.num(exitAge);

    const m: SystemdMonitor = w.monitor;
    const capped = (n: number | null) => key.num(n === null ? Number.NaN : Math.min(n, 1));
    key.num(w.starts - m.seenStarts);
    window(m.window);
    key.flag(m.lastStartRequestAt === t);
    capped(m.startsSinceStop);
    capped(m.startsSinceFailed);
    // the last automatic start's gap: ok (or none) / early
    key.flag(m.lastAutoStartGapMs === null || m.lastAutoStartGapMs >= u.restartSecMs);
    // stop-sigterm: not there, waiting without a timeout, or its age capped past the timeout
    key.num(m.sigtermSince === null ? 0 : u.timeoutStopMs === null ? 1 : 2);
    if (m.sigtermSince !== null && u.timeoutStopMs !== null) key.num(Math.min(t - m.sigtermSince, u.timeoutStopMs + 1));

    key.list(w.ops.length);
    for (const o of w.ops) {
      key.str(o.kind);
      if ('pid' in o) pid(o.pid);
      if (o.kind === 'signal') key.str(o.signal);
    }
    writeQueue(state, key, opPositions(w.ops));
  };
}

export const systemdRestartCheck: LoopCheck<SystemdWorld, SystemdFault, SystemdConfig, SystemdContext> = {
  loop: 'systemd-restart',
  validate,
  label: systemdLabel,
  applicable,
  canonicalizer,
  // Symmetry (sim/check/symmetry.ts): a single unit, nothing to interchange.
  symmetry: { none: 'one unit and its one main process: nothing to interchange' },
  properties: systemdProperties,
  promises: systemdPromises,
};
