import type { Trace } from '../../sim/trace';
import { parseAnyTraceText } from '../../sim/itf/read';
import { traceStateProblem } from './trace-check';

/**
 * Files a page carries for the lab to open: the user's own scenarios and traces, handed over by
 * `loopscope lab <file…>` (cli/lab/) in `<script id="loopscope-lab-files" type="application/json">`.
 * `name` is the file as the user named it (the lab's messages name it the same way); a scenario's
 * `id` is its name as the CLI parsed it (the URL's `scenario=`).
 */
export interface PageFile {
  name: string;
  kind: 'scenario' | 'trace';
  text: string;
  id?: string;
}

export const LAB_FILES_ELEMENT = 'loopscope-lab-files';

function isPageFile(v: unknown): v is PageFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>; // cast: an object; each field is checked next
  return (
    typeof f.name === 'string' &&
    (f.kind === 'scenario' || f.kind === 'trace') &&
    typeof f.text === 'string' &&
    (f.id === undefined || typeof f.id === 'string')
  );
}

/** The page's files; none when it carries none (the dev server, a plain build) or their JSON is not a list of files. */
function readPageFiles(): PageFile[] {
  const raw = typeof document === 'undefined' ? null : document.getElementById(LAB_FILES_ELEMENT)?.textContent;
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter(isPageFile) : [];
  } catch {
    return [];
  }
}

export const PAGE_FILES: readonly PageFile[] = readPageFiles();
/** The page's traces, in the order given: the URL's `trace=<n>` counts from 0 among these. */
export const PAGE_TRACES: readonly PageFile[] = PAGE_FILES.filter((f) => f.kind === 'trace');

/** The n-th trace of the page, checked as a trace loaded from disk is (TraceLoader): the trace, or its first problem. */
export function openPageTrace(index: number): { ok: true; trace: Trace; fileName: string } | { ok: false; error: string } {
  const file = PAGE_TRACES[index];
  if (!file)
    return { ok: false, error: `no such trace (this page carries ${PAGE_TRACES.length} trace file${PAGE_TRACES.length === 1 ? '' : 's'})` };
  const result = parseAnyTraceText(file.text);
  const problem = result.ok ? traceStateProblem(result.trace) : result.error;
  return result.ok && problem === null
    ? { ok: true, trace: result.trace, fileName: file.name }
    : { ok: false, error: `${file.name}: ${problem}` };
}
