// Live mode against the REAL daemon: `loopscope real --step --live 0` as a process, a `ws`
// client as the browser. Token and origin checks, the hello, frames, and a pending act that
// is skipped once and then approved from the socket (the pod is created only then).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, OWNER_KEY } from '../../machines/incus-hpa';
import { IncusClient } from '../../real/incus';
import type { LiveSource } from '../../real/live-server';
import { LiveServer } from '../../real/live-server';
import type { LiveRun } from './live-run';
import { liveClient, startLiveRun, upgradeStatus, writeLiveConfig } from './live-run';
import { cleanupOwned, deleteLease, expectConforms, ownedInstances, runCli, socketPath, uniqueHpa, waitUntil, withIncus } from './real-helpers';

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

  it('streams hello and frames; the act waits for an answer: skip does nothing, approve creates the owned pod', async () => {
    const live = await liveClient(run.url);
    try {
      const hello = await live.next('hello');
      expect(hello).toMatchObject({ loop: 'incus-hpa', machine: 'incus-hpa', step: true, dryRun: false, config: { name: hpa.name, minPods: 1, policy: 'fixed' } });
      // The first act (0 pods < min 1 → create), either already pending in the hello or announced next.
      const first = hello.pending ?? (await live.next('pending')).pending;
      expect(first).toMatchObject({ kind: 'create', decision: { comparison: expect.stringContaining('< min 1') as unknown } });
      expect(first.name.startsWith(hpa.prefix)).toBe(true);
      expect(first.text).toContain(`next:     create ${first.name}`);
      expect(await ownedInstances(client, hpa.name)).toEqual([]); // it waits for us

      // An answer to an act that is not pending is refused with a reason.
      const before = live.messages.length;
      live.send({ type: 'approve', id: first.id + 100 });
      expect((await live.next('error', () => true, before)).message).toContain('is not pending');
      live.send({ type: 'skip', id: first.id });
      await live.next('resolved', (m) => m.id === first.id && m.verdict === 'skip' && m.by === 'browser');
      await live.next('frame', (m) => m.frame.note === `skipped by the operator: create ${first.name}`);
      expect(await ownedInstances(client, hpa.name)).toEqual([]);

      // Next period asks again; this time approve.
      const second = (await live.next('pending', (m) => m.pending.id > first.id)).pending;
      expect(second.kind).toBe('create');
      const approvedAt = live.messages.length;
      live.send({ type: 'approve', id: second.id });
      await live.next('resolved', (m) => m.id === second.id && m.verdict === 'approve');
      const created = await live.next('frame', (m) => m.frame.event === 'xstate.done.actor.createPod', approvedAt, 30_000);
      expect(created.frame.note ?? '').not.toContain('skipped');
      const owned = await ownedInstances(client, hpa.name);
      expect(owned.map((i) => [i.name, i.config[OWNER_KEY]])).toEqual([[second.name, hpa.name]]);
      // The next observe's frame shows the pod in the world summary, as the lab draws it.
      const seen = await live.next('frame', (m) => m.frame.world.pods.some((p) => p.name === second.name && p.owned && p.status === 'Running'), 0, 20_000);
      expect(seen.frame.world.apiCalls).toBeGreaterThan(0);
      expect(live.messages.filter((m) => m.type === 'frame').length).toBeGreaterThan(5);
    } finally {
      live.ws.close();
    }
  }, 60_000);

  it('a late browser joins with the recorded frames; SIGTERM closes the socket and exits 0', async () => {
    await waitUntil('a quiet period', async () => run.out.stdout.includes('no scale action'), 20_000);
    const late = await liveClient(run.url);
    const hello = await late.next('hello');
    expect(hello.frames.length).toBeGreaterThan(5);
    expect(hello.frames[0]!.event).toBe('real.adopt');
    expect(hello.pending).toBeNull();
    const closed = new Promise<number>((resolve) => late.ws.once('close', (code) => resolve(code)));
    const r = await run.stop();
    expect(r.code).toBe(0);
    expect(await closed).toBe(1001);
    // The trace written on SIGTERM: the act skipped from the browser, then the one approved, as the model replays them.
    expect(expectConforms(traceOut).notes.join('\n')).toMatch(/skipped by the operator: create/);
  }, 30_000);

  it('--live with a bad port exits 2 before contacting Incus', async () => {
    const r = await runCli(['real', '--config', join(dir, `${hpa.name}.yaml`), '--live', 'http']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--live: expected a port 0–65535');
  });
});

// The server alone (no Incus needed): who may answer, and who wins.
describe('LiveServer in process', () => {
  const config = { ...DEFAULT_CONFIG, name: 'lst-inproc' };
  const request = { kind: 'create' as const, name: 'pod-x', config };
  const source = (step: boolean): LiveSource => ({
    scenario: 'inproc', endpoint: 'test', step, dryRun: false, config: () => config, frames: () => [], context: () => undefined,
  });

  it('without --step, answers are refused with a reason; malformed messages too', async () => {
    const server = await LiveServer.start(source(false), 0);
    try {
      const live = await liveClient(server.url);
      await live.next('hello', (h) => !h.step && h.pending === null);
      live.send({ type: 'approve', id: 1 });
      expect((await live.next('error')).message).toContain('not in --step mode');
      live.ws.send('{"type":"approve"}');
      expect((await live.next('error', (m) => m.message.startsWith('expected'))).message).toContain('"approve"|"skip"');
      live.ws.close();
    } finally {
      await server.close();
    }
  });

  it('the first answer wins: the terminal before the browser, the browser before the terminal; close skips what is pending', async () => {
    const server = await LiveServer.start(source(true), 0);
    try {
      const live = await liveClient(server.url);
      await live.next('hello');
      // Terminal answers first; the browser's later answer is refused.
      const fromTerminal = await server.approver(async () => 'skip')(request);
      expect(fromTerminal).toBe('skip');
      const resolved = await live.next('resolved');
      expect(resolved).toMatchObject({ verdict: 'skip', by: 'terminal' });
      live.send({ type: 'approve', id: resolved.id });
      expect((await live.next('error')).message).toContain('is not pending');
      // A terminal that never answers: the browser wins.
      const log: string[] = [];
      const asked = server.approver(() => new Promise(() => undefined), (l) => log.push(l))(request);
      const pending = await live.next('pending', (m) => m.pending.id > resolved.id);
      live.send({ type: 'approve', id: pending.pending.id });
      expect(await asked).toBe('approve');
      expect(log).toEqual(['approved in the browser: create pod-x']);
      // Shutting down with an act pending: skipped, so the runner's stop does not wait on it.
      const last = server.approver()(request);
      await live.next('pending', (m) => m.pending.id > pending.pending.id);
      await server.close();
      expect(await last).toBe('skip');
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});
