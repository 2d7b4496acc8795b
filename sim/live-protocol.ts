// The live socket of `loopscope real --live` (real/live-server.ts ↔ the lab's web/live/). It speaks
// XState's inspection protocol for the loop's machine — the `@xstate.actor`, `@xstate.event` and
// `@xstate.snapshot` messages `real --inspect` sends, from the same inspector — so any inspection
// receiver reads it. What that protocol has no place for travels beside it as a thin layer of
// messages typed `loopscope.*`: the run (its loop config), what each frame records beyond the
// machine's snapshot (the world summary: pods, memory; the controller's view), and the acts waiting
// for an operator in --step mode with the answers. Browser-safe: types and pure helpers only, JSON
// over one WebSocket. In sim/, below both ends: the lab never imports real/, real/ never imports web/.
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import type { Decision, HpaConfig, Observation } from '../machines/incus-hpa';
import type { Frame } from './trace';
import type { HpaWorldSummary } from './loops/incus-hpa-world-schema';

export type LiveFrame = Frame<HpaWorldSummary>;

/** A frame less its state and event: what it records that no inspection message carries. */
export type LiveFrameWorld = Omit<LiveFrame, 'state' | 'event'>;

/** An act waiting for an operator (--step): what was observed, how it compared, what comes next. */
export interface LivePending {
  id: number;
  kind: 'create' | 'delete';
  name: string;
  waitForStop?: boolean;
  observation: Observation | null;
  decision: Decision | null;
  /** The same text the terminal shows (real/step-prompt.ts describeAct). */
  text: string;
}

/** Sent first on every connection: the run itself, which no actor's snapshot describes. */
export interface LiveRunMessage {
  type: 'loopscope.run';
  loop: 'incus-hpa';
  scenario: string;
  endpoint: string;
  config: HpaConfig;
  step: boolean;
  dryRun: boolean;
}

/**
 * One frame of the run's trace. `of: 'snapshot'`: the frame of the root actor's `@xstate.snapshot`
 * sent just before this message (nothing comes between them), which gives its state and event.
 * `of: 'runner'`: a frame of the runner's own the machine did not take (adopting what a previous run
 * left, a note, a lost lease): no inspection message stands for it, so it carries its state and event.
 */
export type LiveFrameMessage =
  | { type: 'loopscope.frame'; of: 'snapshot'; sessionId: string; frame: LiveFrameWorld }
  | { type: 'loopscope.frame'; of: 'runner'; state: string; event: string; frame: LiveFrameWorld };

export type LiveLayerMessage =
  | LiveRunMessage
  | LiveFrameMessage
  | { type: 'loopscope.pending'; pending: LivePending }
  | { type: 'loopscope.resolved'; id: number; verdict: 'approve' | 'skip'; by: 'terminal' | 'browser' | 'shutdown' }
  | { type: 'loopscope.error'; message: string };

/** Everything the live socket sends. */
export type LiveServerMessage = StatelyInspectionEvent | LiveLayerMessage;

export type ClientMessage = { type: 'approve' | 'skip'; id: number };

/** Parses a browser's message; null when it is not one the server accepts. */
export function parseClientMessage(text: string): ClientMessage | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null) return null;
  const { type, id } = doc as { type?: unknown; id?: unknown }; // fields read only to be checked next
  if ((type !== 'approve' && type !== 'skip') || typeof id !== 'number' || !Number.isInteger(id)) return null;
  return { type, id };
}

const LAYER_TYPES = new Set<string>(['loopscope.run', 'loopscope.frame', 'loopscope.pending', 'loopscope.resolved', 'loopscope.error']);

/** A message of the thin layer, by its type (its fields are checked where they are read). */
export function isLayerMessage(m: unknown): m is LiveLayerMessage {
  return typeof m === 'object' && m !== null && 'type' in m && typeof m.type === 'string' && LAYER_TYPES.has(m.type);
}

/** Hosts a live URL may name: this machine only (the lab makes no request elsewhere). */
export const LIVE_HOSTS: readonly string[] = ['127.0.0.1'];
