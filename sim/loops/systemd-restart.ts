import { z } from 'zod';
import type { EventObject } from 'xstate';
import type { ExitStatusSet, SystemctlRequest, SystemdContext, UnitConfig } from '../../machines/systemd-restart';
import {
  CATCHABLE_SIGNALS,
  DEFAULT_UNIT,
  FINAL_KILL_SIGNALS,
  KNOWN_SIGNALS,
  OOM_POLICIES,
  RESTART_MODES,
  RESTART_SETTINGS,
  SERVICE_TYPES,
  describeExit,
  systemdMachine,
} from '../../machines/systemd-restart';
import type { LoopBinding } from '../model';
import type { SystemdWorldSummary } from './systemd-restart-world-schema';
import type { SystemdController } from './systemd-restart-controller';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { headerOf, headerShape } from '../scenario/header';
import type { SystemdNote } from '../notes/systemd';
import { systemdNote } from '../notes/systemd';
import { parseDuration } from '../units';
import type { Program, RunSpec, SystemdFault, SystemdWorld } from '../worlds/systemd-restart';
import { createSystemdWorld, systemdWorldModel } from '../worlds/systemd-restart';
import { observeSystemd } from '../worlds/systemd-restart-monitor';
import { systemdController } from './systemd-restart-controller';

/** The loop's desired state: the unit file. (systemctl requests are operator commands: SystemdFault `systemctl`.) */
export interface SystemdConfig {
  unit: UnitConfig;
}

const verbEvent = (r: SystemctlRequest): EventObject =>
  r.verb === 'kill'
    ? ({ type: 'SYSTEMCTL.KILL', signal: r.signal ?? 'SIGTERM' } as EventObject) // cast: SYSTEMCTL.KILL's extra field signal, as SystemdEvent has it
    : { type: `SYSTEMCTL.${r.verb.toUpperCase().replace('-', '_')}` };

export const systemdBinding: LoopBinding<
  SystemdWorld,
  SystemdFault,
  SystemdConfig,
  SystemdController,
  typeof systemdMachine,
  SystemdWorldSummary
> = {
  loop: 'systemd-restart',
  machine: systemdMachine,
  world: systemdWorldModel,
  machineInput: (config) => ({ unit: config.unit }),
  configEvent: (config) => ({ type: 'CONFIG.UPDATE', unit: config.unit ?? {} }),
  // systemctl talks to the service manager, not to the unit file or the process.
  command: (fault) => (fault.kind === 'systemctl' ? verbEvent(fault.request) : undefined),
  note: (ctx, event) => noteFor(ctx, event),
  // What sim/properties/systemd-restart.ts needs to remember (operator requests, starts), in the world.
  monitor: observeSystemd,
  controller: (ctx, _world, _t, state) => systemdController(ctx, state),
};

/** A time span the way systemctl prints one: 100ms, 10s, 2.783s, 1min 30s. */
export function formatSpan(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(3)}s`;
  const min = Math.floor(ms / 60_000);
  const rest = ms - min * 60_000;
  return rest ? `${min}min ${+(rest / 1000).toFixed(3)}s` : `${min}min`;
}
const fmt = formatSpan;

/** A line of the journal (or systemctl's command line, the unit's settings), quoted as it is. */
const journal = (line: string) => systemdNote('systemd.journal', { line });

/** Lines in the words of systemd's journal where it has them. */
function noteFor(ctx: SystemdContext, event: EventObject): SystemdNote | undefined {
  const u = ctx.unit;
  const type = event.type;
  if (type === 'xstate.init') {
    const extra = [
      u.type !== 'simple' ? ` Type=${u.type}` : '',
      u.remainAfterExit ? ' RemainAfterExit=yes' : '',
      u.watchdogMs ? ` WatchdogSec=${fmt(u.watchdogMs)}` : '',
      u.timeoutStartMs !== null && u.type === 'oneshot' ? ` TimeoutStartSec=${fmt(u.timeoutStartMs)}` : '',
      u.runtimeMaxMs !== null ? ` RuntimeMaxSec=${fmt(u.runtimeMaxMs)}` : '',
      u.restartMode !== 'normal' ? ` RestartMode=${u.restartMode}` : '',
      u.restartRandomizedDelayMs ? ` RestartRandomizedDelaySec=${fmt(u.restartRandomizedDelayMs)}` : '',
      u.oomPolicy !== 'stop' ? ` OOMPolicy=${u.oomPolicy}` : '',
    ].join('');
    return journal(
      `${u.name}: Restart=${u.restart} RestartSec=${fmt(u.restartSecMs)} StartLimitIntervalSec=${fmt(u.startLimitIntervalMs)} StartLimitBurst=${u.startLimitBurst}${extra}`,
    );
  }
  if (type === 'xstate.done.actor.readClock') {
    if (ctx.result === 'start-limit-hit')
      return systemdNote('systemd.startLimitHit', {
        unit: u.name,
        starts: ctx.startLimit.num,
        interval: fmt(u.startLimitIntervalMs),
        burst: u.startLimitBurst,
      });
    // service_start() in AUTO_RESTART → service_enter_restart(shortcut=true).
    if (ctx.hurry)
      return journal(`${u.name}: Scheduled restart job immediately on client request, restart counter is at ${ctx.nRestarts}.`);
    return undefined;
  }
  if (type.startsWith('xstate.after.compareTime') && ctx.result === 'start-limit-hit')
    return journal(`${u.name}: Failed with result 'start-limit-hit'.`);
  if (type === 'xstate.done.actor.spawnMain')
    return systemdNote('systemd.started', { unit: u.name, pid: ctx.mainPid, restarts: ctx.nRestarts });
  if (type === 'xstate.done.actor.watchMain' || type === 'xstate.done.actor.signalMain') {
    const out = (event as { output?: { kind?: string; exit?: unknown } }).output; // cast: watchMain/signalMain's done events carry their outputs
    if (out?.kind === 'hung')
      return systemdNote('systemd.hung', { pid: ctx.mainPid, watchdog: u.watchdogMs && u.type === 'simple' ? fmt(u.watchdogMs) : null });
    if (out !== undefined && 'exit' in out && out.exit === null) return systemdNote('systemd.caughtSignal', { pid: ctx.mainPid });
    if (!ctx.lastExit || !ctx.decision) return undefined;
    const oom = out?.kind === 'oom' ? `A process of this unit has been killed by the OOM killer (OOMPolicy=${u.oomPolicy}). ` : '';
    const head = { exit: `${oom}Main process exited, ${describeExit(ctx.lastExit)}`, result: ctx.result };
    const d = ctx.decision;
    if (d.reason === 'manual stop') return systemdNote('systemd.exitedManualStop', head);
    if (u.remainAfterExit && ctx.result === 'success' && !d.restart) return systemdNote('systemd.exitedRemains', head);
    const why = { ...head, reason: d.reason, restart: u.restart };
    return d.restart
      ? systemdNote('systemd.exitedRestart', {
          ...why,
          delay: { delay: fmt(ctx.nextRestartDelayMs), random: u.restartRandomizedDelayMs > 0, direct: u.restartMode === 'direct' },
        })
      : systemdNote('systemd.exitedNoRestart', why);
  }
  if (type === 'xstate.done.actor.drawRestartDelay')
    return systemdNote('systemd.randomDelay', {
      setting: `RestartRandomizedDelaySec=${fmt(u.restartRandomizedDelayMs)}`,
      delay: fmt(ctx.nextRestartDelayMs),
    });
  if (type.startsWith('xstate.after.restartDelay'))
    return journal(`${u.name}: Scheduled restart job, restart counter is at ${ctx.nRestarts}.`);
  if (type.startsWith('xstate.after.watchdog'))
    return journal(`${u.name}: Watchdog timeout (limit ${fmt(u.watchdogMs)})! Killing process with signal SIGABRT.`);
  if (type.startsWith('xstate.after.startTimeout')) return journal(`${u.name}: start operation timed out. Terminating.`);
  if (type.startsWith('xstate.after.runtimeMax')) return journal(`${u.name}: Service reached runtime time limit. Stopping.`);
  if (type.startsWith('xstate.after.stopTimeout')) return journal(`${u.name}: State 'stop-sigterm' timed out. Killing.`);
  if (type.startsWith('SYSTEMCTL.')) {
    const signal = (event as { signal?: string }).signal; // cast: SYSTEMCTL.KILL carries signal, other verbs none
    return journal(`systemctl ${type.slice(10).toLowerCase().replace('_', '-')}${signal ? ` --signal=${signal}` : ''} ${u.name}`);
  }
  if (type === 'CONFIG.UPDATE')
    return systemdNote('systemd.unitEdited', {
      settings: `Restart=${u.restart} RestartSec=${fmt(u.restartSecMs)} StartLimitIntervalSec=${fmt(u.startLimitIntervalMs)}`,
    });
  if (type.startsWith('xstate.error.actor.')) return systemdNote('systemd.error', { error: ctx.lastError ?? 'unknown' });
  return undefined;
}

// systemd time spans (systemd.time(7)): a bare number means seconds; "infinity" is allowed where noted.
const SPAN_ERROR = 'expected a time span like "100ms", "10s", "5min", "1h" or a number of seconds';
function parseSpan(v: string | number, allowInfinity: boolean): number | null | 'bad' {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v * 1000) : 'bad';
  const s = v.trim();
  if (allowInfinity && s === 'infinity') return null;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const ms = parseDuration(s.replace(/min/g, 'm').replace(/sec/g, 's').replace(/\s+/g, ''));
  return ms === null ? 'bad' : ms;
}
const span = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const ms = parseSpan(v, false);
  if (ms === 'bad' || ms === null) {
    ctx.addIssue({ code: 'custom', message: `${SPAN_ERROR}, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});
const spanOrInfinity = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const ms = parseSpan(v, true);
  if (ms === 'bad') {
    ctx.addIssue({ code: 'custom', message: `${SPAN_ERROR} or "infinity", got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});
/** Timeouts: parse_sec_fix_0() — "infinity" and 0 both switch the timeout off (null). */
const timeoutSpan = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const ms = parseSpan(v, true);
  if (ms === 'bad') {
    ctx.addIssue({ code: 'custom', message: `${SPAN_ERROR} or "infinity", got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms === 0 ? null : ms;
});
/** RuntimeMaxSec=: a positive span or "infinity". */
const runtimeSpan = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const ms = parseSpan(v, true);
  if (ms === 'bad' || ms === 0) {
    ctx.addIssue({ code: 'custom', message: `expected a time span > 0 like "30s" or "infinity", got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});
/** A unit file boolean (systemd parse_boolean): yes/no, true/false, on/off, 1/0. */
const unitBoolean = z.union([z.boolean(), z.string(), z.number()]).transform((v, ctx) => {
  const s = String(v).trim().toLowerCase();
  if (['yes', 'true', 'on', '1', 'y', 't'].includes(s)) return true;
  if (['no', 'false', 'off', '0', 'n', 'f'].includes(s)) return false;
  ctx.addIssue({ code: 'custom', message: `expected a boolean (yes or no), got ${JSON.stringify(v)}` });
  return z.NEVER;
});
const signalName = z.string().refine((s) => KNOWN_SIGNALS.includes(s), { error: `expected a signal name (${KNOWN_SIGNALS.join(', ')})` });
/** RestartPreventExitStatus= and friends: space-separated exit codes (0–255) and signal names. */
const statusSet = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]).transform((v, ctx): ExitStatusSet => {
  const words = (Array.isArray(v) ? v : [v]).flatMap((w) => String(w).trim().split(/\s+/)).filter(Boolean);
  const set: ExitStatusSet = { codes: [], signals: [] };
  for (const w of words) {
    if (/^\d+$/.test(w) && Number(w) <= 255) set.codes.push(Number(w));
    else if (KNOWN_SIGNALS.includes(w)) set.signals.push(w);
    else ctx.addIssue({ code: 'custom', message: `expected exit codes 0–255 and signal names like SIGABRT, got ${JSON.stringify(w)}` });
  }
  return set;
});
const count = z
  .number({ error: 'expected a whole number ≥ 0' })
  .int({ error: 'expected a whole number ≥ 0' })
  .min(0, { error: 'expected a whole number ≥ 0' });

/** The unit file's keys, spelled as in systemd.service(5) / systemd.unit(5). */
const unitSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9:_.@-]+\.service$/, { error: 'expected a unit name ending in .service' })
    .optional(),
  Type: z.enum(SERVICE_TYPES, { error: `expected one of ${SERVICE_TYPES.join(', ')} (the types the model has)` }).optional(),
  RemainAfterExit: unitBoolean.optional(),
  Restart: z.enum(RESTART_SETTINGS, { error: `expected one of ${RESTART_SETTINGS.join(', ')}` }).optional(),
  RestartMode: z.enum(RESTART_MODES, { error: `expected one of ${RESTART_MODES.join(', ')}` }).optional(),
  RestartRandomizedDelaySec: span.optional(),
  RestartSec: span.optional(),
  RestartSteps: count.optional(),
  RestartMaxDelaySec: spanOrInfinity.optional(),
  RestartPreventExitStatus: statusSet.optional(),
  RestartForceExitStatus: statusSet.optional(),
  SuccessExitStatus: statusSet.optional(),
  StartLimitIntervalSec: span.optional(),
  StartLimitBurst: count.optional(),
  WatchdogSec: span.optional(),
  TimeoutStartSec: timeoutSpan.optional(),
  TimeoutStopSec: timeoutSpan.optional(),
  /** TimeoutSec= sets both (systemd.service(5)); the specific keys win. */
  TimeoutSec: timeoutSpan.optional(),
  RuntimeMaxSec: runtimeSpan.optional(),
  KillSignal: signalName.optional(),
  FinalKillSignal: z
    .string()
    .refine((s) => FINAL_KILL_SIGNALS.includes(s), {
      error: `expected a signal no process can survive in the model (${FINAL_KILL_SIGNALS.join(', ')})`,
    })
    .optional(),
  OOMPolicy: z.enum(OOM_POLICIES, { error: `expected one of ${OOM_POLICIES.join(', ')}` }).optional(),
  enabled: z.boolean({ error: 'expected true or false' }).optional(),
});

const catchable = z
  .string()
  .refine((s) => CATCHABLE_SIGNALS.includes(s), { error: `expected a signal a program can catch (${CATCHABLE_SIGNALS.join(', ')})` });
const runSchema = z
  .strictObject({
    runFor: durationField,
    exit: z.number().int().min(0).max(255, { error: 'expected an exit code 0–255' }).optional(),
    signal: signalName.optional(),
    hang: z.literal(true, { error: 'expected true' }).optional(),
    /** The kernel's OOM killer ends it (SIGKILL, with an oom_kill event for the unit's cgroup). */
    oom: z.literal(true, { error: 'expected true' }).optional(),
    /** Signals it catches and keeps running on (a daemon with a SIGTERM handler that never exits). */
    ignore: z
      .union([catchable, z.array(catchable)])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .optional(),
  })
  .refine((r) => [r.exit, r.signal, r.hang, r.oom].filter((x) => x !== undefined).length === 1, {
    error: 'expected exactly one of exit, signal, hang or oom',
  });

const programSchema = z.strictObject({
  script: z.array(runSchema, { error: 'expected a list of runs' }).optional(),
  then: runSchema,
  jitter: durationField.optional(),
});

const VERBS = ['start', 'stop', 'restart', 'reset-failed', 'kill'] as const;
const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    program: programSchema.optional(),
    systemctl: z.enum(VERBS, { error: `expected one of ${VERBS.join(', ')}` }).optional(),
    signal: signalName.optional(),
    unit: unitSchema.optional(),
  })
  .refine((e) => [e.program, e.systemctl, e.unit].filter((x) => x !== undefined).length === 1, {
    error: 'expected "at" and exactly one change (program, systemctl or unit)',
  })
  .refine((e) => e.signal === undefined || e.systemctl === 'kill', { error: '"signal" goes with systemctl: kill' });

const systemdScenarioSchema = z.strictObject({
  ...headerShape('systemd-restart'),
  unit: unitSchema.optional(),
  program: programSchema,
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

type UnitFile = z.output<typeof unitSchema>;

function toUnit(file: UnitFile, base: UnitConfig): UnitConfig {
  const u: UnitConfig = { ...base };
  if (file.name !== undefined) u.name = file.name;
  if (file.Type !== undefined) u.type = file.Type;
  if (file.RemainAfterExit !== undefined) u.remainAfterExit = file.RemainAfterExit;
  if (file.Restart !== undefined) u.restart = file.Restart;
  if (file.RestartMode !== undefined) u.restartMode = file.RestartMode;
  if (file.RestartRandomizedDelaySec !== undefined) u.restartRandomizedDelayMs = file.RestartRandomizedDelaySec;
  if (file.TimeoutSec !== undefined) {
    u.timeoutStartMs = file.TimeoutSec;
    u.timeoutStopMs = file.TimeoutSec;
  }
  if (file.TimeoutStartSec !== undefined) u.timeoutStartMs = file.TimeoutStartSec;
  if (file.TimeoutStopSec !== undefined) u.timeoutStopMs = file.TimeoutStopSec;
  if (file.RuntimeMaxSec !== undefined) u.runtimeMaxMs = file.RuntimeMaxSec;
  if (file.KillSignal !== undefined) u.killSignal = file.KillSignal;
  if (file.FinalKillSignal !== undefined) u.finalKillSignal = file.FinalKillSignal;
  if (file.OOMPolicy !== undefined) u.oomPolicy = file.OOMPolicy;
  if (file.RestartSec !== undefined) u.restartSecMs = file.RestartSec;
  if (file.RestartSteps !== undefined) u.restartSteps = file.RestartSteps;
  if (file.RestartMaxDelaySec !== undefined) u.restartMaxDelayMs = file.RestartMaxDelaySec;
  if (file.RestartPreventExitStatus !== undefined) u.restartPreventExitStatus = file.RestartPreventExitStatus;
  if (file.RestartForceExitStatus !== undefined) u.restartForceExitStatus = file.RestartForceExitStatus;
  if (file.SuccessExitStatus !== undefined) u.successExitStatus = file.SuccessExitStatus;
  if (file.StartLimitIntervalSec !== undefined) u.startLimitIntervalMs = file.StartLimitIntervalSec;
  if (file.StartLimitBurst !== undefined) u.startLimitBurst = file.StartLimitBurst;
  if (file.WatchdogSec !== undefined) u.watchdogMs = file.WatchdogSec;
  if (file.enabled !== undefined) u.enabled = file.enabled;
  return u;
}

function toRun(r: z.output<typeof runSchema>): RunSpec {
  const outcome: RunSpec['outcome'] =
    r.exit !== undefined
      ? { kind: 'exit', code: r.exit }
      : r.signal !== undefined
        ? { kind: 'signal', signal: r.signal }
        : r.oom
          ? { kind: 'oom' }
          : { kind: 'hang' };
  return r.ignore?.length ? { runForMs: r.runFor, outcome, ignore: r.ignore } : { runForMs: r.runFor, outcome };
}
const toProgram = (p: z.output<typeof programSchema>): Program => ({
  script: (p.script ?? []).map(toRun),
  then: toRun(p.then),
  jitterMs: p.jitter ?? 0,
});

export interface SystemdScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: SystemdConfig;
  world: SystemdWorld;
  timeline: TimelineEntry<SystemdFault, SystemdConfig>[];
}

/** Validates a parsed scenario document; throws InputErrors naming file and field. */
export function parseSystemdScenario(file: string, name: string, doc: unknown, seedOverride?: number): SystemdScenario {
  const parsed = systemdScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const header = headerOf(file, name, s, seedOverride, 10 * 60_000);
  const { seed } = header;
  const unit = toUnit(s.unit ?? {}, DEFAULT_UNIT);
  const problems = unitProblems(unit).map((p) => new InputError(file, `unit.${p.field}`, p.expected));
  if (problems.length) throw new InputErrors(problems);
  let running = unit;
  const timeline = (s.timeline ?? []).map((e, idx): TimelineEntry<SystemdFault, SystemdConfig> => {
    if (e.program) return { at: e.at, fault: { kind: 'program', program: toProgram(e.program) } };
    if (e.systemctl)
      return { at: e.at, fault: { kind: 'systemctl', request: { verb: e.systemctl, ...(e.signal ? { signal: e.signal } : {}) } } };
    running = toUnit(e.unit!, running);
    const bad = unitProblems(running).map((p) => new InputError(file, `timeline[${idx}].unit.${p.field}`, p.expected));
    if (bad.length) throw new InputErrors(bad);
    return { at: e.at, config: { unit: running } };
  });
  return {
    ...header,
    config: { unit },
    world: createSystemdWorld(seed, toProgram(s.program)),
    timeline,
  };
}

/** Rules systemd itself enforces when loading a unit (service_verify()). */
function unitProblems(u: UnitConfig): { field: string; expected: string }[] {
  const out: { field: string; expected: string }[] = [];
  if (u.restartMaxDelayMs !== null && u.restartSteps > 0 && u.restartMaxDelayMs < u.restartSecMs) {
    out.push({ field: 'RestartMaxDelaySec', expected: `expected RestartMaxDelaySec ≥ RestartSec (${u.restartSecMs}ms)` });
  }
  // "Service has Restart= set to either always or on-success, which isn't allowed for Type=oneshot services. Refusing."
  if (u.type === 'oneshot' && (u.restart === 'always' || u.restart === 'on-success')) {
    out.push({
      field: 'Restart',
      expected: `expected Restart= other than always or on-success with Type=oneshot (systemd refuses to load the unit), got ${u.restart}`,
    });
  }
  return out;
}

/** Keys whose values are whole numbers or booleans in the unit schema (a unit file has only text). */
const COUNT_KEYS = new Set(['RestartSteps', 'StartLimitBurst']);

/**
 * An edited unit file's `Key=value` lines (the lab's editor), validated by the same schema and
 * service_verify() rules as a scenario's `unit:`; returns the unit a timeline `unit:` entry
 * would carry, or every problem as "file: field: expectation".
 */
export function parseUnitKeys(
  file: string,
  keys: Record<string, string>,
  running: UnitConfig,
): { ok: true; unit: UnitConfig } | { ok: false; errors: string[] } {
  const doc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(keys)) {
    doc[k] = COUNT_KEYS.has(k) && /^\d+$/.test(v) ? Number(v) : k === 'enabled' && (v === 'true' || v === 'false') ? v === 'true' : v;
  }
  const parsed = unitSchema.safeParse(doc);
  if (!parsed.success) return { ok: false, errors: issuesToErrors(file, '', parsed.error).map((e) => e.message) };
  const unit = toUnit(parsed.data, running);
  const problems = unitProblems(unit).map((p) => new InputError(file, p.field, p.expected).message);
  return problems.length ? { ok: false, errors: problems } : { ok: true, unit };
}
