import { INSPECT_ELEMENT, INSPECT_VIEW_PATH } from '../../sim/inspect-protocol';
import { InspectLog } from './inspect-log';

export type InspectStatus = 'connecting' | 'open' | 'closed';

/** What `loopscope lab --inspect` wrote into the page (cli/lab/inspect-element.ts), or null: the lab was started without it. */
export function relayInfo(): { port: number | null } | null {
  const text = document.getElementById(INSPECT_ELEMENT)?.textContent;
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    const port = typeof parsed === 'object' && parsed !== null && 'port' in parsed && typeof parsed.port === 'number' ? parsed.port : null;
    return { port };
  } catch {
    return null;
  }
}

/** The address apps send to: the relay's own port when it has one, else the lab's, at /inspect. */
export function appUrl(info: { port: number | null } | null): string {
  return info?.port ? `ws://127.0.0.1:${info.port}` : `ws://${location.host}/inspect`;
}

/**
 * The page's one WebSocket to the relay, on the lab's own origin: the relay's notice, its history,
 * then every message apps send, into an InspectLog. React reads it through subscribe/version; a burst
 * (the history: up to thousands of messages) is told once per animation frame, not once per message.
 */
export class InspectConnection {
  status: InspectStatus = 'connecting';
  closeReason: string | null = null;
  readonly log = new InspectLog();
  version = 0;
  private readonly ws: WebSocket;
  private readonly listeners = new Set<() => void>();
  private frame: number | null = null;

  constructor(url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${INSPECT_VIEW_PATH}`) {
    this.ws = new WebSocket(url);
    this.ws.onopen = () => {
      this.status = 'open';
      this.changed();
    };
    this.ws.onmessage = (e: MessageEvent<unknown>) => {
      if (typeof e.data === 'string') this.log.addText(e.data);
      // The relay's history (up to thousands of messages) is drawn once it is all in: drawing the page
      // while it comes costs far more than reading it. Live messages are drawn at once.
      if (this.log.historyLeft > 0) return;
      this.changed();
    };
    this.ws.onclose = (e) => {
      this.status = 'closed';
      this.closeReason = e.reason || (e.code === 1006 ? 'refused or lost (was the lab started with --inspect?)' : `code ${e.code}`);
      this.changed();
    };
  }

  /** Closing a socket still connecting makes Chromium log an error: close it once open instead. */
  close(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.onopen = () => this.ws.close();
    else this.ws.close();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.version++;
      for (const l of this.listeners) l();
    });
  }
}
