// The HPA machine, unchanged, scaling REAL Incus containers (the real binding in real/).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { OWNER_KEY } from '../../machines/incus-hpa';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ActRequest, ApproveAct } from '../../real/hpa-actors';
import { OwnershipError, realHpaActors } from '../../real/hpa-actors';
import { describeAct, ttyApprover } from '../../real/step-prompt';
import { RealHpaRunner } from '../../real/hpa-runner';
import { IncusClient } from '../../real/incus';
import { LoadDriver } from '../../real/load';
import {
  MiB,
  cleanupOwned,
  expectConforms,
  ownedInstances,
  realConfig,
  sleep,
  socketPath,
  uniqueHpa,
  waitUntil,
  withIncus,
} from './real-helpers';

const hpa = uniqueHpa('sc');
// Named like this HPA's pods (same prefix) but without its key: must never be touched.
const neighbour = `${hpa.prefix}neighbour`;
// Carries another HPA's key.
const otherOwned = `${hpa.prefix}other`;

const runningOwned = async (client: IncusClient) => (await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running');

withIncus.describe('real HPA: scaling real containers', () => {
  let client: IncusClient;
  const createdAt = new Map<string, string>();

  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    const image = realConfig(hpa).settings.image;
    await client.createInstance({
      name: neighbour,
      source: { type: 'image', alias: image },
      config: { 'limits.memory': String(64 * MiB) },
      start: true,
    });
    await client.createInstance({
      name: otherOwned,
      source: { type: 'image', alias: image },
      config: { [OWNER_KEY]: `${hpa.name}-x`, 'limits.memory': String(64 * MiB) },
      start: true,
    });
    for (const n of [neighbour, otherOwned]) createdAt.set(n, (await client.getInstance(n)).created_at);
  }, 120_000);

  afterAll(async () => {
    if (!client) return;
    await cleanupOwned(client, hpa.name, [neighbour, otherOwned]);
    await client.close();
  }, 120_000);

  async function expectNeighboursUntouched(): Promise<void> {
    for (const n of [neighbour, otherOwned]) {
      const inst = await client.getInstance(n);
      expect(inst.status, `${n} status`).toBe('Running');
      expect(inst.created_at, `${n} was not recreated`).toBe(createdAt.get(n));
    }
  }

  it('scales up under load from the load driver and down when it stops, holding max and min', async () => {
    const runner = new RealHpaRunner({ client, config: realConfig(hpa, { minPods: 1, maxPods: 3, memoryThreshold: 50 }) });
    const driver = new LoadDriver(client, hpa.name, 300);
    await runner.start();
    try {
      await waitUntil('min 1 pod running', async () => (await runningOwned(client)).length === 1, 20_000);
      // 150MB over ≤ 3 pods of 64MiB: ≥ 75% each, so the policy wants more than max.
      await driver.setDemand(150 * 1e6);
      driver.start();
      await waitUntil('3 pods running (max)', async () => (await runningOwned(client)).length === 3, 40_000);
      await sleep(3_500); // three more periods under load: max held
      expect((await runningOwned(client)).length).toBe(3);
      const atMax = runner.frames.filter((f) => f.note?.includes('at max 3'));
      expect(atMax.length).toBeGreaterThan(0);

      await driver.setDemand(0);
      await waitUntil('back to min 1', async () => (await ownedInstances(client, hpa.name)).length === 1, 40_000);
      await sleep(3_000); // idle: min held
      const left = await ownedInstances(client, hpa.name);
      expect(left.map((i) => i.status)).toEqual(['Running']);
    } finally {
      await driver.stop();
      await runner.stop();
    }
    const counts = runner.frames.map((f) => f.world.pods.filter((p) => p.owned && p.status === 'Running').length);
    expect(Math.max(...counts)).toBe(3);
    expect(runner.frames.some((f) => f.note?.startsWith('deleted '))).toBe(true);
    // Observation is filtered on the owner key by the server: the neighbours are never even listed.
    expect(runner.frames.flatMap((f) => f.world.pods).filter((p) => !p.owned)).toEqual([]);
    await expectNeighboursUntouched();
    expectConforms(runner.trace(), 'scaling-load');
  }, 150_000);

  it('seed policy in real mode: counts only owned pods, so the prefix-named neighbour (last in the list) is never deleted', async () => {
    // Two owned pods, no load, min 1: the seed deletes "the last pod in the list". In the
    // simulator (scenarios/unowned-neighbour.yaml) that is the neighbour; here only owned pods are listed.
    // (The seed only creates at 0 running pods, so `fixed` brings the count to 2 first.)
    const runner = new RealHpaRunner({ client, config: realConfig(hpa, { policy: 'fixed', minPods: 2, maxPods: 3, memoryThreshold: 50 }) });
    await runner.start();
    try {
      await waitUntil('2 owned pods', async () => (await runningOwned(client)).length === 2, 20_000);
      runner.update(realConfig(hpa, { policy: 'seed', minPods: 1, maxPods: 3, memoryThreshold: 50 }));
      await waitUntil('down to 1 owned pod', async () => (await ownedInstances(client, hpa.name)).length === 1, 20_000);
      await sleep(2_000); // not a wait: time passes at 1 pod, which must then hold
    } finally {
      await runner.stop();
    }
    expect(runner.frames.some((f) => f.event === 'CONFIG.UPDATE' && f.note?.includes('policy seed'))).toBe(true);
    expect(runner.frames.some((f) => f.note?.includes('(last in the list)'))).toBe(true);
    expect(runner.refusals).toEqual([]);
    await expectNeighboursUntouched();
    // The seed's deletes (waitForStop: false) are held to the model's waited delete, as real mode runs them.
    expect(expectConforms(runner.trace(), 'scaling-seed').notes.join('\n')).toMatch(/waitForStop: false/);
  }, 90_000);

  it('the deletePod actor refuses an instance without its key, even when asked directly', async () => {
    const refused: string[] = [];
    const actors = realHpaActors({
      client,
      settings: () => realConfig(hpa).settings,
      clock: () => 0,
      epoch: Date.now(),
      onRefused: (e) => refused.push(e.instance),
    });
    const config = realConfig(hpa, { policy: 'seed' }).config;
    for (const name of [neighbour, otherOwned]) {
      const error = await new Promise<unknown>((resolve) => {
        const actor = createActor(actors.deletePod, { input: { config, name, waitForStop: false } });
        actor.subscribe({ error: resolve, complete: () => resolve(undefined) });
        actor.start();
      });
      expect(error).toBeInstanceOf(OwnershipError);
      expect(String(error)).toContain(`refused to delete ${name}`);
    }
    expect(refused).toEqual([neighbour, otherOwned]);
    // Gone already is done, not a crash.
    const gone = await new Promise<unknown>((resolve) => {
      const actor = createActor(actors.deletePod, { input: { config, name: `${hpa.prefix}gone`, waitForStop: true } });
      actor.subscribe({ error: resolve, complete: () => resolve('done') });
      actor.start();
    });
    expect(gone).toBe('done');
    await expectNeighboursUntouched();
  }, 30_000);

  it('asks an approval hook before each act (the --step mode; a web live mode can plug in the same way)', async () => {
    await cleanupOwned(client, hpa.name);
    const asked: ActRequest[] = [];
    const seen: string[] = [];
    let runner: RealHpaRunner | undefined;
    const approve: ApproveAct = async (request) => {
      asked.push(request);
      // What --step shows: observation, comparison, planned action.
      seen.push(describeAct(request, runner?.context));
      return asked.length === 1 ? 'skip' : 'approve';
    };
    runner = new RealHpaRunner({ client, config: realConfig(hpa, { minPods: 1, maxPods: 2 }), approve });
    await runner.start();
    try {
      await waitUntil('1 pod after the second ask', async () => (await runningOwned(client)).length === 1, 20_000);
    } finally {
      await runner.stop();
    }
    expect(asked.slice(0, 2).map((r) => r.kind)).toEqual(['create', 'create']);
    expect(runner.frames.some((f) => f.note === `skipped by the operator: create ${asked[0]!.name}`)).toBe(true);
    expect(seen[0]).toContain('compare:  0 pods < min 1');
    expect(seen[0]).toContain(`next:     create ${asked[0]!.name}`);
    expect((await runningOwned(client)).map((i) => i.name)).toEqual([asked[1]!.name]);
    expectConforms(runner.trace(), 'scaling-approve');

    // The terminal front end answers from a stream: y approves, s skips, q skips and quits.
    const answers = new PassThrough();
    const screen = new PassThrough();
    let shown = '';
    screen.on('data', (d: Buffer) => {
      shown += d.toString();
    });
    const prompts = () => shown.split('approve?').length - 1;
    const answer = async (text: string, prompt: number) => {
      await waitUntil(`prompt ${prompt}`, async () => prompts() >= prompt, 5_000, 10);
      answers.write(text);
    };
    const quit: string[] = [];
    const tty = ttyApprover(
      () => undefined,
      () => quit.push('quit'),
      answers,
      screen,
    );
    const request: ActRequest = { kind: 'delete', name: 'x', waitForStop: true, config: realConfig(hpa).config };
    // Type-ahead before any question: ignored. The approver's reader is the stream's first 'data' listener,
    // so once this one has seen the line, the approver has read it (and dropped it).
    const typedAhead = once(answers, 'data');
    answers.write('y\n');
    await typedAhead;
    const first = tty(request);
    await answer('maybe\n', 1);
    await answer('y\n', 2);
    expect(await first).toBe('approve');
    const second = tty(request);
    await answer('q\n', 3);
    expect(await second).toBe('skip');
    expect(quit).toEqual(['quit']);
    expect(shown).toContain('next:     delete x (stop, wait, delete)');
    tty.close();
  }, 60_000);

  it('--dry-run observes and decides but never creates or deletes', async () => {
    await cleanupOwned(client, hpa.name);
    const before = (await client.listInstances({ recursion: 0 })).sort();
    const runner = new RealHpaRunner({ client, config: realConfig(hpa, { minPods: 2, maxPods: 3 }), dryRun: true });
    await runner.start();
    try {
      await runner.runOnce(20_000);
      await runner.waitFor((s) => s.context.periods >= 2, 10_000);
    } finally {
      await runner.stop();
    }
    expect((await client.listInstances({ recursion: 0 })).sort()).toEqual(before);
    expect(runner.frames.filter((f) => f.note?.startsWith('dry run: would create ')).length).toBeGreaterThanOrEqual(2);
    expectConforms(runner.trace(), 'scaling-dry-run');
  }, 60_000);
});
