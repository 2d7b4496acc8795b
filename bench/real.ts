// Real-mode benchmark against the REAL Incus daemon on this host, all in one run:
// - wall time for the HPA machine (real binding) to scale 0 → 20 containers;
// - HTTP requests per period in steady state (the design: one per observe);
// - observe latency: our client (GET /1.0/instances?recursion=2 over a keep-alive socket)
//   vs `incus list --format json` (the CLI, same host, same 20 containers) → ratio.
// Prints a markdown table. Cleans up what it created.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG, OWNER_KEY } from '../machines/incus-hpa';
import { DEFAULT_REAL_SETTINGS } from '../real/hpa-config';
import { RealHpaRunner } from '../real/hpa-runner';
import { IncusClient, IncusError, connectIncus } from '../real/incus';

const PODS = Number(process.env.LOOPSCOPE_BENCH_PODS ?? 20);
const SAMPLES = 30;
const hex = randomBytes(3).toString('hex');
const name = `bench-${hex}`;
const prefix = `bench${hex}-`;

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]!; };
const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function cleanup(client: IncusClient): Promise<void> {
  const owned = (await client.listInstances({ recursion: 1 })).filter((i) => i.config[OWNER_KEY] === name);
  await Promise.all(owned.map(async (i) => {
    await client.updateInstanceState(i.name, { action: 'stop', force: true }).catch(() => undefined);
    for (let k = 0; k < 50; k++) {
      try { await client.deleteInstance(i.name); return; } catch (e) {
        if (!(e instanceof IncusError) || !/busy|is running/i.test(e.serverMessage)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }));
}

const client = await connectIncus();
const info = await client.server();
try {
  // 1. Scale 0 → PODS: policy fixed with min = max = PODS creates them in one period, one at a time, each waited for.
  const runner = new RealHpaRunner({
    client,
    config: { file: 'bench', config: { ...DEFAULT_CONFIG, name, namePrefix: prefix, policy: 'fixed', minPods: PODS, maxPods: PODS, periodMs: 1_000, limitsMemoryBytes: 64 * 1024 ** 2 }, settings: DEFAULT_REAL_SETTINGS },
  });
  const t0 = performance.now();
  await runner.start();
  await runner.runOnce(600_000);
  const scaleMs = performance.now() - t0;
  const running = (await client.listInstances({ recursion: 1 })).filter((i) => i.config[OWNER_KEY] === name && i.status === 'Running').length;

  // 2. Requests per period at steady state (PODS running, nothing to do).
  const before = { requests: client.requestCount, periods: runner.context!.periods };
  await runner.waitFor((s) => s.context.periods >= before.periods + 5, 60_000);
  const after = { requests: client.requestCount, periods: runner.context!.periods };
  await runner.stop();
  const requestsPerPeriod = (after.requests - before.requests) / (after.periods - before.periods);

  // 3. Observe latency, interleaved so both see the same host state.
  const ours: number[] = [];
  const cli: number[] = [];
  const env = { ...process.env, HOME: process.env.HOME ?? '/root' };
  for (let i = 0; i < SAMPLES + 2; i++) {
    let t = performance.now();
    const list = await client.listInstances({ recursion: 2 });
    const a = performance.now() - t;
    t = performance.now();
    const out = execFileSync('incus', ['list', '--format', 'json'], { env, maxBuffer: 64 * 1024 ** 2 });
    const b = performance.now() - t;
    if (i < 2) continue; // warm-up (first connection, CLI page cache)
    if (list.length !== (JSON.parse(out.toString()) as unknown[]).length) throw new Error('the client and the CLI saw different instance lists');
    ours.push(a);
    cli.push(b);
  }
  const total = (await client.listInstances({ recursion: 0 })).length;

  console.log(`\n## Real mode: the HPA machine against Incus ${info.environment?.server_version ?? '?'} (${info.environment?.server ?? '?'}, ${info.environment?.storage ?? '?'} storage, busybox image)\n`);
  console.log('| measure | value | note |');
  console.log('|---|---:|---|');
  console.log(`| scale 0 → ${PODS} (policy fixed, min=max=${PODS}) | ${fmt(scaleMs / 1000, 2)} s | ${fmt(scaleMs / PODS, 0)} ms per create+start, sequential, each waited; ${running}/${PODS} Running |`);
  console.log(`| HTTP requests per period (steady, ${PODS} pods) | ${fmt(requestsPerPeriod, 2)} | one GET /1.0/instances?recursion=2 |`);
  console.log(`| observe: our client, median (p90) | ${fmt(quantile(ours, 0.5))} ms (${fmt(quantile(ours, 0.9))}) | ${total} instances on the host, keep-alive unix socket, ${SAMPLES} samples |`);
  console.log(`| observe: \`incus list --format json\`, median (p90) | ${fmt(quantile(cli, 0.5))} ms (${fmt(quantile(cli, 0.9))}) | same host, same run, interleaved |`);
  console.log(`| ratio CLI / client (median) | ${fmt(quantile(cli, 0.5) / quantile(ours, 0.5), 1)}× | |`);
} finally {
  await cleanup(client);
  await client.close();
}
