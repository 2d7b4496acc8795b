// `loopscope lab --inspect [PORT]`: checks the options, starts the relay (and its own port when one
// is given) before the lab listens, and says on stderr where apps send and where the page is.
import { ExitError } from '../exit';
import { UsageError } from '../usage';
import { inspectElement } from './inspect-element';
import type { InspectPort } from './inspect-port';
import { listenInspectPort } from './inspect-port';
import { InspectRelay, inspectUpgrade } from './inspect-relay';
import { isLoopback } from './loopback';
import type { LabOptions } from './options';
import { DEFAULT_INSPECT_BYTES } from './options';

export interface LabInspect {
  relay: InspectRelay;
  upgrade: ReturnType<typeof inspectUpgrade>;
  /** Written into index.html: the lab then offers its inspector page. */
  element: string;
  /** Prints where apps send and the inspector page's URL, once the lab's port is known. */
  announce(pageUrl: string, labPort: number): void;
  close(): Promise<void>;
}

/** `--inspect`'s port (undefined: the lab's own), or a usage error; checked before anything listens. */
export function parseInspectOptions(opts: LabOptions): { port: number | undefined; maxEvents: number } | null {
  if (opts.inspect === undefined) return null;
  const port = opts.inspect === true ? undefined : opts.inspect;
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65535)) {
    throw new UsageError(
      '--inspect',
      `expected a port number from 0 to 65535 (0: any free port; no value: the lab's own port), got "${port}"`,
    );
  }
  if (!/^\d{1,9}$/.test(opts.inspectHistory) || Number(opts.inspectHistory) < 1) {
    throw new UsageError('--inspect-history', `expected a number of events ≥ 1, got "${opts.inspectHistory}"`);
  }
  // The relay carries an app's events and context: it is for this machine only.
  const host = opts.host.trim().toLowerCase();
  if (!isLoopback(host)) throw new UsageError('--inspect', `the relay listens on 127.0.0.1 only: leave out --host ${opts.host}`);
  return { port: port === undefined ? undefined : Number(port), maxEvents: Number(opts.inspectHistory) };
}

export async function startLabInspect(checked: { port: number | undefined; maxEvents: number }): Promise<LabInspect> {
  const relay = new InspectRelay({ maxEvents: checked.maxEvents, maxBytes: DEFAULT_INSPECT_BYTES });
  let own: InspectPort | undefined;
  let labUrl = '';
  if (checked.port !== undefined) {
    try {
      own = await listenInspectPort(relay, checked.port, () => labUrl);
    } catch (e) {
      const code = e instanceof Error && 'code' in e ? String(e.code) : '';
      await relay.close();
      if (code === 'EADDRINUSE')
        throw new ExitError(
          1,
          `--inspect ${checked.port}: in use by another program (Stately's inspector server? stop it: the lab is the receiver)`,
        );
      if (code === 'EACCES')
        throw new ExitError(1, `--inspect ${checked.port}: not allowed to listen there (EACCES; ports below 1024 need privileges)`);
      throw e;
    }
  }
  return {
    relay,
    upgrade: inspectUpgrade(relay, false),
    element: inspectElement(own?.port ?? null),
    announce(pageUrl, labPort) {
      labUrl = pageUrl;
      const send = own ? `ws://127.0.0.1:${own.port}` : `ws://127.0.0.1:${labPort}/inspect`;
      process.stderr.write(
        `inspect: apps send to ${send}  (createWebSocketInspector({ url: '${send}' }))\ninspect: the inspector page: ${labUrl}\n`,
      );
    },
    // The relay first: its sockets were upgraded out of the HTTP server, whose close waits for them.
    async close() {
      await relay.close();
      await own?.close();
    },
  };
}
