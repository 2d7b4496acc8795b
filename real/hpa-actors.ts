// The real binding of the HPA machine: its named actors (observe, createPod, deletePod)
// implemented with Incus REST calls. The machine (machines/incus-hpa/machine.ts) is unchanged.
import { randomBytes } from 'node:crypto';
import { fromPromise } from 'xstate';
import type { CreateInput, CreateOutput, DeleteInput, HpaConfig, InstanceStatus, Observation, ObservedInstance, ObserveInput } from '../machines/incus-hpa';
import { OWNER_KEY, incusHpaMachine } from '../machines/incus-hpa';
import type { RealSettings } from './hpa-config';
import type { IncusClient, InstanceFull } from './incus';
import { IncusError, IncusNotFoundError, IncusOperationError } from './incus';

/** A policy asked to touch an instance this HPA does not own: refused, never done. */
export class OwnershipError extends Error {
  override name = 'OwnershipError';
  constructor(readonly instance: string, readonly hpa: string, owner: string | null) {
    super(`refused to delete ${instance}: it does not carry ${OWNER_KEY}=${hpa} (${owner === null ? 'no owner key' : `owner is "${owner}"`})`);
  }
}

/** What an operator (TTY --step, or a future web live mode) is asked before each act. */
export interface ActRequest {
  kind: 'create' | 'delete';
  /** The pod to delete, or the name a create will use. */
  name: string;
  waitForStop?: boolean;
  config: HpaConfig;
}
export type ActVerdict = 'approve' | 'skip';
export type ApproveAct = (request: ActRequest) => Promise<ActVerdict>;

export interface RealActorHooks {
  client: IncusClient;
  /** Image and profiles for created pods; read at each create so config edits apply. */
  settings: () => RealSettings;
  /** ms on the runner's clock (Observation.at, createdAt). */
  clock: () => number;
  /** Epoch ms of the runner's t = 0, to put Incus' created_at on the same clock. */
  epoch: number;
  dryRun?: boolean;
  approve?: ApproveAct;
  /** The full list of the last observe, for the trace's world summary. */
  onList?: (instances: InstanceFull[]) => void;
  /** An act that was not done (dry run, skipped by the operator), in words. */
  onNotDone?: (what: string) => void;
  onRefused?: (error: OwnershipError) => void;
  signal?: AbortSignal;
}

const STATUSES: readonly InstanceStatus[] = ['Starting', 'Running', 'Stopping', 'Stopped', 'Frozen', 'Error'];

export function ownerOf(instance: { config?: Record<string, string> }): string | null {
  return instance.config?.[OWNER_KEY] ?? null;
}

/** One instance of GET /1.0/instances?recursion=2 as the machine sees it. */
export function toObservedInstance(instance: InstanceFull, epoch: number): ObservedInstance {
  const raw = instance.state?.status ?? instance.status;
  const status = (STATUSES as readonly string[]).includes(raw) ? (raw as InstanceStatus) : 'Error';
  const created = Date.parse(instance.created_at);
  return {
    name: instance.name,
    status,
    owner: ownerOf(instance),
    memoryUsage: instance.state?.memory?.usage ?? 0,
    // `total` is the limit (API extension instances_state_total); LXD 5.0 has none → 0.
    memoryTotal: instance.state?.memory?.total ?? 0,
    createdAt: Number.isFinite(created) ? created - epoch : 0,
  };
}

/**
 * Only this HPA's instances reach the policy: it counts, stops or deletes nothing else,
 * whatever the policy's own matching rule (the seed's prefix match included).
 */
export function observationOf(instances: InstanceFull[], hpa: string, at: number, epoch: number): Observation {
  return { at, instances: instances.filter((i) => ownerOf(i) === hpa).map((i) => toObservedInstance(i, epoch)) };
}

export function newPodName(prefix: string): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

const isFingerprint = (image: string) => /^[0-9a-f]{12,64}$/.test(image);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Incus refuses to delete while another operation holds the instance or it is still running. */
const isBusy = (e: unknown) => e instanceof IncusError && /busy|is running/i.test(e.serverMessage);

export async function createPod(hooks: RealActorHooks, config: HpaConfig, name: string): Promise<void> {
  const { client, signal } = hooks;
  const { image, profiles } = hooks.settings();
  const instanceConfig: Record<string, string> = { [OWNER_KEY]: config.name };
  if (config.limitsMemoryBytes > 0) instanceConfig['limits.memory'] = String(config.limitsMemoryBytes);
  try {
    // One POST with start:true: created and started in one operation, waited for.
    await client.createInstance({
      name,
      source: isFingerprint(image) ? { type: 'image', fingerprint: image } : { type: 'image', alias: image },
      config: instanceConfig,
      profiles,
      start: true,
    }, { signal, timeoutSec: 120 });
  } catch (err) {
    // A pod created but not started would be left Stopped: remove it (it carries our key).
    await removeOwned(hooks, config, name, false).catch(() => undefined);
    throw err;
  }
}

/**
 * Stop and delete one owned instance; gone already counts as done. The owner key is read
 * from the server just before acting, so a policy asking for someone else's instance is refused.
 * waitForStop=false (the seed's "fire stop, delete at once") cannot work on Incus (DELETE of a
 * running instance is refused), so it becomes a forced stop that is waited for, then delete.
 */
export async function removeOwned(hooks: RealActorHooks, config: HpaConfig, name: string, waitForStop: boolean): Promise<void> {
  const { client, signal } = hooks;
  let instance;
  try {
    instance = await client.getInstance(name, { signal });
  } catch (err) {
    if (err instanceof IncusNotFoundError) return;
    throw err;
  }
  const owner = ownerOf(instance);
  if (owner !== config.name) {
    const refused = new OwnershipError(name, config.name, owner);
    hooks.onRefused?.(refused);
    throw refused;
  }
  if (instance.status !== 'Stopped') {
    try {
      // A clean stop sends SIGPWR to init (our image traps it); bounded, then forced.
      await client.updateInstanceState(name, waitForStop ? { action: 'stop', timeout: 30 } : { action: 'stop', force: true }, { signal, timeoutSec: 60 });
    } catch (err) {
      if (err instanceof IncusNotFoundError) return;
      if (err instanceof IncusOperationError && waitForStop) {
        await client.updateInstanceState(name, { action: 'stop', force: true }, { signal, timeoutSec: 60 });
      } else if (!(err instanceof IncusError && /already stopped|not running/i.test(err.serverMessage))) {
        throw err;
      }
    }
  }
  // Right after a stop Incus may still answer "Instance is busy" / "Instance is running" briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await client.deleteInstance(name, { signal, timeoutSec: 60 });
      return;
    } catch (err) {
      if (err instanceof IncusNotFoundError) return;
      if (!isBusy(err) || attempt >= 20) throw err;
      await sleep(250);
    }
  }
}

async function approved(hooks: RealActorHooks, request: ActRequest): Promise<boolean> {
  const verb = request.kind === 'create' ? `create ${request.name}` : `delete ${request.name}`;
  if (hooks.approve && (await hooks.approve(request)) === 'skip') {
    hooks.onNotDone?.(`skipped by the operator: ${verb}`);
    return false;
  }
  if (hooks.dryRun) {
    hooks.onNotDone?.(`dry run: would ${verb}`);
    return false;
  }
  return true;
}

/** The machine's actors, implemented against Incus. */
export function realHpaActors(hooks: RealActorHooks) {
  return {
    observe: fromPromise<Observation, ObserveInput>(async ({ input }) => {
      // One request per observe: every instance with its state.
      const list = await hooks.client.listInstances({ recursion: 2, signal: hooks.signal });
      hooks.onList?.(list);
      return observationOf(list, input.config.name, hooks.clock(), hooks.epoch);
    }),
    createPod: fromPromise<CreateOutput, CreateInput>(async ({ input }) => {
      const name = newPodName(input.config.namePrefix);
      if (await approved(hooks, { kind: 'create', name, config: input.config })) await createPod(hooks, input.config, name);
      return { name };
    }),
    deletePod: fromPromise<void, DeleteInput>(async ({ input }) => {
      if (hooks.dryRun || hooks.approve) {
        // Check ownership before asking or pretending: a refusal must show in dry runs too.
        const inst = await hooks.client.getInstance(input.name, { signal: hooks.signal }).catch((e: unknown) => {
          if (e instanceof IncusNotFoundError) return null;
          throw e;
        });
        if (inst && ownerOf(inst) !== input.config.name) {
          const refused = new OwnershipError(input.name, input.config.name, ownerOf(inst));
          hooks.onRefused?.(refused);
          throw refused;
        }
      }
      if (await approved(hooks, { kind: 'delete', name: input.name, waitForStop: input.waitForStop, config: input.config })) {
        await removeOwned(hooks, input.config, input.name, input.waitForStop);
      }
    }),
  };
}

/** The unchanged HPA machine with the real actors attached. */
export function realHpaMachine(hooks: RealActorHooks) {
  return incusHpaMachine.provide({ actors: realHpaActors(hooks) });
}
