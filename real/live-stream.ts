// The order and the history of what the live socket sends (sim/live-protocol.ts). The machine's
// inspection events come from XState's inspector a turn after the transition (createInspector hands
// each on in a timer of its own), while the runner records the frame of a root snapshot at once: so
// a frame waits here for its snapshot, and goes out right after it — the pairing the protocol
// promises. What the runner says meanwhile (its own frames, a pending act) waits behind it, so the
// socket tells things in the order they happened. A browser that joins late gets the history first.
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { inspectionText } from '../sim/inspect-json';
import type { LiveFrame, LiveLayerMessage } from '../sim/live-protocol';

/** Messages a late browser is sent (about 2,000 frames of a run; the roots' registrations are kept besides). */
const HISTORY = 10_000;

interface Sent {
  text: string;
  pairedFrame: boolean;
}
type Waiting = { frame: LiveFrame } | { message: LiveLayerMessage; keep: boolean };

export class LiveStream {
  private root: string | undefined;
  private readonly roots: string[] = [];
  private readonly history: Sent[] = [];
  private readonly waiting: Waiting[] = [];

  /** `send` puts one text message on every open socket. */
  constructor(private readonly send: (text: string) => void) {}

  /** The history, oldest first: the root actors' registrations, then the recent messages. */
  replay(): string[] {
    return [...this.roots, ...this.history.map((s) => s.text)];
  }

  /** An inspection event, as the inspector hands it to its adapter. */
  inspection(event: StatelyInspectionEvent): void {
    const text = inspectionText(event);
    if (event.type === '@xstate.actor' && event.parentId === undefined) {
      this.root ??= event.sessionId;
      this.roots.push(text);
      this.send(text);
      return;
    }
    this.emit(text, true);
    if (event.type !== '@xstate.snapshot' || event.sessionId !== this.root) return;
    const head = this.waiting[0];
    if (head && 'frame' in head) {
      this.waiting.shift();
      const { state: _state, event: _event, ...world } = head.frame;
      this.emit(
        JSON.stringify({ type: 'loopscope.frame', of: 'snapshot', sessionId: event.sessionId, frame: world } satisfies LiveLayerMessage),
        true,
        true,
      );
    }
    this.flush();
  }

  /** A frame the runner recorded; `taken`: the machine took an event (its root snapshot is on its way). */
  frame(frame: LiveFrame, taken: boolean): void {
    if (taken) {
      this.waiting.push({ frame });
      return;
    }
    const { state, event, ...world } = frame;
    this.layer({ type: 'loopscope.frame', of: 'runner', state, event, frame: world });
  }

  /** A message of the thin layer, in order; `keep`: a late browser is sent it too. */
  layer(message: LiveLayerMessage, keep = true): void {
    if (this.waiting.length === 0) this.emit(JSON.stringify(message), keep);
    else this.waiting.push({ message, keep });
  }

  /** Closing: what still waits goes out, less frames whose snapshot will not come. */
  drain(): void {
    for (const w of this.waiting.splice(0)) if ('message' in w) this.emit(JSON.stringify(w.message), w.keep);
  }

  private flush(): void {
    while (this.waiting[0] && 'message' in this.waiting[0]) {
      const { message, keep } = this.waiting[0];
      this.waiting.shift();
      this.emit(JSON.stringify(message), keep);
    }
  }

  private emit(text: string, keep: boolean, pairedFrame = false): void {
    this.send(text);
    if (!keep) return;
    this.history.push({ text, pairedFrame });
    if (this.history.length <= HISTORY) return;
    this.history.splice(0, this.history.length - HISTORY);
    // A frame whose snapshot is gone from the history would be paired with nothing: it goes too.
    if (this.history[0]?.pairedFrame) this.history.shift();
  }
}
