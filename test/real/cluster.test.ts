// Real mode on a REAL Incus cluster (https-run.test.ts is the single-host HTTPS half): three members on this
// machine, each its own incusd with its own INCUS_DIR in its own network namespace, bootstrapped and
// joined by preseed and token (test/real/cluster/cluster.sh, upstream Incus's own test approach).
// The loop talks to the first member's unix socket; the cluster answers for all members.
// - placement spread: the HPA's pods go to the member with the fewest of them (?target=), all are
//   observed across members (their `location`), and a scale-down removes pods wherever they are;
//   with parallel creates (3 and 6 pods, 4 times each) every member gets its share;
// - placement { target: m2 }: every pod on m2; default: the cluster's scheduler places them;
// - a member down (incusd killed): its instances are listed as stubs without config, so the
//   observation fails clearly and the loop backs off — no replacement created, no pod forgotten —
//   and it converges with the same pods once the member is back;
// - `loopscope real --remote` over HTTPS to one member's cluster address, placement from hpa.yaml.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RealHpaConfig } from '../../real/hpa-config';
import type { RealActorHooks } from '../../real/hpa-actors';
import { createPod, newPodName } from '../../real/hpa-actors';
import { RealHpaRunner } from '../../real/hpa-runner';
import { IncusClient } from '../../real/incus';
import type { Instance } from '../../real/incus';
import type { Placement } from '../../real/placement';
import { SpreadPlacement } from '../../real/placement';
import type { Cluster } from './cluster/cluster';
import { buildCluster, killMember, restartMember, teardownCluster, withCluster } from './cluster/cluster';
import {
  cleanupOwned,
  deleteLease,
  expectConforms,
  forceDelete,
  ownedInstances,
  realConfig,
  startCli,
  uniqueHpa,
  waitOwnedRunning,
  waitUntil,
} from './real-helpers';

/** Rounds of parallel creates per pod count (3 and 6 pods). */
const ROUNDS = 4;
const withPlacement = (cfg: RealHpaConfig, placement?: Placement): RealHpaConfig => ({
  ...cfg,
  settings: { ...cfg.settings, ...(placement ? { placement } : {}) },
});

/** Owned pods per member, Running only. */
function byMember(list: Instance[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of list) if (i.status === 'Running') out[i.location] = (out[i.location] ?? 0) + 1;
  return out;
}

withCluster.describe('real mode on a real 3-member Incus cluster (own incusd, INCUS_DIR and network namespace each)', () => {
  let cluster: Cluster;
  let client: IncusClient;
  const hpas: string[] = [];
  const runners: RealHpaRunner[] = [];
  const dirs: string[] = [];
  const children: ReturnType<typeof startCli>[] = [];

  beforeAll(async () => {
    cluster = buildCluster(3);
    console.log(`[cluster.test] cluster of ${cluster.members.length} built in ${cluster.upSeconds.toFixed(1)} s`);
    client = await IncusClient.connect({ socketPath: cluster.members[0]!.socket });
  }, 200_000);

  afterAll(async () => {
    for (const r of runners) await r.stop().catch(() => undefined);
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (client) {
      for (const h of hpas) {
        await cleanupOwned(client, h);
        await deleteLease(client, h);
        // No owned leftovers, on any member.
        expect(await ownedInstances(client, h)).toEqual([]);
      }
      await client.close();
    }
    teardownCluster();
  }, 180_000);

  function runner(tag: string, over: Parameters<typeof realConfig>[1], placement?: Placement, maxParallel?: number) {
    const hpa = uniqueHpa(tag);
    hpas.push(hpa.name);
    const base = withPlacement(realConfig(hpa, over), placement);
    const config = maxParallel ? { ...base, settings: { ...base.settings, maxParallel } } : base;
    const r = new RealHpaRunner({ client, config });
    runners.push(r);
    return { r, hpa, config };
  }

  it('cluster: all members online, one cluster address each', async () => {
    const members = await client.get<{ server_name: string; status: string; url: string }[]>('/1.0/cluster/members', {
      query: { recursion: 1 },
    });
    expect(members.map((m) => [m.server_name, m.status]).sort()).toEqual([
      ['m1', 'Online'],
      ['m2', 'Online'],
      ['m3', 'Online'],
    ]);
    expect(members.map((m) => m.url).sort()).toEqual(cluster.members.map((m) => `https://${m.address}`).sort());
  });

  it('placement spread: scales up across all members, observes all owned pods, scales down; the run conforms', async () => {
    const { r, hpa, config } = runner('cs', { minPods: 6, maxPods: 6 }, { kind: 'spread' });
    await r.start();
    try {
      await waitOwnedRunning(client, hpa.name, 6, 90_000);
      expect(byMember(await ownedInstances(client, hpa.name))).toEqual({ m1: 2, m2: 2, m3: 2 });
      // The loop's own observation holds all six, from every member.
      const seen = await r.waitFor(
        (s) => s.matches('waiting') && s.context.observation?.instances.filter((i) => i.status === 'Running').length === 6,
        30_000,
      );
      expect(seen.context.observation!.instances.map((i) => i.name).sort()).toEqual(
        (await ownedInstances(client, hpa.name)).map((i) => i.name).sort(),
      );

      r.update({ ...config, config: { ...config.config, minPods: 1, maxPods: 1 } });
      await waitUntil('scaled down to 1', async () => (await ownedInstances(client, hpa.name)).length === 1, 60_000);
      await r.waitFor((s) => s.matches('waiting') && s.context.observation?.instances.length === 1, 30_000);
    } finally {
      await r.stop();
    }
    expectConforms(r.trace(), 'cluster-spread');
    await cleanupOwned(client, hpa.name);
  }, 200_000);

  it(`placement spread with parallel creates, ${ROUNDS} times with 3 pods and ${ROUNDS} with 6: always balanced across the members`, async () => {
    // The create actor itself (real/hpa-actors.ts createPod), all creates of a scale-up sent at once
    // from one observation, as the fixed and kubernetes policies do with maxParallel: each picks its
    // member counting the creates still in flight (SpreadPlacement), so timing cannot unbalance them.
    // Each round costs ~4.5 s of creates and deletes on three daemons: 4 rounds per size give the
    // members' answers different orders without making this the suite's longest real test.
    const hpa = uniqueHpa('cp');
    hpas.push(hpa.name);
    const cfg = withPlacement(realConfig(hpa), { kind: 'spread' });
    for (const pods of [3, 6]) {
      for (let round = 1; round <= ROUNDS; round++) {
        const spread = new SpreadPlacement();
        spread.seen(await ownedInstances(client, hpa.name));
        const hooks: RealActorHooks = { client, settings: () => cfg.settings, clock: () => 0, epoch: Date.now(), spread };
        const names = Array.from({ length: pods }, () => newPodName(hpa.prefix));
        await Promise.all(names.map((name) => createPod(hooks, cfg.config, name)));
        expect(byMember(await ownedInstances(client, hpa.name)), `${pods} pods, round ${round}`).toEqual({
          m1: pods / 3,
          m2: pods / 3,
          m3: pods / 3,
        });
        await Promise.all(names.map((name) => forceDelete(client, name)));
      }
    }
  }, 600_000);

  it("events from every member: an owned pod deleted on m3 wakes the loop (15 s period) through m1's events stream", async () => {
    const { r, hpa } = runner('ce', { minPods: 3, maxPods: 3, periodMs: 15_000 }, { kind: 'spread' });
    await r.start();
    try {
      const running = async () => (await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running');
      await waitUntil('3 owned pods running', async () => (await running()).length === 3, 90_000);
      await r.waitFor((s) => s.matches('waiting'), 30_000);
      const victim = (await running()).find((i) => i.location === 'm3')!.name;
      const deletedAt = Date.now();
      await forceDelete(client, victim);
      await waitUntil(
        'replaced',
        async () => {
          const now = await running();
          return now.length === 3 && !now.some((i) => i.name === victim);
        },
        15_000,
        100,
      );
      const tookMs = Date.now() - deletedAt;
      console.log(
        `[cluster.test] a pod deleted on m3 replaced ${tookMs} ms later (period 15 s), woken by: ${r.wakeups.map((w) => w.why).join('; ')}`,
      );
      // The claim is that an event woke the loop (asserted next), not how fast a loaded machine creates a pod:
      // replaced within the period it would otherwise have waited.
      expect(tookMs).toBeLessThan(15_000);
      expect(r.wakeups.some((w) => w.why.includes(victim))).toBe(true);
    } finally {
      await r.stop();
    }
    expectConforms(r.trace(), 'cluster-events');
    await cleanupOwned(client, hpa.name);
  }, 150_000);

  it('placement { target: m2 }: every pod is created on m2', async () => {
    const { r, hpa } = runner('ct', { minPods: 3, maxPods: 3 }, { kind: 'target', target: 'm2' });
    await r.start();
    try {
      await waitOwnedRunning(client, hpa.name, 3, 90_000);
      expect(byMember(await ownedInstances(client, hpa.name))).toEqual({ m2: 3 });
    } finally {
      await r.stop();
    }
    expectConforms(r.trace(), 'cluster-target');
    await cleanupOwned(client, hpa.name);
  }, 150_000);

  it('default placement: the cluster scheduler places one pod after another on the emptier member', async () => {
    // One create at a time: Incus 6.0's scheduler picks the member with the fewest instances.
    const { r, hpa } = runner('cd', { minPods: 3, maxPods: 3 }, undefined, 1);
    // The scheduler counts every instance, and the instance creates it has just run (an operation is
    // kept ~5 s after it ends; seen here: right after 3 creates on m2, the next 2 both went to m1).
    // So: an empty cluster (earlier tests cleaned up) with no operation left.
    expect((await client.listInstances({ recursion: 1, allProjects: true })).map((i) => `${i.name}@${i.location} ${i.status}`)).toEqual([]);
    await waitUntil(
      'no recent operation',
      async () => Object.values(await client.get<Record<string, unknown[] | null>>('/1.0/operations')).every((l) => !l?.length),
      30_000,
      250,
    );
    await r.start();
    try {
      await waitOwnedRunning(client, hpa.name, 3, 90_000);
      expect(byMember(await ownedInstances(client, hpa.name))).toEqual({ m1: 1, m2: 1, m3: 1 });
    } finally {
      await r.stop();
    }
    await cleanupOwned(client, hpa.name);
  }, 150_000);

  it('a member down: observation fails naming it, the loop backs off without creating or forgetting a pod; back, it converges on the same pods', async () => {
    const { r, hpa } = runner('cm', { minPods: 3, maxPods: 3, backoffInitialMs: 300, backoffMaxMs: 1_000 }, { kind: 'spread' });
    await r.start();
    try {
      await waitOwnedRunning(client, hpa.name, 3, 90_000);
      const pods = (await ownedInstances(client, hpa.name)).map((i) => i.name).sort();
      expect(byMember(await ownedInstances(client, hpa.name))).toEqual({ m1: 1, m2: 1, m3: 1 });
      await r.waitFor((s) => s.matches('waiting'), 30_000);

      const killedAt = r.now();
      killMember(cluster, 1);
      r.wake('test: m2 killed');
      await waitUntil(
        '3 observe errors',
        async () => r.frames.filter((f) => f.t > killedAt && f.event === 'xstate.error.actor.observe').length >= 3,
        30_000,
        100,
      );
      const errors = r.frames.filter((f) => f.t > killedAt && f.event === 'xstate.error.actor.observe');
      expect(errors[0]!.io).toMatchObject({ kind: 'observe', error: { kind: 'api' } });
      expect(JSON.stringify(errors[0]!.io)).toMatch(/cluster member m2 could not be read/);
      // While m2 is down nothing is created or deleted: the pod there is not forgotten.
      expect(r.frames.filter((f) => f.t > killedAt && /createPod|deletePod/.test(f.event))).toEqual([]);

      restartMember(cluster, 1);
      const backAt = r.now();
      await r.waitFor((s) => s.matches('waiting') && r.now() > backAt, 60_000);
      expect((await ownedInstances(client, hpa.name)).map((i) => i.name).sort()).toEqual(pods);
      expect(r.context?.observation?.instances.map((i) => i.name).sort()).toEqual(pods);
    } finally {
      await r.stop();
    }
    expectConforms(r.trace(), 'cluster-member-down');
    await cleanupOwned(client, hpa.name);
  }, 200_000);

  it("loopscope real --remote: HTTPS to a member's cluster address with a trusted client certificate, placement: spread from hpa.yaml", async () => {
    const hpa = uniqueHpa('cr');
    hpas.push(hpa.name);
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-cluster-cli-'));
    dirs.push(dir);
    const conf = join(dir, 'incus');
    mkdirSync(join(conf, 'servercerts'), { recursive: true });
    execFileSync('incus', ['remote', 'generate-certificate'], { env: { ...process.env, INCUS_CONF: conf }, stdio: 'ignore' });
    const pem = readFileSync(join(conf, 'client.crt'), 'utf8');
    await client.request('POST', '/1.0/certificates', {
      body: { type: 'client', name: `${hpa.name}-cert`, certificate: new X509Certificate(pem).raw.toString('base64') },
    });
    // A cluster presents one certificate on every member: pinned as the remote's.
    writeFileSync(join(conf, 'servercerts', 'lscluster.crt'), (await client.server()).environment?.certificate ?? '');
    const url = `https://${cluster.members[1]!.address}`;
    writeFileSync(join(conf, 'config.yml'), `default-remote: local\nremotes:\n  lscluster:\n    addr: ${url}\n    protocol: incus\n`);
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(
      cfg,
      `HPA: { minPods: 3, maxPods: 3 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\nperiod: 2s\nlimitsMemory: 64MiB\nplacement: spread\n`,
    );
    const run = startCli(['real', '--config', cfg, '--remote', 'lscluster'], { INCUS_CONF: conf });
    children.push(run);
    await waitOwnedRunning(client, hpa.name, 3, 120_000).catch((e: unknown) => {
      console.log(run.out.stdout, run.out.stderr);
      throw e;
    });
    expect(byMember(await ownedInstances(client, hpa.name))).toEqual({ m1: 1, m2: 1, m3: 1 });
    expect(run.out.stdout).toContain(`real ${url}`);
    run.child.kill('SIGTERM');
    const done = await run.done;
    expect(done.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(done.code).toBe(0);
    await client.request('DELETE', `/1.0/certificates/${new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase()}`);
    await cleanupOwned(client, hpa.name);
  }, 200_000);
});
