// Load driver for demos and tests: a memory demand shared by the HPA's running pods, the way the
// simulated world shares `demand` across its serving instances (sim/worlds/incus-hpa.ts memoryOf).
// Each pod gets its share written to a tmpfs file (/dev/shm, mounted by the image's init), which
// the kernel charges to the container's memory cgroup, so Incus reports it in state.memory.usage.
import type { IncusClient } from './incus';
import { ownerOf } from './hpa-actors';

export const LOAD_FILE = '/dev/shm/loopscope-load';
const MiB = 1024 * 1024;

export interface PodLoad {
  name: string;
  mib: number;
  /** dd's exit code: 137 = the writer was OOM-killed at the limit (the pod keeps running). */
  returnCode: number;
}

/** The owned Running pods (sorted by name, so the split is stable). */
async function runningOwnedPods(client: IncusClient, hpa: string, signal?: AbortSignal): Promise<string[]> {
  const list = await client.listInstances({ recursion: 1, ...(signal ? { signal } : {}) });
  return list
    .filter((i) => ownerOf(i) === hpa && i.status === 'Running')
    .map((i) => i.name)
    .sort();
}

/** The shell command that sets one pod's load to `mib` MiB (0 removes it). */
function loadCommand(mib: number): string[] {
  // Remove first: rewriting in place would briefly hold old + new and may hit the limit.
  const write = mib > 0 ? ` && dd if=/dev/zero of=${LOAD_FILE} bs=1M count=${mib} 2>/dev/null` : '';
  return ['sh', '-c', `rm -f ${LOAD_FILE}${write}`];
}

/** Splits `demandBytes` evenly across `pods` (whole MiB, remainder to the first pods). */
function splitDemand(demandBytes: number, pods: string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (pods.length === 0) return out;
  const totalMib = Math.round(demandBytes / MiB);
  const base = Math.floor(totalMib / pods.length);
  const rest = totalMib - base * pods.length;
  pods.forEach((p, i) => out.set(p, base + (i < rest ? 1 : 0)));
  return out;
}

/** Writes each pod's share through the exec API, in parallel. */
async function applyLoad(client: IncusClient, shares: Map<string, number>, signal?: AbortSignal): Promise<PodLoad[]> {
  return Promise.all(
    [...shares].map(async ([name, mib]) => {
      const r = await client.exec(name, loadCommand(mib), { timeoutMs: 60_000, ...(signal ? { signal } : {}) });
      return { name, mib, returnCode: r.returnCode };
    }),
  );
}

/** One shot: spread the demand across the owned running pods now. */
export async function spreadLoad(client: IncusClient, hpa: string, demandBytes: number): Promise<PodLoad[]> {
  return applyLoad(client, splitDemand(demandBytes, await runningOwnedPods(client, hpa)));
}

/**
 * Keeps a demand spread while the HPA scales: each tick re-spreads when the set of running
 * owned pods or the demand changed (pods not yet seen get their share, others are rewritten).
 */
export class LoadDriver {
  private applied = new Map<string, number>();
  private demandBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();
  readonly log: string[] = [];

  constructor(
    private readonly client: IncusClient,
    private readonly hpa: string,
    private readonly intervalMs = 500,
  ) {}

  setDemand(bytes: number): Promise<void> {
    this.demandBytes = bytes;
    return this.tick();
  }

  get demand(): number {
    return this.demandBytes;
  }

  start(): void {
    this.timer ??= setInterval(() => {
      void this.tick().catch((e: unknown) => this.log.push(`load: ${String(e)}`));
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.busy.catch(() => undefined);
  }

  /** One rebalance (serialised: ticks never overlap). */
  tick(): Promise<void> {
    this.busy = this.busy
      .catch(() => undefined)
      .then(async () => {
        const pods = await runningOwnedPods(this.client, this.hpa);
        const shares = splitDemand(this.demandBytes, pods);
        const changed = new Map([...shares].filter(([name, mib]) => this.applied.get(name) !== mib));
        this.applied = new Map([...this.applied].filter(([name]) => shares.has(name)));
        if (changed.size === 0) return;
        const results = await applyLoad(this.client, changed).catch((e: unknown): PodLoad[] => {
          // A pod deleted between list and exec: retry on the next tick.
          this.log.push(`load: ${e instanceof Error ? e.message : String(e)}`);
          return [];
        });
        for (const r of results) {
          this.applied.set(r.name, r.mib);
          this.log.push(
            `load ${r.name} → ${r.mib} MiB${r.returnCode === 0 ? '' : ` (dd exit ${r.returnCode}${r.returnCode === 137 ? ': OOM-killed at the limit' : ''})`}`,
          );
        }
      });
    return this.busy;
  }
}
