// Real-mode benchmark against the REAL Incus daemon on this host, all in one run, as ratios against
// references measured in the same run (the host is shared and loaded: absolute times are noisy):
// 1. scale 0 → N: the HPA machine (fixed, slow-start parallel acts) vs N parallel `incus launch`;
// 2. observe with N owned + M unowned running instances: owned-only observation (recursion=1 +
//    owner filter + state of owned) vs `incus list --format json` (and vs the old recursion=2 list);
// 3. an owned pod deleted from outside with a 15 s period: time to the wake-up and to the replacement;
// 3'. the same replacement with wake-ups vs without (period only), deletes spread over the period;
// 4. leader takeover: a leader that stops renewing (as after kill -9) → the standby leads.
// Prints a markdown table and cleans up what it created.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { DEFAULT_CONFIG, OWNER_KEY } from '../machines/incus-hpa';
import { DEFAULT_REAL_SETTINGS } from '../real/hpa-config';
import { RealHpaRunner } from '../real/hpa-runner';
import { IncusClient, IncusError, connectIncus } from '../real/incus';
import { deleteLeaseProfiles, LeaderElector } from '../real/lease';
import { listOwned } from '../real/owned-observe';
import { replaceAfterDelete } from './real-wake';

const exec = promisify(execFile);
const PODS = Number(process.env.LOOPSCOPE_BENCH_PODS ?? 20);
const UNOWNED = Number(process.env.LOOPSCOPE_BENCH_UNOWNED ?? 50);
const SAMPLES = Number(process.env.LOOPSCOPE_BENCH_SAMPLES ?? 3);
const hex = randomBytes(3).toString('hex');
const name = `bench-${hex}`;
const prefix = `bench${hex}-`;
const IMAGE = process.env.LOOPSCOPE_INCUS_IMAGE ?? DEFAULT_REAL_SETTINGS.image;
const env = { ...process.env, HOME: process.env.HOME ?? '/root' };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function remove(client: IncusClient, names: string[]): Promise<void> {
  await Promise.all(
    names.map(async (n) => {
      await client.updateInstanceState(n, { action: 'stop', force: true }).catch(() => undefined);
      for (let k = 0; k < 50; k++) {
        try {
          await client.deleteInstance(n);
          return;
        } catch (e) {
          if (!(e instanceof IncusError) || !/busy|is running/i.test(e.serverMessage)) return;
          await sleep(100);
        }
      }
    }),
  );
}

/** `incus launch` reads instance YAML from stdin when it is not a terminal: give it none. */
const launch = (n: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('incus', ['launch', IMAGE, n, '-c', 'limits.memory=64MiB'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`incus launch ${n}: exit ${code}: ${err.trim()}`))));
  });

const client = await connectIncus();
const info = await client.server();
const refNames = Array.from({ length: PODS }, (_, i) => `benchref${hex}-${i}`);
const unowned = Array.from({ length: UNOWNED }, (_, i) => `benchun${hex}-${i}`);
const rows = { push: (row: string) => console.log(row) };
console.log(
  `\n## Real mode: operations against Incus ${info.environment?.server_version ?? '?'} (${info.environment?.storage ?? '?'} storage, ${IMAGE}); references measured in the same run\n`,
);
console.log('| measure | value | ratio | reference / note |');
console.log('|---|---:|---:|---|');
try {
  // 1. Reference: N parallel `incus launch`.
  let t = performance.now();
  await Promise.all(refNames.map((n) => launch(n)));
  const refMs = performance.now() - t;
  await remove(client, refNames);

  // 1'. The HPA machine, fixed, min = max = N, slow start up to maxParallel; period 15 s (the default).
  const runner = new RealHpaRunner({
    client,
    config: {
      file: 'bench',
      config: {
        ...DEFAULT_CONFIG,
        name,
        namePrefix: prefix,
        policy: 'fixed',
        minPods: PODS,
        maxPods: PODS,
        periodMs: 15_000,
        limitsMemoryBytes: 64 * 1024 ** 2,
      },
      settings: { ...DEFAULT_REAL_SETTINGS, image: IMAGE, maxParallel: 32 },
    },
  });
  t = performance.now();
  await runner.start();
  await runner.runOnce(600_000);
  const scaleMs = performance.now() - t;
  const running = (await listOwned(client, name)).filter((i) => i.state?.status === 'Running').length;
  rows.push(
    `| scale 0 → ${PODS}: HPA machine (fixed, slow start 1, 2, 4 …) | ${fmt(scaleMs / 1000, 2)} s | ${fmt(scaleMs / refMs, 2)}× | ${PODS} parallel \`incus launch\`: ${fmt(refMs / 1000, 2)} s (target ≤ 1.3×); ${running}/${PODS} Running |`,
  );

  // 2. Observe with N owned + M unowned, all running.
  await Promise.all(unowned.map((n) => launch(n)));
  const ours: number[] = [];
  const cli: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < SAMPLES + 1; i++) {
    t = performance.now();
    const owned = await listOwned(client, name);
    const a = performance.now() - t;
    t = performance.now();
    const out = await exec('incus', ['list', '--format', 'json'], { env, maxBuffer: 256 * 1024 ** 2 });
    const b = performance.now() - t;
    t = performance.now();
    const all = await client.get<unknown[]>('/1.0/instances', { query: { recursion: 2 }, timeoutMs: 300_000 });
    const c = performance.now() - t;
    if (i === 0) continue; // warm-up
    if (owned.length !== PODS) throw new Error(`owned-only observe saw ${owned.length} instances, want ${PODS}`);
    if ((JSON.parse(out.stdout) as unknown[]).length !== all.length) throw new Error('the CLI and the client saw different instance lists');
    ours.push(a);
    cli.push(b);
    full.push(c);
  }
  rows.push(
    `| observe, ${PODS} owned + ${UNOWNED} unowned running: owned-only (median of ${SAMPLES}) | ${fmt(median(ours), 0)} ms | ${fmt(median(ours) / median(cli), 2)}× | \`incus list --format json\`: ${fmt(median(cli), 0)} ms (target ≤ 0.5×); old GET ?recursion=2 of all: ${fmt(median(full), 0)} ms |`,
  );
  await remove(client, unowned);

  // 3. External delete with a 15 s period: the lifecycle event wakes the loop.
  await runner.waitFor((s) => s.matches('waiting'), 120_000);
  await sleep(3_000);
  const victim = (await listOwned(client, name))[0]!.name;
  const before = runner.wakeups.length;
  t = performance.now();
  await client.updateInstanceState(victim, { action: 'stop', force: true });
  await client.deleteInstance(victim);
  const deletedAt = performance.now();
  let replacedMs = NaN;
  for (;;) {
    const owned = await listOwned(client, name);
    if (owned.length === PODS && owned.every((i) => (i.state?.status ?? i.status) === 'Running') && !owned.some((i) => i.name === victim)) {
      replacedMs = performance.now() - deletedAt;
      break;
    }
    if (performance.now() - deletedAt > 30_000) break;
    await sleep(50);
  }
  const wake = runner.wakeups.slice(before).find((w) => w.why.includes(victim));
  const wakeMs = wake ? wake.t - (runner.now() - (performance.now() - deletedAt)) : NaN;
  rows.push(
    `| owned pod deleted from outside, period 15 s: replaced (Running again) | ${fmt(replacedMs / 1000, 2)} s | ${fmt(replacedMs / 15_000, 2)}× of the period | woken ${fmt(wakeMs, 0)} ms after the delete returned; the replacement's create+start is most of the rest (target ≤ 1 s) |`,
  );
  await runner.stop();

  // 3'. Wake-ups vs the period alone: 2 pods, period 15 s, deletes at the midpoints of SAMPLES slices of the wait.
  const wakeOpts = { image: IMAGE, pods: 2, periodMs: 15_000, samples: SAMPLES };
  const woken = await replaceAfterDelete(client, { ...wakeOpts, hpa: `${name}-w1`, prefix: `${prefix}w1-`, events: true });
  const period = await replaceAfterDelete(client, { ...wakeOpts, hpa: `${name}-w0`, prefix: `${prefix}w0-`, events: false });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  rows.push(
    `| owned pod deleted from outside, period 15 s, 2 pods: replaced, with wake-ups (mean of ${SAMPLES}, deletes spread over the wait) | ${fmt(mean(woken) / 1000, 2)} s | ${fmt(mean(woken) / mean(period), 3)}× | without wake-ups (events off, same deletes): ${fmt(mean(period) / 1000, 2)} s; with: ${woken.map((x) => fmt(x / 1000, 2)).join(', ')} s, without: ${period.map((x) => fmt(x / 1000, 1)).join(', ')} s |`,
  );

  // 4. Leader takeover with client-go's defaults: A stops renewing without releasing (kill -9).
  const lockName = `bench-lease-${hex}`;
  const a = new LeaderElector(client, lockName);
  const b = new LeaderElector(client, lockName);
  await a.acquire();
  const lastRenew = performance.now();
  const standby = new AbortController();
  t = performance.now();
  await b.acquire(standby.signal);
  const takeoverMs = performance.now() - lastRenew;
  await b.release();
  await deleteLeaseProfiles(client, lockName);
  rows.push(
    `| leader takeover after the leader dies (lease 15 s, renew 10 s, retry 2 s) | ${fmt(takeoverMs / 1000, 2)} s | ${fmt(takeoverMs / 15_000, 2)}× of the lease | from the dead leader's last renewal to the standby leading (≤ lease + 2 × retry × 2.2 = 23.8 s: the standby sees the renewal up to one jittered retry late, and polls past the lease up to another) |`,
  );
} finally {
  const leftovers = (await client.listInstances({ recursion: 1 }).catch(() => [])).filter(
    (i) =>
      i.config[OWNER_KEY] === name ||
      i.config[OWNER_KEY]?.startsWith(`${name}-w`) ||
      i.name.startsWith(`benchref${hex}`) ||
      i.name.startsWith(`benchun${hex}`),
  );
  await remove(
    client,
    leftovers.map((i) => i.name),
  );
  await deleteLeaseProfiles(client, name);
  await client.close();
}
