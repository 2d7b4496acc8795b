// Real-mode operations against the REAL daemon, each once wrong against a real host: owned leftovers
// collected whatever the policy, identity re-read at the act, adoption that ignores unowned
// operations, owned-only observation, and the event wake-up.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { OWNER_KEY } from '../../machines/incus-hpa';
import type { RealActorHooks } from '../../real/hpa-actors';
import { NotLeaderError, removeOwned } from '../../real/hpa-actors';
import { RealHpaRunner } from '../../real/hpa-runner';
import { IdentityChangedError, identityOf } from '../../real/identity';
import type { IncusClient } from '../../real/incus';
import { listOwned } from '../../real/owned-observe';
import {
  ROOT,
  connectForSuite,
  expectConforms,
  forceDelete,
  ownedInstances,
  realConfig,
  sleep,
  uniqueHpa,
  waitOwnedRunning,
  waitUntil,
  withIncus,
} from './real-helpers';

const hpa = uniqueHpa('op');
const IMAGE = realConfig(hpa).settings.image;
const run = promisify(execFile);

withIncus.describe('real HPA: operations', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  const others: string[] = [];

  async function make(name: string, owner: string | null, start: boolean): Promise<void> {
    others.push(name);
    await client.createInstance({
      name,
      source: { type: 'image', alias: IMAGE },
      config: { 'limits.memory': '64MiB', ...(owner ? { [OWNER_KEY]: owner } : {}) },
      start,
    });
  }
  const cleanupOthers = async () => {
    for (const n of others.splice(0)) await forceDelete(client, n).catch(() => undefined);
  };

  it('observes only owned instances (server-side filter), exact owner match; an unowned operation does not delay adoption', async () => {
    // Prefix-named unowned neighbour (running, busy with an exec), a look-alike owner, no owner.
    await make(`${hpa.prefix}neighbour`, null, true);
    await make(`${hpa.prefix}lookalike`, `${hpa.name}-x`, false);
    await make(`${hpa.prefix}mine`, hpa.name, true);
    try {
      const seen = await listOwned(client, hpa.name);
      expect(seen.map((i) => i.name)).toEqual([`${hpa.prefix}mine`]);
      expect(seen[0]!.state?.status).toBe('Running'); // state read for owned instances
      // A long exec on the unowned neighbour: adoption used to wait for it, stalling the loop behind work it does not own.
      await client.request('POST', `/1.0/instances/${hpa.prefix}neighbour/exec`, {
        body: { command: ['sleep', '30'], 'wait-for-websocket': false, interactive: false, 'record-output': false, environment: {} },
      });
      const runner = new RealHpaRunner({ client, config: realConfig(hpa, { minPods: 1, maxPods: 1, periodMs: 60_000 }), events: false });
      const t0 = Date.now();
      const adoption = await runner.start();
      const took = Date.now() - t0;
      await runner.stop();
      expect(adoption.waitedFor).toBe(0);
      expect(adoption.adopted).toEqual([`${hpa.prefix}mine`]);
      expect(took).toBeLessThan(10_000);
      expect(runner.frames.flatMap((f) => f.world.pods).every((p) => p.owned)).toBe(true);
      expectConforms(runner.trace(), 'ops-owned-only');
    } finally {
      await cleanupOthers();
    }
  }, 90_000);

  // No HPA run here (the delete actor's removeOwned called directly): no trace to conform.
  it('identity at the act: a delete decided on one instance refuses a same-named replacement (volatile.uuid differs)', async () => {
    const name = `${hpa.prefix}twin`;
    await make(name, hpa.name, false);
    try {
      const decided = identityOf(await client.getInstance(name))!;
      // Replaced from outside between decision and act: same name, same owner key, new uuid.
      await forceDelete(client, name);
      await make(name, hpa.name, false);
      const hooks: RealActorHooks = { client, settings: () => realConfig(hpa).settings, clock: () => 0, epoch: Date.now() };
      const config = realConfig(hpa).config;
      await expect(removeOwned(hooks, config, name, true, decided)).rejects.toBeInstanceOf(IdentityChangedError);
      expect((await client.getInstance(name)).name).toBe(name); // untouched
      // With the identity of the instance actually there, stop/delete goes through; gone again is done.
      const now = identityOf(await client.getInstance(name))!;
      await removeOwned(hooks, config, name, true, now);
      await removeOwned(hooks, config, name, true, now);
      expect((await ownedInstances(client, hpa.name)).map((i) => i.name)).not.toContain(name);
    } finally {
      await cleanupOthers();
    }
  }, 60_000);

  it('a delete in flight when the lease lapses stops at its next write: a running pod is not stopped, a stopped one not deleted', async () => {
    const running = `${hpa.prefix}lapse`;
    const stopped = `${hpa.prefix}lapsed`;
    await make(running, hpa.name, true);
    await make(stopped, hpa.name, false);
    try {
      const config = realConfig(hpa).config;
      // The act is allowed when it starts (removeOwned's own check), then the lease lapses: every later
      // check says no, as holdsLease() does past the renew deadline.
      const lapsingAfterStart = (): RealActorHooks => {
        let asked = 0;
        return { client, settings: () => realConfig(hpa).settings, clock: () => 0, epoch: Date.now(), canAct: () => asked++ === 0 };
      };
      await expect(removeOwned(lapsingAfterStart(), config, running, true)).rejects.toBeInstanceOf(NotLeaderError);
      expect((await client.getInstance(running)).status).toBe('Running');
      await expect(removeOwned(lapsingAfterStart(), config, stopped, true)).rejects.toBeInstanceOf(NotLeaderError);
      expect((await client.getInstance(stopped)).status).toBe('Stopped');
    } finally {
      await cleanupOthers();
    }
  }, 60_000);

  it.each(['seed', 'kubernetes'] as const)(
    'collects owned leftovers (Stopped, never started) under the %s policy while it runs',
    async (policy) => {
      const runner = new RealHpaRunner({
        client,
        config: realConfig(hpa, { policy, minPods: 1, maxPods: 2, periodMs: 1_000 }),
        events: false,
        gcGraceMs: 1_500,
      });
      await runner.start();
      try {
        await waitOwnedRunning(client, hpa.name, 1, 30_000, '1 running');
        // What an interrupted create leaves: an owned instance created but never started.
        const leftover = `${hpa.prefix}left${policy[0]}`;
        await make(leftover, hpa.name, false);
        await waitUntil(
          'the leftover collected',
          async () => !(await ownedInstances(client, hpa.name)).some((i) => i.name === leftover),
          20_000,
        );
        expect(runner.frames.some((f) => f.note === `gc: removed ${leftover} (owned, left Stopped)`)).toBe(true);
        expect((await ownedInstances(client, hpa.name)).map((i) => i.status)).toEqual(['Running']);
      } finally {
        await runner.stop();
        await cleanupOthers();
      }
      // The leftover is someone's (created, then gone through our gc: real mode's own, outside the machine).
      expectConforms(runner.trace(), `ops-gc-${policy}`);
    },
    60_000,
  );

  // Event wake-ups. A 15 s period: a replacement within a few seconds can only come from the
  // wake. The pod changed from outside is the one created last, right before (what a 3 s "our own
  // events" window used to swallow on a quiet host).
  async function wakeRun(): Promise<RealHpaRunner> {
    const runner = new RealHpaRunner({ client, config: realConfig(hpa, { policy: 'fixed', minPods: 2, maxPods: 2, periodMs: 15_000 }) });
    await runner.start();
    expect(runner.events?.connected, 'events stream open before the first observe').toBe(true);
    await waitOwnedRunning(client, hpa.name, 2, 40_000, '2 running');
    await runner.waitFor((s) => s.matches('waiting') && s.context.pending.length === 0, 30_000);
    // Not a synchronisation: a window in which our own creates' trailing events, if they woke the loop, would show.
    await sleep(300);
    // Our own creates woke nothing (their instance-created/-started were expected).
    expect(runner.wakeups).toEqual([]);
    return runner;
  }
  const newest = async () => {
    const owned = await ownedInstances(client, hpa.name);
    return owned.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0]!.name;
  };
  const replaced = (victim: string) => async () => {
    const owned = await ownedInstances(client, hpa.name);
    return owned.length === 2 && owned.every((i) => i.status === 'Running') && !owned.some((i) => i.name === victim);
  };
  /** The wake-up the event about `victim` caused, how long after `at` (the external change). */
  function wakeAfter(runner: RealHpaRunner, victim: string, at: number): number {
    const wake = runner.wakeups.find((w) => w.t >= at && w.why.includes(victim));
    expect(wake, `woken by an event about ${victim}: ${JSON.stringify(runner.wakeups)}`).toBeDefined();
    return wake!.t - at;
  }

  it('wakes on events: an owned pod deleted from outside is replaced long before the 15 s period ends', async () => {
    const runner = await wakeRun();
    try {
      const victim = await newest();
      const t0 = runner.now();
      await forceDelete(client, victim);
      const deletedAt = runner.now();
      await waitUntil('replaced', replaced(victim), 10_000, 50);
      const tookMs = runner.now() - deletedAt;
      const wokeMs = wakeAfter(runner, victim, t0);
      console.log(
        `[ops.test] deleted from outside: forced stop+delete took ${deletedAt - t0} ms, woken ${wokeMs} ms after it began, replaced ${tookMs} ms after the delete`,
      );
      expect(wokeMs).toBeLessThan(2_000);
      expect(tookMs).toBeLessThan(5_000);
    } finally {
      await runner.stop();
    }
    expectConforms(runner.trace(), 'ops-wake-delete');
  }, 90_000);

  it('wakes on events: an owned pod stopped from outside is replaced; an exec into a pod wakes nothing', async () => {
    const runner = await wakeRun();
    try {
      const victim = await newest();
      const other = (await ownedInstances(client, hpa.name)).find((i) => i.name !== victim)!.name;
      // instance-exec is no change an observe could see.
      const execAt = runner.now();
      await client.exec(other, ['true'], { timeoutMs: 10_000 });
      await sleep(400); // not a wait: time for a wake-up to happen, and none may have
      expect(runner.wakeups.filter((w) => w.t >= execAt)).toEqual([]);
      const t0 = runner.now();
      await client.updateInstanceState(victim, { action: 'stop', force: true });
      await waitUntil('replaced', replaced(victim), 10_000, 50);
      const tookMs = runner.now() - t0;
      const wokeMs = wakeAfter(runner, victim, t0);
      console.log(
        `[ops.test] stopped from outside: woken ${wokeMs} ms after the stop began, replaced (stopped pod removed, new one running) ${tookMs} ms after it`,
      );
      expect(wokeMs).toBeLessThan(2_000);
      expect(tookMs).toBeLessThan(5_000);
    } finally {
      await runner.stop();
    }
    expectConforms(runner.trace(), 'ops-wake-stop');
  }, 90_000);

  it('wakes on events after incusd restarted: the stream reconnects (and looks once), then a delete from outside wakes the loop', async () => {
    const runner = await wakeRun();
    try {
      const pid = (await client.server()).environment?.server_pid;
      expect(pid, 'GET /1.0 names the daemon pid').toBeTypeOf('number');
      process.kill(pid!, 'SIGKILL');
      await waitUntil('stream down', async () => runner.events?.connected === false, 10_000, 50);
      await run('bash', [resolve(ROOT, '.ci/setup-incus.sh')], { timeout: 120_000 });
      await waitUntil('stream reopened', async () => runner.events?.connected === true && runner.events.reconnects >= 1, 20_000, 50);
      await waitUntil(
        'reconnect looked once',
        async () => runner.wakeups.some((w) => w.why.startsWith('events stream reconnected')),
        5_000,
        50,
      );
      await runner.waitFor((s) => s.matches('waiting'), 20_000);
      const victim = await newest();
      const t0 = runner.now();
      await forceDelete(client, victim);
      await waitUntil('replaced', replaced(victim), 10_000, 50);
      const wokeMs = wakeAfter(runner, victim, t0);
      expect(wokeMs).toBeLessThan(2_000);
      expect(runner.now() - t0).toBeLessThan(6_000);
    } finally {
      await runner.stop();
    }
    expectConforms(runner.trace(), 'ops-wake-restart');
  }, 180_000);
});
