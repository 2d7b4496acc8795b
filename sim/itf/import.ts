// An ITF trace loopscope wrote (export.ts; Apalache's ADR-015 "Informal Trace Format") → the
// loopscope trace it came from: one frame per state, the header from #meta.loopscope, ITF's `loop`
// as the lasso's cycleStart. The result goes through the trace schema like any trace file.
// Browser-safe.
import type { ParsedTrace } from '../trace-schema';
import { parseTrace } from '../trace-schema';
import { NOTE_SEPARATOR, VARS } from './format';
import type { Json } from './values';
import { ItfValueError, decodeValue, isJsonObject } from './values';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An ITF document rather than a loopscope trace: it has ITF's `vars` and `states`, and no `frames`. */
export function isItfDocument(doc: unknown): boolean {
  return isObject(doc) && Array.isArray(doc.vars) && Array.isArray(doc.states) && !('frames' in doc);
}

const NOT_OURS = 'this ITF trace was not written by loopscope (check --trace-format itf, trace --to itf)';
const REQUIRED = [VARS.t, VARS.state, VARS.phase, VARS.event, VARS.notes, VARS.world] as const;

function header(meta: unknown): Record<string, Json> {
  const head = isObject(meta) ? meta.loopscope : undefined;
  if (head === undefined)
    throw new ItfValueError('#meta.loopscope', `expected the trace header loopscope writes (loop, scenario, seed): ${NOT_OURS}`);
  const decoded = decodeValue(head, '#meta.loopscope');
  if (!isJsonObject(decoded)) throw new ItfValueError('#meta.loopscope', 'expected a record (loop, scenario, seed, policy)');
  return decoded;
}

function notesOf(value: Json, path: string): string | undefined {
  if (!Array.isArray(value) || !value.every((n): n is string => typeof n === 'string'))
    throw new ItfValueError(path, "expected a list of strings (the frame's notes)");
  return value.length === 0 ? undefined : value.join(NOTE_SEPARATOR);
}

function messageOf(value: Json, path: string): Json | undefined {
  if (!Array.isArray(value) || value.length > 1)
    throw new ItfValueError(path, "expected a list of at most one message { key, params } (the frame's note as a message)");
  return value[0];
}

/** The loopscope trace document an ITF document holds (not yet checked against the trace schema). */
function traceDocOf(doc: Record<string, unknown>): Record<string, Json> {
  const { vars, states, loop } = doc;
  if (!Array.isArray(vars) || !vars.every((v): v is string => typeof v === 'string'))
    throw new ItfValueError('vars', 'expected a list of variable names');
  const missing = REQUIRED.find((v) => !vars.includes(v));
  if (missing !== undefined)
    throw new ItfValueError('vars', `expected the variables ${REQUIRED.join(', ')} (and controller), missing "${missing}": ${NOT_OURS}`);
  const head = header(doc['#meta']);
  if (!Array.isArray(states) || states.length === 0) throw new ItfValueError('states', 'expected a list of states (at least one)');
  const withController = vars.includes(VARS.controller);
  const withMessages = vars.includes(VARS.messages);
  const frames = states.map((state: unknown, i): Json => {
    const path = `states.${i}`;
    if (!isObject(state)) throw new ItfValueError(path, 'expected a state object');
    const value = (name: string): Json => {
      // ADR-015: each state must define a value for every variable in `vars`.
      if (!(name in state)) throw new ItfValueError(`${path}.${name}`, 'expected a value (every state sets every variable in vars)');
      return decodeValue(state[name], `${path}.${name}`);
    };
    const note = notesOf(value(VARS.notes), `${path}.${VARS.notes}`);
    const message = withMessages ? messageOf(value(VARS.messages), `${path}.${VARS.messages}`) : undefined;
    return {
      t: value(VARS.t),
      state: value(VARS.state),
      phase: value(VARS.phase),
      event: value(VARS.event),
      world: value(VARS.world),
      ...(withController ? { controller: value(VARS.controller) } : {}),
      ...(note !== undefined ? { note } : {}),
      ...(message !== undefined ? { message } : {}),
    };
  });
  if (loop !== undefined && (typeof loop !== 'number' || !Number.isInteger(loop) || loop < 0 || loop >= states.length)) {
    throw new ItfValueError('loop', `expected the index of a state (a whole number below ${states.length}), got ${JSON.stringify(loop)}`);
  }
  return { ...head, frames, ...(typeof loop === 'number' ? { lasso: { cycleStart: loop } } : {}) };
}

/** A trace schema problem ("frames.3.world: …") named as the ITF file has it ("states.3.world: …"). */
const inItfTerms = (error: string) =>
  error
    .replace(/^frames\.(\d+)\.t:/, `states.$1.${VARS.t}:`)
    .replace(/^frames\./, 'states.')
    .replace(/^lasso\.cycleStart:/, 'loop:');

/** A parsed ITF document → the loopscope trace, or the first problem (a path in the ITF file and what was expected). */
export function itfToTrace(doc: unknown): ParsedTrace {
  if (!isObject(doc)) return { ok: false, error: '(top level): expected an ITF trace object (#meta, vars, states)' };
  try {
    const parsed = parseTrace(traceDocOf(doc));
    return parsed.ok ? parsed : { ok: false, error: inItfTerms(parsed.error) };
  } catch (e) {
    if (e instanceof ItfValueError) return { ok: false, error: e.message };
    throw e;
  }
}
