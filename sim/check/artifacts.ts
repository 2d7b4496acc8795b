import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { itfJson, traceToItf } from '../itf/export';
import type { Trace } from '../trace';
import type { CheckRun } from './check';

export type Counterexample = CheckRun['counterexamples'][number];

/** Files written for one counterexample (--out, --emit-test). */
export interface Artifacts {
  trace?: string;
  test?: string;
}

/** scenario[.policy].property: the stem of every file written for one counterexample. */
export const artifactStem = (run: CheckRun, property: string) => `${run.scenario.name}${run.policy ? `.${run.policy}` : ''}.${property}`;

/** How --out writes a trace: loopscope's own JSON (the lab's), or ITF (Apalache's ADR-015 "Informal Trace Format"). */
export const TRACE_FORMATS = ['json', 'itf'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

interface TraceFileOptions {
  format?: TraceFormat;
  /** The scenario file, named as ITF's #meta.source. */
  source?: string;
}

const extension = (format: TraceFormat) => (format === 'itf' ? '.itf.json' : '.trace.json');

export function traceText(trace: Trace, options: TraceFileOptions): string {
  return options.format === 'itf'
    ? itfJson(traceToItf(trace, options.source !== undefined ? { source: options.source } : {}))
    : JSON.stringify(trace) + '\n';
}

/** --out: each counterexample's trace as JSON (loadable by the lab), or as ITF (<stem>.itf.json, loadable too). */
export function writeTraces(runs: readonly CheckRun[], dir: string, options: TraceFileOptions = {}): Map<Counterexample, string> {
  mkdirSync(dir, { recursive: true });
  const written = new Map<Counterexample, string>();
  for (const run of runs) {
    for (const ce of run.counterexamples) {
      const path = join(dir, `${artifactStem(run, ce.property)}${extension(options.format ?? 'json')}`);
      writeFileSync(path, traceText(ce.trace, options));
      // A differential finding's other history, beside it (otherTracePath).
      if (ce.other) writeFileSync(otherTracePath(path), traceText(ce.other.trace, options));
      written.set(ce, path);
    }
  }
  return written;
}

/** Where writeTraces puts a counterexample's other history (a differential finding), next to its trace. */
export const otherTracePath = (tracePath: string) => tracePath.replace(/\.(trace|itf)\.json$/, '.other.$1.json');
