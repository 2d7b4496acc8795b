// A trace file's text, in either format the lab opens: a loopscope trace (sim --out, check --out,
// real --out) or an ITF trace loopscope wrote (check --trace-format itf, trace --to itf). Browser-safe.
import type { ParsedTrace } from '../trace-schema';
import { parseTrace } from '../trace-schema';
import { isItfDocument, itfToTrace } from './import';

/** A parsed JSON document in either format → the trace, or its first problem in words. */
export function parseAnyTrace(doc: unknown): ParsedTrace {
  return isItfDocument(doc) ? itfToTrace(doc) : parseTrace(doc);
}

/** Trace file text (loopscope JSON or ITF) → the trace, or its first problem (field path and expectation). */
export function parseAnyTraceText(text: string): ParsedTrace {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `malformed JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return parseAnyTrace(doc);
}
