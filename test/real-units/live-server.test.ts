// The live server of `loopscope real --live` in process (no Incus): who may answer and who wins, and
// the socket's order — XState's inspection events as createInspector hands them on, each frame right
// after the root snapshot it belongs to, the runner's own messages behind it — read by a plain `ws`
// client and by @statelyai/inspect's own createWebSocketReceiver.
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { createInspector, createWebSocketReceiver } from '@statelyai/inspect';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createActor, createMachine } from 'xstate';
import type { InspectionEvent } from 'xstate';
import { DEFAULT_CONFIG } from '../../machines/incus-hpa';
import type { LiveSource } from '../../real/live-server';
import { LiveServer } from '../../real/live-server';
import { LiveStream } from '../../real/live-stream';
import type { LiveFrame, LiveServerMessage } from '../../sim/live-protocol';

const config = { ...DEFAULT_CONFIG, name: 'lst-inproc' };
const request = { kind: 'create' as const, name: 'pod-x', config };
const source = (step: boolean): LiveSource => ({
  scenario: 'inproc',
  endpoint: 'test',
  step,
  dryRun: false,
  config: () => config,
  context: () => undefined,
});

async function until<T>(what: string, fn: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function client(url: string) {
  const ws = new WebSocket(url);
  const messages: LiveServerMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as LiveServerMessage)); // the server's own JSON
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    messages,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    next<T extends LiveServerMessage['type']>(type: T, test: (m: Extract<LiveServerMessage, { type: T }>) => boolean = () => true) {
      return until(`a "${type}" message`, () =>
        messages.find(
          (m): m is Extract<LiveServerMessage, { type: T }> => m.type === type && test(m as Extract<LiveServerMessage, { type: T }>),
        ),
      ); // narrowed by its type just checked
    },
  };
}

const frameAt = (t: number, state: string, event: string): LiveFrame => ({
  t,
  state,
  event,
  phase: 'observe',
  world: { demand: 0, pods: [], apiCalls: t, unownedTouched: 0 },
});

describe('LiveServer in process', () => {
  it('without --step, answers are refused with a reason; malformed messages too', async () => {
    const server = await LiveServer.start(source(false), 0);
    try {
      const live = await client(server.url);
      await live.next('loopscope.run', (h) => !h.step);
      live.send({ type: 'approve', id: 1 });
      expect((await live.next('loopscope.error')).message).toContain('not in --step mode');
      live.ws.send('{"type":"approve"}');
      expect((await live.next('loopscope.error', (m) => m.message.startsWith('expected'))).message).toContain('"approve"|"skip"');
      live.ws.close();
    } finally {
      await server.close();
    }
  });

  it('the first answer wins: the terminal before the browser, the browser before the terminal; close skips what is pending', async () => {
    const server = await LiveServer.start(source(true), 0);
    try {
      const live = await client(server.url);
      await live.next('loopscope.run');
      const fromTerminal = await server.approver(async () => 'skip')(request);
      expect(fromTerminal).toBe('skip');
      const resolved = await live.next('loopscope.resolved');
      expect(resolved).toMatchObject({ verdict: 'skip', by: 'terminal' });
      live.send({ type: 'approve', id: resolved.id });
      expect((await live.next('loopscope.error')).message).toContain('is not pending');
      const log: string[] = [];
      const asked = server.approver(
        () => new Promise(() => undefined),
        (l) => log.push(l),
      )(request);
      const pending = await live.next('loopscope.pending', (m) => m.pending.id > resolved.id);
      live.send({ type: 'approve', id: pending.pending.id });
      expect(await asked).toBe('approve');
      expect(log).toEqual(['approved in the browser: create pod-x']);
      // A browser joining while an act is pending is told it after the history.
      const last = server.approver()(request);
      const late = await client(server.url);
      expect((await late.next('loopscope.pending')).pending.id).toBeGreaterThan(pending.pending.id);
      await server.close();
      expect(await last).toBe('skip');
    } finally {
      await server.close().catch(() => undefined);
    }
  });

  it("speaks XState inspection: the actor with its definition, a frame right after its root snapshot, the runner's frame behind it", async () => {
    const server = await LiveServer.start(source(false), 0);
    const machine = createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { FLIP: 'on' } }, on: { on: { FLIP: 'off' } } } });
    // As real-command.ts wires it: the inspector's adapter is the server; the runner records a frame
    // for each root snapshot before handing the event to the inspector (real/hpa-runner.ts).
    const inspector = createInspector({ send: (e) => server.inspection(e) }, { autoStart: false, serializationDepthLimit: 64 });
    let t = 0;
    const actor = createActor(machine, {
      inspect: (ev: InspectionEvent) => {
        if (ev.type === '@xstate.snapshot' && ev.actorRef === actor) {
          const value = 'value' in ev.snapshot ? ev.snapshot.value : undefined;
          server.frame(frameAt(++t, String(value), ev.event.type), true);
        }
        inspector.inspect.next?.(ev);
      },
    });
    const early = await client(server.url);
    const received: StatelyInspectionEvent[] = [];
    const receiver = createWebSocketReceiver({ server: server.url });
    receiver.subscribe((e) => received.push(e));
    try {
      await until('the receiver', () => (server.clients === 2 ? true : undefined));
      server.frame(frameAt(0, 'off', 'real.adopt'), false);
      actor.start();
      actor.send({ type: 'FLIP' });
      // The runner's own frame while the snapshot of FLIP is still on its way: it goes out after it.
      server.frame(frameAt(9, 'on', 'real.note'), false);
      await early.next('loopscope.frame', (m) => m.of === 'runner' && m.event === 'real.note');

      const types = early.messages.map((m) => (m.type === 'loopscope.frame' ? `loopscope.frame:${m.of}` : m.type));
      // (The actor was registered when it was created, before the runner's first frame.)
      expect(types).toEqual([
        'loopscope.run',
        '@xstate.actor',
        'loopscope.frame:runner',
        '@xstate.event',
        '@xstate.snapshot',
        'loopscope.frame:snapshot',
        '@xstate.event',
        '@xstate.snapshot',
        'loopscope.frame:snapshot',
        'loopscope.frame:runner',
      ]);
      const root = await early.next('@xstate.actor');
      expect(root.name).toBe('toggle');
      expect(root.parentId).toBeUndefined();
      expect((JSON.parse(root.definition ?? '{}') as { id?: string }).id).toBe('toggle');
      const snapshots = early.messages.flatMap((m) => (m.type === '@xstate.snapshot' ? [m] : []));
      expect(snapshots.map((s) => ['value' in s.snapshot ? s.snapshot.value : undefined, s.event.type, s.sessionId])).toEqual([
        ['off', 'xstate.init', root.sessionId],
        ['on', 'FLIP', root.sessionId],
      ]);

      // Stately's own receiver reads the same socket: the inspection events are there as it expects them.
      await until("the receiver's snapshots", () =>
        received.filter((e) => e.type === '@xstate.snapshot').length === 2 ? true : undefined,
      );
      expect(received.filter((e) => e.type.startsWith('@xstate.'))).toEqual(early.messages.filter((m) => m.type.startsWith('@xstate.')));

      // A late client gets the same history after the run message.
      const late = await client(server.url);
      await late.next('loopscope.frame', (m) => m.of === 'runner' && m.event === 'real.note');
      expect(late.messages).toEqual(early.messages);
    } finally {
      actor.stop();
      await server.close();
    }
  });

  it("a late client's history is bounded, keeps the root's registration, and never starts with a frame whose snapshot it dropped", () => {
    const stream = new LiveStream(() => undefined);
    const base = { rootId: 'root', createdAt: '0', id: 'x', _version: '0' };
    stream.inspection({
      ...base,
      type: '@xstate.actor',
      name: 'toggle',
      sessionId: 'root',
      parentId: undefined,
      definition: '{"id":"toggle"}',
      snapshot: { status: 'active' },
    });
    // One runner frame first: the bound then falls in the middle of a snapshot and its frame.
    stream.frame(frameAt(0, 'off', 'real.adopt'), false);
    for (let i = 1; i <= 6_000; i++) {
      stream.frame(frameAt(i, 'on', 'FLIP'), true);
      stream.inspection({
        ...base,
        type: '@xstate.snapshot',
        sessionId: 'root',
        snapshot: { status: 'active', output: undefined, error: undefined },
        event: { type: 'FLIP' },
      });
    }
    const history = stream.replay().map((t) => JSON.parse(t) as LiveServerMessage); // the stream's own JSON
    expect(history[0]?.type).toBe('@xstate.actor');
    expect(history[1]?.type).toBe('@xstate.snapshot');
    expect(history.length).toBeLessThanOrEqual(10_001);
    expect(history.at(-1)).toMatchObject({ type: 'loopscope.frame', of: 'snapshot', frame: { t: 6_000 } });
  });
});
