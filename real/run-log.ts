// `loopscope real --log-format text|json`. text (the default) is what the command always printed: the
// timeline line of each noted frame on stdout, `loopscope: …` messages on stderr. json writes the
// same lines on the same streams as one JSON object per line — time, level, msg, then structured
// fields (period, verdict, desired, running, action, instance…) — for a log collector.
import type { RealFrame } from './hpa-runner';
import type { FrameFacts } from './run-facts';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type LogLevel = 'info' | 'warn' | 'error';
type Fields = Record<string, string | number | boolean | null | undefined>;

/** One log record as a JSON line: time and level and msg first, then the fields (undefined dropped). */
export function jsonLine(time: Date, level: LogLevel, msg: string, fields: Fields = {}): string {
  const record: Record<string, unknown> = { time: time.toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && !(k in record)) record[k] = v;
  return JSON.stringify(record);
}

/** The structured fields of a noted frame. */
function frameFields(frame: RealFrame, facts: FrameFacts): { level: LogLevel; fields: Fields } {
  const summary = frame.controller;
  const c = summary && summary.loop === 'incus-hpa' ? summary : undefined;
  const fields: Fields = { t: frame.t, period: facts.period, state: frame.state, phase: frame.phase, event: frame.event };
  if (facts.verdict && c?.decision) {
    Object.assign(fields, {
      verdict: facts.verdict,
      desired: c.decision.desired,
      running: c.decision.running,
      averagePercent: c.decision.averagePercent,
    });
  }
  if (facts.act) Object.assign(fields, { action: facts.act.kind, instance: facts.act.instance, outcome: facts.act.outcome });
  if (facts.error)
    Object.assign(fields, { errorActor: facts.error.actor, errorKind: facts.error.kind, error: c?.lastError, retry: c?.consecutiveErrors });
  return { level: facts.error ? 'error' : 'info', fields };
}

export interface RunLogOptions {
  format: LogFormat;
  out: (line: string) => void;
  err: (line: string) => void;
  /** The text format's line for a noted frame (the CLI's timeline columns). */
  textLine: (frame: RealFrame) => string | undefined;
  /** Wall-clock ms of the run's t = 0 (the runner's epoch; read when a frame is logged). */
  epoch: () => number;
  now?: () => Date;
}

export class RunLog {
  constructor(private readonly options: RunLogOptions) {}

  get format(): LogFormat {
    return this.options.format;
  }

  /** A frame of the run: only noted frames are logged (as the timeline always did). */
  frame(frame: RealFrame, facts: FrameFacts): void {
    if (frame.note === undefined) return;
    if (this.options.format === 'text') {
      const line = this.options.textLine(frame);
      if (line !== undefined) this.options.out(line);
      return;
    }
    const { level, fields } = frameFields(frame, facts);
    this.options.out(jsonLine(new Date(this.options.epoch() + frame.t), level, frame.note, fields));
  }

  /** A message beside the timeline (standby, lease, config edit, shutdown…). */
  message(level: LogLevel, msg: string, fields: Fields = {}): void {
    if (this.options.format === 'text') {
      this.options.err(`loopscope: ${msg.split('\n').join('\nloopscope:   ')}`);
      return;
    }
    this.options.err(jsonLine(this.options.now?.() ?? new Date(), level, msg, fields));
  }

  /** The run's first line: the text header, or an info record with the same facts. */
  header(text: string, msg: string, fields: Fields): void {
    if (this.options.format === 'text') this.options.out(text);
    else this.options.out(jsonLine(this.options.now?.() ?? new Date(), 'info', msg, fields));
  }
}
