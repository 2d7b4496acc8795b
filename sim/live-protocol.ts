// The live-mode protocol between `loopscope real --live` (real/live-server.ts) and the web lab
// (web/live/). Browser-safe: types and pure helpers only, JSON over one WebSocket. In sim/, below
// both ends: the lab never imports real/ (undici, sockets), and real/ never imports web/.
import type { Decision, HpaConfig, Observation } from '../machines/incus-hpa';
import type { Frame } from './trace';
import type { HpaWorldSummary } from './worlds/incus-hpa';

export type LiveFrame = Frame<HpaWorldSummary>;

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

export type ServerMessage =
  | {
    type: 'hello';
    loop: 'incus-hpa';
    /** The machine's id, so the lab draws the statechart of incusHpaMachine. */
    machine: string;
    scenario: string;
    endpoint: string;
    config: HpaConfig;
    step: boolean;
    dryRun: boolean;
    /** The frames recorded before this connection (the runner's window). */
    frames: LiveFrame[];
    pending: LivePending | null;
  }
  | { type: 'frame'; frame: LiveFrame }
  | { type: 'pending'; pending: LivePending }
  | { type: 'resolved'; id: number; verdict: 'approve' | 'skip'; by: 'terminal' | 'browser' | 'shutdown' }
  | { type: 'error'; message: string };

export type ClientMessage = { type: 'approve' | 'skip'; id: number };

/** Parses a browser's message; null when it is not one the server accepts. */
export function parseClientMessage(text: string): ClientMessage | null {
  let doc: unknown;
  try { doc = JSON.parse(text); } catch { return null; }
  if (typeof doc !== 'object' || doc === null) return null;
  const { type, id } = doc as { type?: unknown; id?: unknown };
  if ((type !== 'approve' && type !== 'skip') || typeof id !== 'number' || !Number.isInteger(id)) return null;
  return { type, id };
}

/** Hosts a live URL may name: this machine only (the lab makes no request elsewhere). */
export const LIVE_HOSTS: readonly string[] = ['127.0.0.1'];
