// The shape of the ITF traces loopscope writes (Apalache's ADR-015 "Informal Trace Format"): the
// trace object, the variables of each state (one state per frame) and the #meta keys, shared by
// the export and the import. Browser-safe.
import type { ItfRecord, ItfValue } from './values';

/** Where the format is described; Apalache's own ITF writer names the same page in its #meta. */
export const ITF_FORMAT_DESCRIPTION = 'https://apalache.informal.systems/docs/adr/015adr-trace.html';

/** A state: its #meta (its index) and one value per variable. */
export interface ItfState {
  '#meta': { index: number };
  [variable: string]: ItfValue | { index: number };
}

/** The trace object (ADR-015): `loop`, when present, is the index of the state the lasso returns to. */
export interface ItfTrace {
  '#meta': ItfTraceMeta;
  vars: string[];
  states: ItfState[];
  loop?: number;
}

interface ItfTraceMeta {
  format: 'ITF';
  'format-description': string;
  /** The scenario file when it is known (check --out), else the trace's scenario name. */
  source: string;
  description: string;
  /** How numbers and null are written (see values.ts), for a reader of the file. */
  encoding: string;
  /** The trace's header as an ITF record: what the import needs to rebuild the loopscope trace. */
  loopscope: ItfRecord;
}

export const ENCODING_NOTE =
  'integers as #bigint; a non-integer x as #tup ["decimal", m, e] meaning m × 10^e exactly; ' +
  'null as #tup ["null"]; t_ms is the frame\'s time in milliseconds; notes are the frame\'s note split at " · " ([] when it has none); ' +
  "messages: the frame's note as a message { key, params } in a list ([] when it has none)";

/** The variables of every state, in the order written (`controller` only when every frame has one: version 1 traces have none;
 * `messages` only when some frame's note is a message: older traces have none). */
export const VARS = {
  t: 't_ms',
  state: 'state',
  phase: 'phase',
  event: 'event',
  notes: 'notes',
  world: 'world',
  controller: 'controller',
  messages: 'messages',
} as const;

/** How a frame's note (marks joined by " · ", sim/check/counterexample.ts) is split into the `notes` list. */
export const NOTE_SEPARATOR = ' · ';
