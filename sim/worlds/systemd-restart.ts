import type {
  DrawInput,
  ProcessExit,
  SignalInput,
  SignalOutput,
  SpawnInput,
  SystemctlRequest,
  WatchInput,
  WatchOutput,
} from '../../machines/systemd-restart';
import { CATCHABLE_SIGNALS, exitFor } from '../../machines/systemd-restart';
import type { OpResult, WorldModel } from '../model';
import type { RngState } from '../random';
import { drawInt, seedRng } from '../random';
import type { NextRun, SystemdNote } from '../notes/systemd';
import { systemdNote } from '../notes/systemd';
import type { SystemdMonitor } from './systemd-restart-monitor';
import { EMPTY_MONITOR } from './systemd-restart-monitor';
import type { SystemdWorldSummary } from '../loops/systemd-restart-world-schema';

/**
 * How one run of the program ends, after how long: an exit code, a signal, a hang (it stops
 * answering but never exits), or the kernel's OOM killer (SIGKILL, with an oom_kill event).
 */
export type RunOutcome = { kind: 'exit'; code: number } | { kind: 'signal'; signal: string } | { kind: 'hang' } | { kind: 'oom' };
/** `ignore`: signals the program catches and keeps running on (CATCHABLE_SIGNALS only). */
export interface RunSpec {
  runForMs: number;
  outcome: RunOutcome;
  ignore?: readonly string[];
}

/** The program ExecStart= runs: a script of runs consumed by successive starts, then `then` forever. */
export interface Program {
  script: RunSpec[];
  then: RunSpec;
  /** Extra run time drawn uniformly from [0, jitterMs] with the world's rng. */
  jitterMs: number;
}

export interface MainProcess {
  pid: number;
  startedAt: number;
  endsAt: number;
  outcome: RunOutcome;
  hung: boolean;
  ignore: readonly string[];
}

type PendingOp =
  | { id: number; kind: 'spawn'; pid: number }
  | { id: number; kind: 'watch'; pid: number }
  | { id: number; kind: 'signal'; pid: number; signal: string }
  | { id: number; kind: 'clock' }
  | { id: number; kind: 'draw'; value: number };

export interface ExitRecord {
  at: number;
  pid: number;
  exit: ProcessExit;
}

export interface SystemdWorld {
  rng: RngState;
  program: Program;
  /** Index into the script of the next start. */
  runIndex: number;
  process: MainProcess | null;
  nextPid: number;
  nextOpId: number;
  ops: PendingOp[];
  /** Counters the lab draws: every exec, and runs that exited cleanly (the HPA's periods). */
  starts: number;
  cleanExits: number;
  exits: ExitRecord[];
  /** What the properties remember (sim/worlds/systemd-restart-monitor.ts); not in the summary. */
  monitor: SystemdMonitor;
}

/** A deploy (the world: the program that runs) or an operator's systemctl command (for the machine). */
export type SystemdFault = { kind: 'program'; program: Program } | { kind: 'systemctl'; request: SystemctlRequest };

export function createSystemdWorld(seed: number, program: Program): SystemdWorld {
  return {
    rng: seedRng(seed),
    program,
    runIndex: 0,
    process: null,
    nextPid: 1000,
    nextOpId: 1,
    ops: [],
    starts: 0,
    cleanExits: 0,
    exits: [],
    monitor: EMPTY_MONITOR,
  };
}

const KEEP_EXITS = 6;

function exitOf(outcome: RunOutcome): ProcessExit {
  if (outcome.kind === 'exit') return { kind: 'exited', code: outcome.code };
  if (outcome.kind === 'signal') return exitFor(outcome.signal);
  if (outcome.kind === 'oom') return exitFor('SIGKILL');
  throw new Error('a hung process has no exit');
}

function recordExit(world: SystemdWorld, pid: number, exit: ProcessExit, t: number): SystemdWorld {
  const clean = exit.kind === 'exited' && exit.code === 0;
  return {
    ...world,
    process: null,
    cleanExits: world.cleanExits + (clean ? 1 : 0),
    exits: [...world.exits, { at: t, pid, exit }].slice(-KEEP_EXITS),
  };
}

function begin(world0: SystemdWorld, src: string, input: unknown, t: number) {
  const id = world0.nextOpId;
  let world: SystemdWorld = { ...world0, nextOpId: id + 1 };
  const add = (op: PendingOp, doneAt: number) => ({ world: { ...world, ops: [...world.ops, op] }, opId: id, doneAt });
  if (src === 'readClock') return add({ id, kind: 'clock' }, t);
  if (src === 'spawnMain') {
    void (input as SpawnInput); // cast: setup() types spawnMain's input
    const spec = world.program.script[world.runIndex] ?? world.program.then;
    let extra = 0;
    if (world.program.jitterMs > 0) {
      const [value, rng] = drawInt(world.rng, 0, world.program.jitterMs);
      extra = value;
      world = { ...world, rng };
    }
    const pid = world.nextPid;
    // Type=simple: the unit is started as soon as fork() returned.
    world = {
      ...world,
      runIndex: world.runIndex + 1,
      nextPid: pid + 1,
      starts: world.starts + 1,
      process: { pid, startedAt: t, endsAt: t + spec.runForMs + extra, outcome: spec.outcome, hung: false, ignore: spec.ignore ?? [] },
    };
    return add({ id, kind: 'spawn', pid }, t);
  }
  if (src === 'watchMain') {
    const { pid } = input as WatchInput; // cast: setup() types watchMain's input
    const p = world.process;
    // SIGCHLD (or the last WATCHDOG=1) arrives when the run ends; a process already hung (watched
    // again after a caught signal) is reported hung at once, and then not watched any more.
    const doneAt = p && p.pid === pid ? (p.hung ? t : p.endsAt) : Number.POSITIVE_INFINITY;
    return add({ id, kind: 'watch', pid }, doneAt);
  }
  if (src === 'signalMain') {
    const { pid, signal } = input as SignalInput; // cast: setup() types signalMain's input
    return add({ id, kind: 'signal', pid, signal }, t);
  }
  if (src === 'drawRestartDelay') {
    // random_u64_range(): uniform in [0, max]; drawn now, from the world's seeded generator.
    const { maxMs } = input as DrawInput; // cast: setup() types drawRestartDelay's input
    const [value, rng] = drawInt(world.rng, 0, maxMs);
    world = { ...world, rng };
    return add({ id, kind: 'draw', value }, t);
  }
  throw new Error(`systemd-restart world has no actor "${src}"`);
}

function complete(world0: SystemdWorld, opId: number, t: number): { world: SystemdWorld; result: OpResult } {
  const op = world0.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  let world: SystemdWorld = { ...world0, ops: world0.ops.filter((o) => o.id !== opId) };
  if (op.kind === 'clock') return { world, result: { ok: true, output: t } };
  if (op.kind === 'draw') return { world, result: { ok: true, output: op.value } };
  if (op.kind === 'spawn') return { world, result: { ok: true, output: { pid: op.pid } } };
  const p = world.process;
  if (op.kind === 'watch') {
    if (!p || p.pid !== op.pid) return { world, result: { ok: true, output: { kind: 'gone' } satisfies WatchOutput } };
    if (p.outcome.kind === 'hang') {
      world = { ...world, process: { ...p, hung: true } };
      return { world, result: { ok: true, output: { kind: 'hung' } satisfies WatchOutput } };
    }
    const exit = exitOf(p.outcome);
    const kind = p.outcome.kind === 'oom' ? 'oom' : 'exit';
    return { world: recordExit(world, p.pid, exit, t), result: { ok: true, output: { kind, exit } satisfies WatchOutput } };
  }
  if (!p || p.pid !== op.pid) return { world, result: { ok: false, error: `kill(${op.pid}, ${op.signal}): No such process` } };
  // A caught signal leaves the process running; any other ends it (default action: terminate or core).
  if (p.ignore.includes(op.signal) && CATCHABLE_SIGNALS.includes(op.signal))
    return { world, result: { ok: true, output: { exit: null } satisfies SignalOutput } };
  const exit = exitFor(op.signal);
  return { world: recordExit(world, p.pid, exit, t), result: { ok: true, output: { exit } satisfies SignalOutput } };
}

function inject(world: SystemdWorld, fault: SystemdFault): { world: SystemdWorld; note: SystemdNote } {
  // systemctl commands go to the machine (the binding's `command`), never to the world.
  if (fault.kind === 'systemctl') return { world, note: systemdNote('systemd.journal', { line: `systemctl ${fault.request.verb}` }) };
  const first = fault.program.script[0] ?? fault.program.then;
  return {
    world: { ...world, program: fault.program, runIndex: 0 },
    note: systemdNote('systemd.programReplaced', { run: nextRun(first) }),
  };
}

/** How a run ends, as the note's parameters (describeRun says the same in English). */
function nextRun(spec: RunSpec): NextRun {
  const o = spec.outcome;
  return {
    kind: o.kind,
    code: o.kind === 'exit' ? o.code : null,
    signal: o.kind === 'signal' ? o.signal : null,
    seconds: spec.runForMs / 1000,
    ignores: [...(spec.ignore ?? [])],
  };
}

export function describeRun(spec: RunSpec): string {
  const o = spec.outcome;
  const end =
    o.kind === 'exit' ? `exits ${o.code}` : o.kind === 'signal' ? `dies of ${o.signal}` : o.kind === 'oom' ? 'is OOM-killed' : 'hangs';
  const ignores = spec.ignore?.length ? ` (ignores ${spec.ignore.join(', ')})` : '';
  return `${end} after ${spec.runForMs / 1000}s${ignores}`;
}

function summary(world: SystemdWorld): SystemdWorldSummary {
  const p = world.process;
  return {
    main: p ? { pid: p.pid, since: p.startedAt, hung: p.hung } : null,
    starts: world.starts,
    cleanExits: world.cleanExits,
    exits: world.exits.map((e) => ({ at: e.at, pid: e.pid, how: e.exit.kind === 'exited' ? `exit ${e.exit.code}` : e.exit.signal })),
  };
}

export const systemdWorldModel: WorldModel<SystemdWorld, SystemdFault, SystemdWorldSummary> = {
  begin,
  complete,
  inject: (w, f) => inject(w, f),
  summary: (w) => summary(w),
};
