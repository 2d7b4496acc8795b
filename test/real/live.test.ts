// Live mode against the REAL daemon: `loopscope real --step --live 0` as a process, a `ws`
// client as the browser. Token and origin checks; the machine's inspection in XState's protocol
// (the root actor with its definition, a root snapshot for every frame the trace records) with the
// thin loopscope.* layer beside it; a pending act skipped once and then approved from the socket
// (the pod is created only then). The server alone is tested in test/real-units/live-server.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OWNER_KEY } from '../../machines/incus-hpa';
import { IncusClient } from '../../real/incus';
import type { Trace } from '../../sim/trace';
import { dottedState } from '../../sim/trace';
import type { LiveRun } from './live-run';
import { liveClient, liveFrames, startLiveRun, upgradeStatus, writeLiveConfig } from './live-run';
import {
  cleanupOwned,
  deleteLease,
  expectConforms,
  ownedInstances,
  runCli,
  socketPath,
  uniqueHpa,
  waitUntil,
  withIncus,
} from './real-helpers';

const hpa = uniqueHpa('lv');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-live-'));
const traceOut = join(dir, 'run.json');

withIncus.describe('loopscope real --live', () => {
  let client: IncusClient;
  let run: LiveRun;
  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    run = await startLiveRun(writeLiveConfig(dir, hpa, 1, 2), ['--step', '--out', traceOut]);
  }, 60_000);
  afterAll(async () => {
    await run?.stop();
    if (client) {
      await cleanupOwned(client, hpa.name);
      await deleteLease(client, hpa.name);
      await client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('prints a ws://127.0.0.1 address with a token; a wrong or missing token and a foreign origin are refused', async () => {
    expect(run.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/);
    expect(await upgradeStatus(run.url.replace(/token=\w+/, 'token=0123456789abcdef0123456789abcdef'))).toBe(401);
    expect(await upgradeStatus(run.url.replace(/\?token=\w+/, ''))).toBe(401);
    expect(await upgradeStatus(run.url, { Origin: 'https://example.org' })).toBe(403);
    expect(await upgradeStatus(run.url, { Origin: 'http://127.0.0.1:5173' })).toBe(101);
  });

  it('streams the run, the inspection and the frames; the act waits for an answer: skip does nothing, approve creates the owned pod', async () => {
    const live = await liveClient(run.url);
    const frames = (test: (f: ReturnType<typeof liveFrames>[number]) => boolean, timeoutMs = 20_000) =>
      waitUntil('a frame', async () => liveFrames(live.messages).find(test), timeoutMs, 20);
    try {
      const runMessage = await live.next('loopscope.run');
      expect(live.messages[0]).toBe(runMessage);
      expect(runMessage).toMatchObject({
        loop: 'incus-hpa',
        step: true,
        dryRun: false,
        config: { name: hpa.name, minPods: 1, policy: 'fixed' },
      });
      const root = await live.next('@xstate.actor', (a) => a.parentId === undefined);
      expect(root.name).toBe('incus-hpa');
      expect((JSON.parse(root.definition ?? '{}') as { id?: string }).id).toBe('incus-hpa');
      // The first act (0 pods < min 1 → create), announced once the loop reaches it.
      const first = (await live.next('loopscope.pending')).pending;
      expect(first).toMatchObject({ kind: 'create', decision: { comparison: expect.stringContaining('< min 1') as unknown } });
      expect(first.name.startsWith(hpa.prefix)).toBe(true);
      expect(first.text).toContain(`next:     create ${first.name}`);
      expect(await ownedInstances(client, hpa.name)).toEqual([]); // it waits for us

      // An answer to an act that is not pending is refused with a reason.
      const before = live.messages.length;
      live.send({ type: 'approve', id: first.id + 100 });
      expect((await live.next('loopscope.error', () => true, before)).message).toContain('is not pending');
      live.send({ type: 'skip', id: first.id });
      await live.next('loopscope.resolved', (m) => m.id === first.id && m.verdict === 'skip' && m.by === 'browser');
      await frames((f) => f.note === `skipped by the operator: create ${first.name}`);
      expect(await ownedInstances(client, hpa.name)).toEqual([]);

      // Next period asks again; this time approve.
      const second = (await live.next('loopscope.pending', (m) => m.pending.id > first.id)).pending;
      expect(second.kind).toBe('create');
      live.send({ type: 'approve', id: second.id });
      await live.next('loopscope.resolved', (m) => m.id === second.id && m.verdict === 'approve');
      const created = await frames((f) => f.event === 'xstate.done.actor.createPod' && !(f.note ?? '').includes('skipped'), 30_000);
      expect(created.note ?? '').not.toContain('skipped');
      const owned = await ownedInstances(client, hpa.name);
      expect(owned.map((i) => [i.name, i.config[OWNER_KEY]])).toEqual([[second.name, hpa.name]]);
      // The next observe's frame shows the pod in the world summary, as the lab draws it.
      const seen = await frames((f) => f.world.pods.some((p) => p.name === second.name && p.owned && p.status === 'Running'));
      expect(seen.world.apiCalls).toBeGreaterThan(0);
      expect(liveFrames(live.messages).length).toBeGreaterThan(5);
    } finally {
      live.ws.close();
    }
  }, 60_000);

  it('a late client gets the history; at SIGTERM it holds a root snapshot for every frame of the --out trace, same states, same order', async () => {
    await waitUntil('a quiet period', async () => run.out.stdout.includes('no scale action'), 20_000);
    const late = await liveClient(run.url);
    await late.next('@xstate.actor', (a) => a.parentId === undefined);
    // The server sends the root actor first, then the history: its messages may still be on their way.
    await waitUntil('the history', async () => liveFrames(late.messages).length > 5, 10_000, 20);
    expect(liveFrames(late.messages)[0]!.event).toBe('real.adopt');
    expect(late.messages.some((m) => m.type === 'loopscope.pending')).toBe(false);
    const closed = new Promise<number>((resolve) => late.ws.once('close', (code) => resolve(code)));
    const r = await run.stop();
    expect(r.code).toBe(0);
    expect(await closed).toBe(1001);
    const trace = JSON.parse(readFileSync(traceOut, 'utf8')) as Trace;
    const root = late.messages.flatMap((m) => (m.type === '@xstate.actor' && m.parentId === undefined ? [m] : []))[0];
    expect((JSON.parse(root?.definition ?? '{}') as { id?: string }).id).toBe('incus-hpa');
    // The machine's own snapshots: every frame but the runner's (real.adopt, before the actor starts).
    const rootSnapshots = late.messages.flatMap((m) => (m.type === '@xstate.snapshot' && m.sessionId === root?.sessionId ? [m] : []));
    const taken = trace.frames.filter((f) => !f.event.startsWith('real.'));
    expect(rootSnapshots.map((s) => dottedState('value' in s.snapshot ? s.snapshot.value : undefined))).toEqual(taken.map((f) => f.state));
    expect(rootSnapshots.map((s) => s.event.type)).toEqual(taken.map((f) => f.event));
    // The frames the lab makes of them, with the layer's worlds: the trace's, one for one.
    const pick = (f: Trace['frames'][number]) => ({ t: f.t, state: f.state, event: f.event, phase: f.phase, note: f.note, world: f.world });
    expect(liveFrames(late.messages).map(pick)).toEqual(trace.frames.map(pick));
    // The trace written on SIGTERM: the act skipped from the browser, then the one approved, as the model replays them.
    expect(expectConforms(traceOut).notes.join('\n')).toMatch(/skipped by the operator: create/);
  }, 30_000);

  it('--live with a bad port exits 2 before contacting Incus', async () => {
    const r = await runCli(['real', '--config', join(dir, `${hpa.name}.yaml`), '--live', 'http']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--live: expected a port 0–65535');
  });
});
