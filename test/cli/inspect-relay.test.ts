// `loopscope lab --inspect`'s relay (cli/lab/inspect-relay.ts): what apps send reaches every page,
// in order; a page that joins late gets the history, bounded by count and by bytes, with a notice of
// how much was dropped; apps are sent nothing; pages of other sites are refused. Then the fixture
// app (test/fixtures/inspect-app) through it, and the command itself: its bad options (exit 2) and
// what it prints on stderr. The page is test/browser/inspect.test.ts.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InspectRelay, inspectUpgrade } from '../../cli/lab/inspect-relay';
import type { RelayHistoryNotice } from '../../sim/inspect-protocol';
import { HISTORY_BATCH, isHistoryBatch, isHistoryNotice } from '../../sim/inspect-protocol';
import { startInspectApp } from '../fixtures/inspect-app/app';
import { runInProcess } from './in-process';

const ROOT = resolve(import.meta.dirname, '../..');

/** A relay on a plain HTTP server at a free port, as the lab server carries it. */
async function relayServer(maxEvents: number, maxBytes = 1 << 20): Promise<{ relay: InspectRelay; port: number; server: Server }> {
  const relay = new InspectRelay({ maxEvents, maxBytes });
  const server = createServer((_req, res) => res.end());
  server.on('upgrade', inspectUpgrade(relay, false));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { relay, server, port: (server.address() as AddressInfo).port }; // a TCP server's address is an AddressInfo
}

/** A WebSocket that records what it receives and can wait until it has `n` messages. */
class Client {
  readonly got: string[] = [];
  readonly ws: WebSocket;
  private waiters: (() => void)[] = [];
  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.ws.on('message', (d: Buffer) => {
      this.got.push(d.toString());
      for (const w of this.waiters) w();
    });
  }
  open(): Promise<void> {
    return new Promise((ok, fail) => {
      this.ws.once('open', () => ok());
      this.ws.once('error', fail);
    });
  }
  until(n: number): Promise<string[]> {
    return new Promise((ok) => {
      const check = () => {
        if (this.got.length >= n) {
          this.waiters = this.waiters.filter((w) => w !== check);
          ok(this.got);
        }
      };
      this.waiters.push(check);
      check();
    });
  }
}

const opened: (Client | { close(): unknown })[] = [];
const track = <T extends Client | { close(): unknown }>(x: T): T => {
  opened.push(x);
  return x;
};
afterEach(() => {
  for (const x of opened.splice(0)) {
    if (x instanceof Client) x.ws.terminate();
    else x.close();
  }
});

const notice = (text: string | undefined): RelayHistoryNotice => {
  const m: unknown = JSON.parse(text ?? 'null');
  if (!isHistoryNotice(m)) throw new Error(`expected the relay's notice first, got ${text}`);
  return m;
};
/** A history batch's messages, as the text each was sent as (JSON.stringify gives back msg()'s own text). */
const batch = (text: string | undefined): string[] => {
  const m: unknown = JSON.parse(text ?? 'null');
  if (!isHistoryBatch(m)) throw new Error(`expected a history batch, got ${text}`);
  return m.messages.map((x) => JSON.stringify(x));
};
const msg = (i: number) => JSON.stringify({ type: '@xstate.event', sessionId: 'x:0', event: { type: `E${i}` }, createdAt: String(i) });

describe('the inspection relay', () => {
  it('relays every sender message to every page in order, sends apps nothing, and gives a late page the bounded history with the count dropped', async () => {
    const { relay, port, server } = await relayServer(5);
    track(server);
    track({ close: () => void relay.close() });
    const first = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await first.open();
    expect(notice((await first.until(1))[0])).toMatchObject({ received: 0, dropped: 0, maxEvents: 5 });
    const app = track(new Client(`ws://127.0.0.1:${port}/inspect`));
    await app.open();
    for (let i = 0; i < 10; i++) app.ws.send(msg(i));
    expect((await first.until(11)).slice(1)).toEqual(Array.from({ length: 10 }, (_, i) => msg(i)));

    // A page that joins late: told 5 of 10 were dropped, then the last 5, in order; then what comes next.
    const late = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await late.open();
    const history = await late.until(2);
    expect(notice(history[0])).toMatchObject({ received: 10, dropped: 5, maxEvents: 5 });
    expect(batch(history[1])).toEqual([5, 6, 7, 8, 9].map(msg));
    app.ws.send(msg(10));
    expect((await late.until(3))[2]).toBe(msg(10));
    expect((await first.until(12))[11]).toBe(msg(10));
    // What a page sends is not relayed; the app got nothing at all.
    late.ws.send(msg(99));
    app.ws.send(msg(11));
    await first.until(13);
    expect(first.got).not.toContain(msg(99));
    expect(app.got).toEqual([]);
    // What is not a JSON object is not relayed (a page could not read it).
    app.ws.send('not json');
    app.ws.send('[1]');
    app.ws.send(msg(12));
    expect((await first.until(14))[13]).toBe(msg(12));
    expect(relay.stats).toMatchObject({ received: 13, held: 5, dropped: 8, rejected: 2, viewers: 2, senders: 1 });
  });

  it('sends a late page the history in batches of HISTORY_BATCH, in order', async () => {
    const { relay, port, server } = await relayServer(10_000);
    track(server);
    track({ close: () => void relay.close() });
    const watcher = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await watcher.open();
    const app = track(new Client(`ws://127.0.0.1:${port}/inspect`));
    await app.open();
    const n = HISTORY_BATCH * 2 + 7;
    for (let i = 0; i < n; i++) app.ws.send(msg(i));
    await watcher.until(n + 1);
    const late = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await late.open();
    const got = await late.until(4);
    expect(got.slice(1).map((t) => batch(t).length)).toEqual([HISTORY_BATCH, HISTORY_BATCH, 7]);
    expect(got.slice(1).flatMap(batch)).toEqual(Array.from({ length: n }, (_, i) => msg(i)));
  });

  it('bounds the history by bytes too', async () => {
    const { relay, port, server } = await relayServer(1000, 3 * msg(0).length + 5);
    track(server);
    track({ close: () => void relay.close() });
    // A page connected first: once it has all six, the relay has counted them.
    const watcher = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await watcher.open();
    const app = track(new Client(`ws://127.0.0.1:${port}/inspect`));
    await app.open();
    for (let i = 0; i < 6; i++) app.ws.send(msg(i));
    await watcher.until(7);
    const late = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await late.open();
    const history = await late.until(2);
    expect(notice(history[0])).toMatchObject({ received: 6, dropped: 3 });
    expect(batch(history[1])).toEqual([3, 4, 5].map(msg));
  });

  it("refuses a page of another site, and any path but /inspect and /inspect/view on the lab's port", async () => {
    const { relay, port, server } = await relayServer(10);
    track(server);
    track({ close: () => void relay.close() });
    const status = (path: string, headers: Record<string, string>) =>
      new Promise<number>((ok) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
        ws.once('unexpected-response', (_req, res) => {
          ok(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.once('open', () => {
          ok(101);
          ws.close();
        });
        ws.once('error', () => {});
      });
    expect(await status('/inspect/view', { Origin: 'https://example.com' })).toBe(403);
    expect(await status('/inspect', { Origin: 'http://attacker.test:5174' })).toBe(403);
    expect(await status('/inspect/view', { Origin: 'http://localhost:5174' })).toBe(101);
    expect(await status('/elsewhere', {})).toBe(404);
  });

  it('relays the fixture app: both actors with their definitions and parent, the events with their source', async () => {
    const { relay, port, server } = await relayServer(10_000);
    track(server);
    track({ close: () => void relay.close() });
    const page = track(new Client(`ws://127.0.0.1:${port}/inspect/view`));
    await page.open();
    const app = startInspectApp(`ws://127.0.0.1:${port}/inspect`);
    track({ close: () => app.stop() });
    app.order.send({ type: 'ADD', item: 'book' });
    app.order.send({ type: 'CHECKOUT' });
    app.order.send({ type: 'PAY' });
    const parsed = () =>
      page.got.slice(1).map(
        (t) =>
          JSON.parse(t) as {
            type: string;
            sessionId: string;
            parentId?: string;
            sourceId?: string;
            name?: string;
            definition?: string;
            event?: { type: string };
            snapshot?: { value?: unknown };
          },
      );
    // Until the payment's snapshot after PAY has come through.
    while (!parsed().some((m) => m.type === '@xstate.snapshot' && JSON.stringify(m.snapshot?.value) === '"authorizing"'))
      await page.until(page.got.length + 1);
    const messages = parsed();
    const actors = messages.filter((m) => m.type === '@xstate.actor');
    const order = actors.find((a) => a.name === 'order');
    const payment = actors.find((a) => a.name === 'payment');
    expect(order?.parentId).toBeUndefined();
    expect(payment?.parentId).toBe(order?.sessionId);
    expect(JSON.parse(order?.definition ?? '{}')).toMatchObject({ id: 'order', initial: 'shopping' });
    expect(JSON.parse(payment?.definition ?? '{}')).toMatchObject({
      id: 'payment',
      states: { idle: {}, authorizing: {}, paid: { type: 'final' } },
    });
    // The order forwards PAY to its payment: an event with a source.
    expect(
      messages.some(
        (m) =>
          m.type === '@xstate.event' && m.event?.type === 'PAY' && m.sessionId === payment?.sessionId && m.sourceId === order?.sessionId,
      ),
    ).toBe(true);
  });
});

describe('loopscope lab --inspect: the command', () => {
  it('refuses a bad port, a bad history and a non-loopback host in one line, exit 2', async () => {
    for (const [args, says] of [
      [['--inspect', 'abc'], /^loopscope: --inspect: expected a port number from 0 to 65535 .*got "abc"\n$/],
      [['--inspect', '70000'], /^loopscope: --inspect: expected a port number .*got "70000"\n$/],
      [['--inspect', '--inspect-history', '0'], /^loopscope: --inspect-history: expected a number of events ≥ 1, got "0"\n$/],
      [['--inspect', '--host', '0.0.0.0'], /^loopscope: --inspect: the relay listens on 127\.0\.0\.1 only/],
    ] as const) {
      const r = await runInProcess(['lab', ...args]);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr).toMatch(says);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  const dir = mkdtempSync(join(tmpdir(), 'loopscope-lab-inspect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves the relay on its own port and the lab's, says where on stderr, and marks the page", async () => {
    const labDir = join(dir, 'lab');
    mkdirSync(labDir, { recursive: true });
    writeFileSync(join(labDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>\n');
    const child: ChildProcess = spawn(join(ROOT, 'cli/loopscope'), ['lab', '--port', '0', '--inspect', '0'], {
      cwd: dir,
      env: { ...process.env, LOOPSCOPE_LAB_DIR: labDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    try {
      let stderr = '';
      let stdout = '';
      const lines = new Promise<void>((ok, fail) => {
        const check = () => {
          if (/inspector page: .*\n/.test(stderr) && stdout.includes('\n')) ok();
        };
        child.stderr!.on('data', (c: Buffer) => {
          stderr += c.toString();
          check();
        });
        child.stdout!.on('data', (c: Buffer) => {
          stdout += c.toString();
          check();
        });
        void exit.then((code) => fail(new Error(`exited ${code}: ${stderr}`)));
      });
      await lines;
      const labPort = Number(/^lab: http:\/\/127\.0\.0\.1:(\d+)\/\n$/.exec(stdout)?.[1]);
      const sendTo = /^inspect: apps send to (ws:\/\/127\.0\.0\.1:(\d+))  /m.exec(stderr);
      expect(labPort).toBeGreaterThan(0);
      expect(sendTo?.[2]).toBeDefined();
      expect(sendTo?.[2]).not.toBe(String(labPort));
      expect(stderr).toContain(`inspect: the inspector page: http://127.0.0.1:${labPort}/?inspect=1\n`);
      // The page is told the relay is on, and on which port apps send.
      const body = await new Promise<string>((ok) =>
        get(`http://127.0.0.1:${labPort}/`, (res) => {
          let b = '';
          res.on('data', (c: Buffer) => {
            b += c.toString();
          });
          res.on('end', () => ok(b));
        }),
      );
      expect(body).toContain(`<script id="loopscope-inspect" type="application/json">{"port":${sendTo?.[2]}}</script>`);
      // An app at the bare ws://127.0.0.1:PORT (the library's default form) reaches a page on the lab's port.
      const page = track(new Client(`ws://127.0.0.1:${labPort}/inspect/view`));
      await page.open();
      await page.until(1);
      const app = track(new Client(sendTo?.[1] ?? ''));
      await app.open();
      app.ws.send(msg(1));
      expect((await page.until(2))[1]).toBe(msg(1));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
  });

  it("`lab --inspect my.yaml`: the word after --inspect is a file to open, not a port (apps send to the lab's port)", async () => {
    const labDir = join(dir, 'lab2');
    mkdirSync(labDir, { recursive: true });
    writeFileSync(join(labDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>\n');
    copyFileSync(join(ROOT, 'scenarios/talk-lab.yaml'), join(dir, 'mine.yaml'));
    const child: ChildProcess = spawn(join(ROOT, 'cli/loopscope'), ['lab', '--port', '0', '--inspect', 'mine.yaml'], {
      cwd: dir,
      env: { ...process.env, LOOPSCOPE_LAB_DIR: labDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    try {
      let stderr = '';
      let stdout = '';
      await new Promise<void>((ok, fail) => {
        const check = () => {
          if (/inspector page: .*\n/.test(stderr) && stdout.includes('\n')) ok();
        };
        child.stderr!.on('data', (c: Buffer) => {
          stderr += c.toString();
          check();
        });
        child.stdout!.on('data', (c: Buffer) => {
          stdout += c.toString();
          check();
        });
        void exit.then((code) => fail(new Error(`exited ${code}: ${stderr}`)));
      });
      const labPort = Number(/^lab: http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)?.[1]);
      expect(stdout).toContain('scenario=talk-lab'); // the file opened: its scenario's name
      expect(stderr).toContain(`inspect: apps send to ws://127.0.0.1:${labPort}/inspect`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
  });
});
