import type { Frame, Trace } from './trace';
import { formatDuration } from './units';

/** The readable timeline `loopscope sim` prints: time, phase, loop columns, what happened.
 * Frames with a note are printed; a run of identical lines is folded into one count. */
export function formatTimeline(trace: Trace, columns: (f: Frame) => string): string {
  const lines = [`# ${trace.loop} · scenario ${trace.scenario} · seed ${trace.seed}${trace.policy ? ` · policy ${trace.policy}` : ''}`];
  let previous = '';
  let repeats = 0;
  let lastT = 0;
  const flush = () => {
    if (repeats > 0)
      lines.push(`${''.padEnd(12)} ${'…'.padEnd(7)} same ${repeats} more time${repeats > 1 ? 's' : ''}, until ${formatDuration(lastT)}`);
    repeats = 0;
  };
  for (const f of trace.frames) {
    if (f.note === undefined) continue;
    const body = `${f.phase.toUpperCase().padEnd(7)} ${columns(f)}  ${f.note}`;
    if (body === previous) {
      repeats++;
      lastT = f.t;
      continue;
    }
    flush();
    lines.push(`${formatDuration(f.t).padEnd(12)} ${body}`);
    previous = body;
  }
  flush();
  return lines.join('\n') + '\n';
}
