// What one recorded frame of a real run means for operations, as data: the metrics (metrics.ts) and
// the JSON log (run-log.ts) read these instead of parsing the human notes.
import { NotLeaderError, OwnershipError } from './hpa-actors';
import { IdentityChangedError } from './identity';
import { IncusConnectionError, IncusError, IncusForbiddenError, IncusNotFoundError, IncusOperationError, IncusTimeoutError } from './incus';

export type ActKind = 'create' | 'delete';
export type ActOutcome = 'done' | 'error' | 'dry_run' | 'skipped';
export type Verdict = 'scale_up' | 'scale_down' | 'repair' | 'hold';
/** A bounded set (a metric label): what kind of failure, never the message. */
export type ErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'forbidden'
  | 'not_found'
  | 'operation'
  | 'api'
  | 'ownership'
  | 'identity'
  | 'not_leader'
  | 'policy'
  | 'other';
export type ErrorActor = 'observe' | 'create' | 'delete' | 'policy';

export interface FrameFacts {
  /** The period this frame belongs to (1 = the first observe of this run). */
  period: number;
  /**
   * The machine took an event here: the frame of a root snapshot XState's inspection reports. Absent
   * on the runner's own frames (adopting what a previous run left, a note, a lost lease).
   */
  taken?: true;
  /** A period began here (the loop entered observing). */
  periodStarted?: boolean;
  /** A period ended here: it reached the wait (done) or the backoff (error). */
  periodEnded?: 'done' | 'error';
  /** This frame ends an observe that took this long (ms). */
  observeMs?: number;
  /** This frame records a decision (an observe answered and the policy decided). */
  verdict?: Verdict;
  /** This frame ends an act. */
  act?: { kind: ActKind; instance?: string; outcome: ActOutcome };
  /** This frame records a failure. */
  error?: { actor: ErrorActor; kind: ErrorKind };
}

/** A decision's class from its numbers (the policy's own verdict text is free-form). */
export function verdictOf(decision: { running: number; desired: number; actions: readonly unknown[] }): Verdict {
  if (decision.actions.length === 0) return 'hold';
  if (decision.desired > decision.running) return 'scale_up';
  if (decision.desired < decision.running) return 'scale_down';
  return 'repair'; // acts without changing the count: a stopped pod replaced, an extra one removed
}

export function errorKind(error: unknown): ErrorKind {
  if (error instanceof OwnershipError) return 'ownership';
  if (error instanceof IdentityChangedError) return 'identity';
  if (error instanceof NotLeaderError) return 'not_leader';
  if (error instanceof IncusConnectionError) return 'unreachable';
  if (error instanceof IncusTimeoutError) return 'timeout';
  if (error instanceof IncusForbiddenError) return 'forbidden';
  if (error instanceof IncusNotFoundError) return 'not_found';
  if (error instanceof IncusOperationError) return 'operation';
  if (error instanceof IncusError) return 'api';
  return 'other';
}

/** An act's outcome from the runner's "not done" note (dry run, skipped by the operator). */
export function outcomeOf(notDone: string | undefined): ActOutcome {
  if (notDone === undefined) return 'done';
  return notDone.startsWith('dry run') ? 'dry_run' : 'skipped';
}
