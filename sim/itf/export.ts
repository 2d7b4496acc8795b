// A loopscope trace → an ITF trace (Apalache's ADR-015 "Informal Trace Format"): one state per
// frame, the frame's fields as variables, a lasso's cycle as ITF's `loop`. Browser-safe.
import type { Trace } from '../trace';
import { TRACE_VERSION } from '../trace';
import type { ItfState, ItfTrace } from './format';
import { ENCODING_NOTE, ITF_FORMAT_DESCRIPTION, NOTE_SEPARATOR, VARS } from './format';
import type { ItfRecord } from './values';
import { encodeValue } from './values';

interface ItfOptions {
  /** The scenario file the trace was made from, when known (default: the trace's scenario name). */
  source?: string;
}

/** Thrown when a trace cannot be written as ITF (a version 1 trace with a controller on some frames only). */
export class ItfExportError extends Error {}

/** The trace's header; `version` only with controller summaries (a version 1 trace has none and says no version). */
function header(trace: Trace, withController: boolean): ItfRecord {
  // The same fields, in the same order, as a trace file (Runner.trace(), traceJson).
  return {
    ...(withController ? { version: encodeValue(TRACE_VERSION) } : {}),
    loop: trace.loop,
    scenario: trace.scenario,
    seed: encodeValue(trace.seed),
    ...(trace.policy !== undefined ? { policy: trace.policy } : {}),
  };
}

function description(trace: Trace): string {
  const what = `${trace.frames.length} frames of loop ${trace.loop}, seed ${trace.seed}${trace.policy !== undefined ? `, policy ${trace.policy}` : ''}`;
  const lasso = trace.lasso ? `; a lasso: from state ${trace.lasso.cycleStart} to the last, the run repeats for ever (ITF "loop")` : '';
  return `loopscope trace "${trace.scenario}": ${what}${lasso}`;
}

/** The trace as ITF: every number an integer (#bigint) or a ["decimal", m, e] tuple, never a JSON fraction. */
export function traceToItf(trace: Trace, options: ItfOptions = {}): ItfTrace {
  const withController = trace.frames.filter((f) => f.controller !== undefined).length;
  if (withController > 0 && withController < trace.frames.length) {
    const missing = trace.frames.findIndex((f) => f.controller === undefined);
    throw new ItfExportError(
      `frames[${missing}] has no controller summary while other frames have one: every ITF state must set every variable`,
    );
  }
  const withMessages = trace.frames.some((f) => f.message !== undefined);
  const vars: string[] = [
    VARS.t,
    VARS.state,
    VARS.phase,
    VARS.event,
    VARS.notes,
    VARS.world,
    ...(withController > 0 ? [VARS.controller] : []),
    ...(withMessages ? [VARS.messages] : []),
  ];
  const states = trace.frames.map((frame, index): ItfState => ({
    '#meta': { index },
    [VARS.t]: encodeValue(frame.t),
    [VARS.state]: frame.state,
    [VARS.phase]: frame.phase,
    [VARS.event]: frame.event,
    [VARS.notes]: frame.note === undefined ? [] : frame.note.split(NOTE_SEPARATOR),
    [VARS.world]: encodeValue(frame.world),
    ...(frame.controller !== undefined ? { [VARS.controller]: encodeValue(frame.controller) } : {}),
    // A list, as `notes`: every state sets every variable, and a frame without a message has none.
    ...(withMessages ? { [VARS.messages]: encodeValue(frame.message === undefined ? [] : [frame.message]) } : {}),
  }));
  return {
    '#meta': {
      format: 'ITF',
      'format-description': ITF_FORMAT_DESCRIPTION,
      source: options.source ?? trace.scenario,
      description: description(trace),
      encoding: ENCODING_NOTE,
      loopscope: header(trace, withController > 0),
    },
    vars,
    states,
    ...(trace.lasso ? { loop: trace.lasso.cycleStart } : {}),
  };
}

/** The file's text (one line and a newline, as loopscope's trace files). */
export const itfJson = (itf: ItfTrace) => `${JSON.stringify(itf)}\n`;
