// `loopscope sim --inspect` speaks Stately's inspection protocol to the library's own relay and
// receiver (@statelyai/inspect/server createInspectorServer, @statelyai/inspect
// createWebSocketReceiver): the loop's actor announced with its machine definition, then one event and
// one snapshot per frame of the trace the same run writes, stamped in virtual time — and the run is
// the same with or without an inspector listening; and `trace --inspect` tells a trace file again.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { createWebSocketReceiver } from '@statelyai/inspect';
import { createInspectorServer } from '@statelyai/inspect/server';
import { afterAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startInspectReceiver } from '../inspect-receiver';
import type { Trace } from '../../sim/trace';
import { dottedState } from '../../sim/trace';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'loopscope-sim-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const sim = (...args: string[]) =>
  run(join(ROOT, 'cli/loopscope'), ['sim', join(ROOT, 'scenarios/talk-lab.yaml'), ...args], { cwd: ROOT, maxBuffer: 64 << 20 });
const readTrace = (file: string): Trace => JSON.parse(readFileSync(file, 'utf8')) as Trace;

it("sim --inspect: through Stately's relay to its receiver, one event and one snapshot per frame, the same run as without", async () => {
  const port = await freePort();
  const relay = createInspectorServer({ port, autoOpen: false });
  const got: StatelyInspectionEvent[] = [];
  try {
    const receiver = createWebSocketReceiver({ server: `ws://127.0.0.1:${port}` });
    // The relay keeps only its last 200 messages for late joiners: the receiver must be connected
    // before the run. A probe through the relay that the receiver hears proves it is.
    let heard!: () => void;
    const probeHeard = new Promise<void>((resolve) => {
      heard = resolve;
    });
    receiver.subscribe((e) => {
      if ((e as { type: string }).type === 'probe') heard();
      else got.push(e);
    });
    const probe = new WebSocket(`ws://127.0.0.1:${port}`);
    await new Promise((resolve) => probe.once('open', resolve));
    const sendProbe = setInterval(() => probe.send(JSON.stringify({ type: 'probe' })), 50);
    await probeHeard;
    clearInterval(sendProbe);
    probe.close();

    await sim('--inspect', `ws://127.0.0.1:${port}`, '--out', join(dir, 'inspected.json'));
    await sim('--out', join(dir, 'plain.json'));
    const trace = readTrace(join(dir, 'inspected.json'));
    // Decisions unchanged: the same trace with and without the inspector.
    expect(trace).toEqual(readTrace(join(dir, 'plain.json')));

    const snapshots = () => got.filter((e) => e.type === '@xstate.snapshot');
    await expect.poll(() => snapshots().length, { timeout: 20_000 }).toBe(trace.frames.length);
    const actors = got.filter((e) => e.type === '@xstate.actor');
    expect(actors).toHaveLength(1);
    const root = actors[0]!;
    expect(root.name).toBe('incus-hpa');
    const definition = JSON.parse(root.definition ?? '{}') as { id?: string; states?: Record<string, unknown> };
    expect(definition.id).toBe('incus-hpa');
    expect(Object.keys(definition.states ?? {})).toEqual(expect.arrayContaining(['observing', 'comparing', 'acting', 'waiting']));
    expect(got.filter((e) => e.type === '@xstate.event')).toHaveLength(trace.frames.length);
    // One for one, in order: the frame's event and state; createdAt in virtual time from the run's start.
    const start = Number(snapshots()[0]!.createdAt);
    snapshots().forEach((s, i) => {
      const frame = trace.frames[i]!;
      expect(s.event.type, `frame ${i}`).toBe(frame.event);
      // The protocol types a snapshot as XState's Snapshot; a machine's carries its value on the wire.
      expect(dottedState('value' in s.snapshot ? s.snapshot.value : undefined), `frame ${i}`).toBe(frame.state);
      expect(Number(s.createdAt) - start, `frame ${i}`).toBe(frame.t - trace.frames[0]!.t);
      expect(s.sessionId).toBe(root.sessionId);
    });
  } finally {
    relay.stop();
  }
}, 120_000);

it('sim --inspect: a URL that is not ws:// is bad input (exit 2), a receiver that is not there is said in one line (exit 1)', async () => {
  const bad = await sim('--inspect', 'http://127.0.0.1:1').then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  expect(bad?.code).toBe(2);
  expect(bad?.stderr.trim()).toBe('loopscope: --inspect: expected a ws:// or wss:// URL, got "http://127.0.0.1:1"');
  const port = await freePort();
  const gone = await sim('--inspect', `ws://127.0.0.1:${port}`).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  expect(gone?.code).toBe(1);
  expect(gone?.stderr.trim()).toBe(
    `loopscope: --inspect: cannot connect to ws://127.0.0.1:${port}/: connect ECONNREFUSED 127.0.0.1:${port}`,
  );
}, 60_000);

it("trace --inspect: a trace file told again (a counterexample check --out wrote), one snapshot per frame with the frame's state as the value", async () => {
  const out = join(dir, 'cex');
  await run(join(ROOT, 'cli/loopscope'), ['check', join(ROOT, 'scenarios/incus-hpa-check-flapping.yaml'), '--out', out], {
    cwd: ROOT,
  }).catch((e: { code: number }) => {
    if (e.code !== 1) throw e;
  });
  const file = readdirSync(out).find((f) => f.endsWith('.trace.json'));
  expect(file, 'check --out wrote a counterexample').toBeDefined();
  const trace = readTrace(join(out, file!));
  const receiver = await startInspectReceiver();
  const { got } = receiver;
  try {
    const { stderr } = await run(join(ROOT, 'cli/loopscope'), ['trace', join(out, file!), '--inspect', receiver.url], { cwd: ROOT });
    await receiver.closed;
    expect(stderr).toMatch(new RegExp(`sent ${trace.frames.length} frames`));
    const actor = got.find((e) => e.type === '@xstate.actor');
    expect(actor?.name).toBe(trace.loop);
    const snapshots = got.flatMap((e) => (e.type === '@xstate.snapshot' ? [e] : []));
    expect(snapshots.map((s) => dottedState('value' in s.snapshot ? s.snapshot.value : undefined))).toEqual(
      trace.frames.map((f) => f.state),
    );
    expect(snapshots.map((s) => s.event.type)).toEqual(trace.frames.map((f) => f.event));
  } finally {
    await receiver.stop();
  }
}, 120_000);
