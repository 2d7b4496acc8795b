// Replace-after-external-delete latency, with lifecycle-event wake-ups and without (the period
// alone), for bench/real.ts. Each sample deletes an owned pod at a set offset into the loop's wait —
// the midpoints of equal slices of the period, so the mean stands for a delete at a random moment —
// and times from the delete's return to the HPA's pods all Running again without the victim.
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG } from '../machines/incus-hpa';
import { DEFAULT_REAL_SETTINGS } from '../real/hpa-config';
import { RealHpaRunner } from '../real/hpa-runner';
import type { IncusClient } from '../real/incus';
import { IncusError } from '../real/incus';
import { listOwned } from '../real/owned-observe';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function forceDelete(client: IncusClient, name: string): Promise<void> {
  await client.updateInstanceState(name, { action: 'stop', force: true }).catch(() => undefined);
  for (let k = 0; k < 50; k++) {
    try {
      await client.deleteInstance(name);
      return;
    } catch (e) {
      if (e instanceof IncusError && e.status === 404) return;
      if (!(e instanceof IncusError) || !/busy|is running/i.test(e.serverMessage)) throw e;
      await sleep(100);
    }
  }
}

export interface WakeBenchOptions {
  hpa: string;
  prefix: string;
  image: string;
  pods: number;
  periodMs: number;
  samples: number;
  events: boolean;
}

/** Latencies (ms), one per sample. */
export async function replaceAfterDelete(client: IncusClient, o: WakeBenchOptions): Promise<number[]> {
  const runner = new RealHpaRunner({
    client,
    events: o.events,
    config: {
      file: 'bench',
      config: {
        ...DEFAULT_CONFIG,
        name: o.hpa,
        namePrefix: o.prefix,
        policy: 'fixed',
        minPods: o.pods,
        maxPods: o.pods,
        periodMs: o.periodMs,
        limitsMemoryBytes: 64 * 1024 ** 2,
      },
      settings: { ...DEFAULT_REAL_SETTINGS, image: o.image },
    },
  });
  const allRunning = async (victim?: string) => {
    const owned = await listOwned(client, o.hpa);
    return (
      owned.length === o.pods && owned.every((i) => (i.state?.status ?? i.status) === 'Running') && !owned.some((i) => i.name === victim)
    );
  };
  await runner.start();
  const out: number[] = [];
  try {
    for (let k = 0; k < o.samples; k++) {
      await runner.waitFor((s) => s.matches('waiting') && s.context.pending.length === 0, 120_000);
      while (!(await allRunning())) await sleep(100);
      // When the current wait began (the last frame that entered it).
      const i = runner.frames.findLastIndex((f, j) => f.state === 'waiting' && runner.frames[j - 1]?.state !== 'waiting');
      const offset = ((k + 0.5) / o.samples) * o.periodMs;
      await sleep(Math.max(0, runner.frames[i]!.t + offset - runner.now()));
      const victim = (await listOwned(client, o.hpa))[0]!.name;
      await forceDelete(client, victim);
      const t0 = performance.now();
      while (!(await allRunning(victim))) {
        if (performance.now() - t0 > o.periodMs + 60_000) throw new Error(`no replacement of ${victim} within the period + 60 s`);
        await sleep(50);
      }
      out.push(performance.now() - t0);
    }
  } finally {
    await runner.stop();
    await Promise.all((await listOwned(client, o.hpa).catch(() => [])).map((i) => forceDelete(client, i.name).catch(() => undefined)));
  }
  return out;
}
