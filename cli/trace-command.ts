import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ItfExportError, itfJson, traceToItf } from '../sim/itf/export';
import { parseAnyTrace } from '../sim/itf/read';
import { InputError } from '../sim/scenario/errors';
import { readInputFile } from '../sim/scenario/load';
import { didYouMean } from '../sim/scenario/suggest';
import type { Trace } from '../sim/trace';
import { traceJson } from '../sim/trace-schema';
import { UsageError } from './usage';
import { InspectSocket, parseInspectUrl } from './inspect/inspect-socket';
import { replayTrace } from './inspect/trace-replay';

const TARGETS = ['itf', 'json'] as const;
type Target = (typeof TARGETS)[number];

const EXPECTED = 'a loopscope trace (the JSON of sim --out, check --out or real --out) or an ITF trace loopscope wrote';
/** A real run of weeks is large (the same bound as conform's). */
const MAX_TRACE_BYTES = 256 * 1024 * 1024;

const TRACE_EXIT_CODES = `Exit codes:
  0  converted
  2  bad input: no such file, not JSON, not a trace, a bad --to, an --out that cannot be written`;

function targetOf(text: string): Target {
  const target = TARGETS.find((t) => t === text);
  if (!target) throw new UsageError('--to', `expected one of ${TARGETS.join(', ')}, got "${text}"${didYouMean(text, TARGETS)}`);
  return target;
}

/** The file's trace, in either format; bad input names the file and what was expected. */
function readTrace(file: string): Trace {
  const text = readInputFile(file, EXPECTED, MAX_TRACE_BYTES);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InputError(file, '', `expected ${EXPECTED}, got text that is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = parseAnyTrace(doc);
  if (!parsed.ok) throw new InputError(file, '', `expected ${EXPECTED}: ${parsed.error}`);
  return parsed.trace;
}

function converted(file: string, trace: Trace, target: Target): string {
  if (target === 'json') return `${traceJson(trace)}\n`;
  try {
    return itfJson(traceToItf(trace));
  } catch (e) {
    if (e instanceof ItfExportError) throw new InputError(file, '', `expected a trace ITF can hold: ${e.message}`);
    throw e;
  }
}

export function registerTrace(program: Command): void {
  program
    .command('trace')
    .description(
      "convert a trace file: loopscope's trace JSON to ITF (Apalache's Informal Trace Format, for TLA+/Quint tools), or an ITF trace loopscope wrote back to trace JSON",
    )
    .argument('<file>', 'trace JSON (sim --out, check --out, real --out) or ITF (check --trace-format itf, trace --to itf)')
    .option('--to <format>', `what to write: ${TARGETS.join('|')}`)
    .option('--out <path>', 'write to this file instead of stdout')
    .option('--inspect <ws-url>', "instead: tell the trace's frames to an XState inspector (Stately's protocol over WebSocket)")
    .addHelpText('after', `\n${TRACE_EXIT_CODES}\n`)
    .action(async (file: string, opts: { to?: string; out?: string; inspect?: string }) => {
      if (opts.inspect !== undefined) {
        if (opts.to !== undefined || opts.out !== undefined)
          throw new UsageError('--inspect', 'expected alone: it sends the trace, it does not convert it (no --to, no --out)');
        const url = parseInspectUrl(opts.inspect);
        if (typeof url === 'string') throw new UsageError('--inspect', url);
        const trace = readTrace(file);
        const socket = await InspectSocket.open(url, (why) => process.stderr.write(`loopscope: --inspect: ${why}\n`));
        // A trace the schema accepts names a registered loop; this is that guarantee, checked.
        if (!replayTrace(socket, trace)) throw new InputError(file, 'loop', `expected a loop of this loopscope, got "${trace.loop}"`);
        await socket.close();
        process.stderr.write(`loopscope: sent ${trace.frames.length} frames (${socket.count} messages) to ${url.href}\n`);
        return;
      }
      if (opts.to === undefined) throw new UsageError('--to', `expected one of ${TARGETS.join(', ')} (or --inspect <ws-url>)`);
      const target = targetOf(opts.to);
      const text = converted(file, readTrace(file), target);
      if (opts.out === undefined) {
        process.stdout.write(text);
        return;
      }
      try {
        writeFileSync(opts.out, text);
      } catch (e) {
        throw new UsageError(
          '--out',
          `expected a file that can be written, got "${opts.out}" (${e instanceof Error && 'code' in e ? String(e.code) : 'error'})`,
        );
      }
    });
}
