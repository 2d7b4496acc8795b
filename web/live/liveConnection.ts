// The lab's end of `loopscope real --live` (sim/live-protocol.ts): the machine's inspection events
// read by the inspector page's own InspectLog (web/inspect/), and the thin `loopscope.*` layer beside
// them. Each frame is made again from the root snapshot it is paired with and the world its message
// carries, and goes into a trace-kind LabSession, so the lab's usual views draw the run.
import type { LiveLayerMessage, LivePending, LiveRunMessage } from '../../sim/live-protocol';
import { isLayerMessage } from '../../sim/live-protocol';
import type { Trace } from '../../sim/trace';
import { dottedState, TRACE_VERSION } from '../../sim/trace';
import { parseFrame } from '../../sim/trace-schema';
import { InspectLog } from '../inspect/inspect-log';
import { LabSession } from '../lab/session';

/** A trace session whose newest frame is "the present" (the run is still going). */
class LiveSession extends LabSession {
  override get atPresent(): boolean {
    return this.index >= this.frames.length - 1;
  }
}

export type LiveStatus = 'connecting' | 'open' | 'closed';

/**
 * One WebSocket to `loopscope real --live`. Frames go into a trace-kind LabSession (the same
 * views as a loaded trace); the view follows the newest frame unless the user scrolled back.
 * React reads it through subscribe/version, like LabSession.
 */
export class LiveConnection {
  status: LiveStatus = 'connecting';
  run: LiveRunMessage | null = null;
  /** The machine's actors, events and snapshots, as the inspector page reads them. */
  readonly log = new InspectLog();
  session: LabSession | null = null;
  pending: LivePending | null = null;
  /** The last problem the server reported (e.g. an answer that came too late). */
  error: string | null = null;
  closeReason: string | null = null;
  version = 0;
  private readonly ws: WebSocket;
  private readonly listeners = new Set<() => void>();
  /** New frames are drawn once per animation frame: a late join brings the run's history one message a frame. */
  private draw: number | null = null;
  private follow = false;

  constructor(readonly url: string) {
    this.ws = new WebSocket(url);
    this.ws.onopen = () => {
      this.status = 'open';
      this.changed();
    };
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
    if (this.draw !== null) cancelAnimationFrame(this.draw);
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.onopen = () => this.ws.close();
    else this.ws.close();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getVersion = (): number => this.version;

  private receiveText(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.error = 'the server sent a message that is not JSON';
      this.changed();
      return;
    }
    if (!isLayerMessage(message)) {
      // XState's inspection: the actors and their snapshots a frame is paired with.
      this.log.add(message);
      return;
    }
    this.receive(message);
  }

  private receive(message: LiveLayerMessage): void {
    switch (message.type) {
      case 'loopscope.run': {
        this.run = message;
        const trace: Trace = {
          version: TRACE_VERSION,
          loop: message.loop,
          scenario: message.scenario,
          seed: 0,
          policy: message.config.policy,
          frames: [],
        };
        this.session = new LiveSession({ kind: 'trace', trace, fileName: `live ${message.endpoint}` });
        break;
      }
      case 'loopscope.frame': {
        const session = this.session;
        if (!session) return;
        let made: unknown;
        if (message.of === 'snapshot') {
          const snapshot = this.log.actors.get(message.sessionId)?.snapshots.at(-1);
          if (!snapshot) {
            this.error = `a frame of actor ${message.sessionId}, which has sent no snapshot`;
            break;
          }
          made = { ...message.frame, state: dottedState(snapshot.value), event: snapshot.eventType };
        } else {
          made = { ...message.frame, state: message.state, event: message.event };
        }
        // Frames go through the trace schema like a loaded file: a wrong shape is named, not drawn.
        const parsed = parseFrame(this.run?.loop ?? 'incus-hpa', made, ['frame']);
        if (!parsed.ok) {
          this.error = parsed.error;
          break;
        }
        // Whether the view follows the newest frame is decided before the first frame of a batch.
        if (this.draw === null) this.follow = session.index >= session.frames.length - 1;
        session.frames.push(parsed.frame);
        this.scheduleDraw();
        return;
      }
      case 'loopscope.pending':
        this.pending = message.pending;
        this.error = null;
        break;
      case 'loopscope.resolved':
        if (this.pending?.id === message.id) this.pending = null;
        break;
      case 'loopscope.error':
        this.error = message.message;
        break;
    }
    this.changed();
  }

  private scheduleDraw(): void {
    if (this.draw === null) this.draw = requestAnimationFrame(() => this.changed());
  }

  private drawFrames(session: LabSession): void {
    // seek() also tells the lab's views that the frames changed.
    session.seek(this.follow ? session.frames.length - 1 : session.index);
  }

  private changed(): void {
    // The frames received since the last draw are drawn with whatever else changed.
    if (this.draw !== null && this.session) {
      cancelAnimationFrame(this.draw);
      this.draw = null;
      this.drawFrames(this.session);
    }
    this.version++;
    for (const l of this.listeners) l();
  }
}
