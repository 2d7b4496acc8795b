// Which answer of the simulated world (sim/worlds/incus-hpa.ts) a real actor's answer stands for.
// The model has three failures: "Incus API unavailable (injected failure)" (the failApi fault: any
// API call may fail), "Instance not found: <name>" (deleted from outside) and "Instance is running"
// (a DELETE sent before the stop ended). Real mode's own guards (not the leader, not ours any more,
// not the instance decided on — real/hpa-actors.ts) refuse an act before the world is asked.
import type { IoError } from '../trace-io';

export type ModelErrorClass = 'api' | 'not-found' | 'running';
export type RealErrorClass = ModelErrorClass | 'guard' | 'other';

/** real/run-facts.ts ErrorKind values that are an API call failing (the model's failApi). */
const API_KINDS = new Set(['unreachable', 'timeout', 'forbidden', 'operation', 'api']);
const GUARD_KINDS = new Set(['not_leader', 'ownership', 'identity']);

export function realErrorClass(error: IoError): RealErrorClass {
  const text = error.server ?? error.message;
  if (error.kind === 'not_found' || /\bnot found\b/i.test(text)) return 'not-found';
  if (/\bis running\b/i.test(text)) return 'running';
  if (API_KINDS.has(error.kind)) return 'api';
  if (GUARD_KINDS.has(error.kind)) return 'guard';
  return 'other';
}

export function modelErrorClass(message: string): ModelErrorClass {
  if (/^Instance not found/.test(message)) return 'not-found';
  if (message === 'Instance is running') return 'running';
  return 'api';
}

export const CLASS_WORDS: Record<RealErrorClass, string> = {
  api: 'an API call failed',
  'not-found': 'not found',
  running: '"Instance is running"',
  guard: "refused by real mode's guard",
  other: 'not an Incus API failure',
};
