import type { LivePending, ServerMessage } from '../../sim/live-protocol';
import type { Frame, Trace } from '../../sim/trace';
import { TRACE_VERSION } from '../../sim/trace';
import { parseFrame } from '../../sim/trace-schema';
import { LabSession } from '../lab/session';

/** A trace session whose newest frame is "the present" (the run is still going). */
class LiveSession extends LabSession {
  override get atPresent(): boolean { return this.index >= this.frames.length - 1; }
}

export type LiveStatus = 'connecting' | 'open' | 'closed';
type Hello = Extract<ServerMessage, { type: 'hello' }>;

/**
 * One WebSocket to `loopscope real --live`. Frames go into a trace-kind LabSession (the same
 * views as a loaded trace); the view follows the newest frame unless the user scrolled back.
 * React reads it through subscribe/version, like LabSession.
 */
export class LiveConnection {
  status: LiveStatus = 'connecting';
  hello: Hello | null = null;
  session: LabSession | null = null;
  pending: LivePending | null = null;
  /** The last problem the server reported (e.g. an answer that came too late). */
  error: string | null = null;
  closeReason: string | null = null;
  version = 0;
  private readonly ws: WebSocket;
  private readonly listeners = new Set<() => void>();

  constructor(readonly url: string) {
    this.ws = new WebSocket(url);
    this.ws.onopen = () => { this.status = 'open'; this.changed(); };
    this.ws.onmessage = (e: MessageEvent<string>) => this.receiveText(e.data);
    this.ws.onclose = (e) => {
      this.status = 'closed';
      this.pending = null;
      this.closeReason = e.reason || (e.code === 1006 ? 'refused or lost (wrong token, or the run has exited?)' : `code ${e.code}`);
      this.changed();
    };
  }

  answer(verdict: 'approve' | 'skip'): void {
    if (!this.pending || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify({ type: verdict, id: this.pending.id }));
  }

  /** Closing a socket still connecting makes Chromium log an error: close it once open instead. */
  close(): void {
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.onopen = () => this.ws.close();
    else this.ws.close();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getVersion = (): number => this.version;

  private receiveText(text: string): void {
    let message: ServerMessage;
    try { message = JSON.parse(text) as ServerMessage; } catch { this.error = 'the server sent a message that is not JSON'; this.changed(); return; }
    this.receive(message);
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'hello': {
        this.hello = message;
        // Frames go through the trace schema like a loaded file: a wrong shape is named, not drawn.
        const frames: Frame[] = [];
        for (const [i, f] of (Array.isArray(message.frames) ? message.frames : []).entries()) {
          const parsed = parseFrame(message.loop, f, ['frames', i]);
          if (!parsed.ok) { this.error = `hello: ${parsed.error}`; this.changed(); return; }
          frames.push(parsed.frame);
        }
        const trace: Trace = { version: TRACE_VERSION, loop: message.loop, scenario: message.scenario, seed: 0, policy: message.config.policy, frames };
        this.session = new LiveSession({ kind: 'trace', trace, fileName: `live ${message.endpoint}` });
        if (trace.frames.length) this.session.seek(trace.frames.length - 1);
        this.pending = message.pending;
        break;
      }
      case 'frame': {
        const session = this.session;
        if (!session) return;
        const parsed = parseFrame(this.hello?.loop ?? 'incus-hpa', message.frame, ['frame']);
        if (!parsed.ok) { this.error = parsed.error; break; }
        const following = session.index >= session.frames.length - 1;
        session.frames.push(parsed.frame);
        // seek() also tells the lab's views that the frames changed.
        session.seek(following ? session.frames.length - 1 : session.index);
        break;
      }
      case 'pending': this.pending = message.pending; this.error = null; break;
      case 'resolved': if (this.pending?.id === message.id) this.pending = null; break;
      case 'error': this.error = message.message; break;
    }
    this.changed();
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
