// Recovery against the REAL daemon: a pod deleted from outside, and incusd itself killed and
// restarted (via .ci/setup-incus.sh) while the loop runs.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { RealHpaRunner } from '../../real/hpa-runner';
import type { IncusClient } from '../../real/incus';
import {
  ROOT,
  expectConforms,
  forceDelete,
  ownedInstances,
  realConfig,
  uniqueHpa,
  waitUntil,
  connectForSuite,
  withIncus,
} from './real-helpers';

const hpa = uniqueHpa('rc');
const run = promisify(execFile);

withIncus.describe('real HPA: recovery', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });

  const running = async () => (await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running');

  it('replaces an owned pod deleted from outside within one period', async () => {
    const config = realConfig(hpa, { minPods: 2, maxPods: 3, periodMs: 2_000 });
    const runner = new RealHpaRunner({ client, config });
    await runner.start();
    try {
      await waitUntil('2 pods', async () => (await running()).length === 2, 20_000);
      await runner.waitFor((s) => s.matches('waiting'), 10_000);
      const victim = (await running())[0]!.name;
      await forceDelete(client, victim);
      const deletedAt = runner.now();
      await waitUntil(
        '2 pods again',
        async () => (await running()).length === 2 && !(await running()).some((i) => i.name === victim),
        15_000,
      );
      const decision = runner.frames.find((f) => f.t > deletedAt && f.event === 'xstate.done.actor.observe');
      expect(decision?.note).toMatch(/1 pods < min 2 → create 1/);
      // The first observe after the delete (at most one period later, plus its own request) decides the replacement.
      expect(decision!.t - deletedAt).toBeLessThanOrEqual(config.config.periodMs + 1_000);
    } finally {
      await runner.stop();
    }
    expect(expectConforms(runner.trace(), 'recovery-delete').envMoves.some((m) => m.move.startsWith('someone deleted'))).toBe(true);
  }, 60_000);

  it('backs off while incusd is down and recovers once it is restarted', async () => {
    const runner = new RealHpaRunner({
      client,
      config: realConfig(hpa, { minPods: 2, maxPods: 3, backoffInitialMs: 300, backoffMaxMs: 2_000 }),
    });
    await runner.start();
    try {
      await waitUntil('2 pods', async () => (await running()).length === 2, 20_000);
      const pid = (await client.server()).environment?.server_pid;
      expect(pid, 'GET /1.0 names the daemon pid').toBeTypeOf('number');
      const killedAt = runner.now();
      process.kill(pid!, 'SIGKILL');
      // The loop keeps running and backs off with growing delays.
      await runner.waitFor((s) => s.context.consecutiveErrors >= 3, 20_000);
      const errors = runner.frames.filter((f) => f.t > killedAt && f.event === 'xstate.error.actor.observe');
      expect(errors.length).toBeGreaterThanOrEqual(3);
      expect(errors[0]!.note).toMatch(/cannot reach the Incus daemon/);
      const gaps = errors.slice(1).map((e, i) => e.t - errors[i]!.t);
      expect(gaps[1]!).toBeGreaterThan(gaps[0]!); // exponential backoff
      expect(runner.frames.filter((f) => f.t > killedAt).every((f) => f.phase === 'error' || f.phase === 'observe')).toBe(true);

      await run('bash', [resolve(ROOT, '.ci/setup-incus.sh')], { timeout: 120_000 });
      // Recovered: a full period done again, errors reset, still min pods, none stopped.
      await runner.waitFor((s) => s.matches('waiting') && s.context.consecutiveErrors === 0, 30_000);
      const owned = await ownedInstances(client, hpa.name);
      expect(owned.map((i) => i.status)).toEqual(['Running', 'Running']);
    } finally {
      await runner.stop();
    }
    expectConforms(runner.trace(), 'recovery-incusd');
  }, 150_000);
});
