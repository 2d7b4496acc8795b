// The project's data types the API hands out, each named and documented here, where a user of the
// package reads them (their definitions stay where the simulator, checker and conform keep them).
import type { ExploreStats as SearchStats, StopReason as SearchStop, VerdictStatus as Status } from '../sim/check/model';
import type { PropertyKind as Kind } from '../sim/check/model';
import type { Outcome as VerdictOutcome } from '../sim/check/outcome';
import type { ConformReport as Report, Divergence as FirstDivergence } from '../sim/conform/conform';
import type { DivergencePart as Part } from '../sim/conform/diverged';
import type { PropertyResult as Monitored } from '../sim/conform/monitors';
import type { EnvMoveUsed as OutsideMove } from '../sim/conform/world';
import type { LoopId as Loop } from '../sim/loops/define';
import type { Frame as TraceFrame, Phase as LoopPhase, Trace as LoopTrace } from '../sim/trace';
import type { ControllerSummary as Summary } from '../sim/loop-schemas';

/** The loops loopscope knows: cron, puppet, systemd-restart, terraform, kubernetes, incus-hpa. */
export type LoopId = Loop;
/** A run, frame by frame: what `loopscope sim --json` and `real --out` write and the lab loads (version 2). */
export type Trace<W = unknown> = LoopTrace<W>;
/** One step of a trace: the time, the machine's state and phase, the event, the world and the controller's view. */
export type Frame<W = unknown> = TraceFrame<W>;
/** Where in observe → compare → act the loop is (or waiting, or in error). */
export type Phase = LoopPhase;
/** What a frame's controller observed, compared and decided, for each loop: narrow it on `loop`. */
export type ControllerSummary = Summary;

/** A check's numbers: states generated and distinct, depth, why it stopped, time and memory. */
export type ExploreStats = SearchStats;
/** Why a search stopped: it ran out of states, or a bound, a limit or the signal stopped it. */
export type StopReason = SearchStop;
/** A property's verdict: holds, violated, or unknown (a bound was reached first). */
export type VerdictStatus = Status;
/** How a property quantifies over runs: always, sometimes, eventually, eventually-always, leads-to. */
export type PropertyKind = Kind;
/** What a verdict means for the check: a violated property the configuration does not promise is a finding. */
export type Outcome = VerdictOutcome;

/** The conformance of a real run: the first divergence (if any), what was replayed, the property monitors. */
export type ConformReport = Report;
/** Where a real run first left the model: the frame, what was recorded, what the model allowed instead. */
export type Divergence = FirstDivergence;
/** Which side diverged: the controller, the world, or a property. */
export type DivergencePart = Part;
/** A property monitored over a real run: held, violated (at which frame), or not monitored (and why). */
export type PropertyResult = Monitored;
/** A move of the environment's fault vocabulary the model needed to explain a real run. */
export type EnvMoveUsed = OutsideMove;
