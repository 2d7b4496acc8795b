// A real frame's t is when the machine took its event (real/hpa-runner.ts takenAt), so the timers its
// transition set run from it: a host stall right after a timer is scheduled must not make the timer look
// early to `loopscope conform` (seen as a backoff firing 55 ms "early" after an incusd kill on a loaded
// host). The stall is made here: a busy wait right after the backoff's setTimeout.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { backoffDelay } from '../../machines/incus-hpa/machine';
import type { ModulePolicy } from '../../machines/incus-hpa/policies';
import { loadRealHpaConfig } from '../../real/hpa-config';
import { RealHpaRunner } from '../../real/hpa-runner';
import type { IncusClient } from '../../real/incus';
import { conformReport, connectForSuite, realConfig, uniqueHpa, withIncus } from './real-helpers';

const hpa = uniqueHpa('ft');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-frame-time-'));
const STALL_MS = 80;

/** Runs `fn` with every setTimeout of one of `delays` followed by a busy wait of STALL_MS. */
async function stallingAfter<T>(delays: ReadonlySet<number>, fn: () => Promise<T>): Promise<T> {
  const original = globalThis.setTimeout;
  const stalling = (handler: () => void, delay?: number, ...args: unknown[]) => {
    const handle = original(handler, delay, ...args);
    if (delay !== undefined && delays.has(delay))
      for (const until = Date.now() + STALL_MS; Date.now() < until;) {
        /* the host stalls */
      }
    return handle;
  };
  globalThis.setTimeout = Object.assign(stalling, { __promisify__: original.__promisify__ }) as typeof setTimeout;
  try {
    return await fn();
  } finally {
    globalThis.setTimeout = original;
  }
}

withIncus.describe('real runner: frame times', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a stall right after the backoff timer is set: it still fires a full backoff after its frame, and the run conforms', async () => {
    // A policy that decides on the load-time probe (at 0) and throws on every real observation: each period backs off.
    writeFileSync(
      join(dir, 'throws.ts'),
      `export const policy = ({ observation, memory }) => {
  if (observation.at > 0) throw new Error('no decision');
  return { running: 0, averagePercent: null, desired: 0, actions: [], comparison: 'none', verdict: 'keep', memory };
};`,
    );
    const base = realConfig(hpa, { minPods: 1, maxPods: 1, backoffInitialMs: 300, backoffMaxMs: 2_000 });
    writeFileSync(
      join(dir, 'hpa.yaml'),
      [
        `name: ${hpa.name}`,
        `namePrefix: ${hpa.prefix}`,
        'HPA: { minPods: 1, maxPods: 1 }',
        'policy: { module: ./throws.ts }',
        'period: 1s',
        'limitsMemory: 64MiB',
        'backoff: { initial: 300ms, max: 2s }',
        `image: ${base.settings.image}`,
        '',
      ].join('\n'),
    );
    // The run's own policy modules: the config loads the module into it, the runner's machine is provided with it.
    const policies = new Map<string, ModulePolicy>();
    const config = loadRealHpaConfig(join(dir, 'hpa.yaml'), undefined, policies);
    const delays = new Set([1, 2, 3].map((n) => backoffDelay(config.config, n)));
    const runner = new RealHpaRunner({ client, config, dryRun: true, events: false, policies });
    await stallingAfter(delays, async () => {
      await runner.start();
      try {
        // Three errors: two backoff timers have fired (the third is entered), which is what is measured below.
        await runner.waitFor((s) => s.context.consecutiveErrors >= 3, 20_000);
      } finally {
        await runner.stop();
      }
    });
    const report = conformReport(runner.trace(), 'frame-time');
    expect(report.divergence).toBeUndefined();
    // The one promise broken is the module's own (it throws on purpose).
    expect(report.properties.filter((p) => p.result === 'violated').map((p) => p.name)).toEqual(['policy-decides']);
    const frames = runner.trace().frames;
    // Each backoff's timer fired a full delay after the frame that entered backoff (1 ms: Date.now and libuv's clock tick apart).
    const fired = frames.flatMap((f, i) =>
      f.event.startsWith('xstate.after.backoff') ? [f.t - frames.slice(0, i).findLast((g) => g.state === 'backoff')!.t] : [],
    );
    expect(fired.length).toBeGreaterThanOrEqual(2);
    fired.forEach((gap, n) => expect(gap, `backoff #${n + 1}`).toBeGreaterThanOrEqual(backoffDelay(config.config, n + 1) - 1));
  }, 60_000);
});
