// The real binding of the HPA machine: its named actors (observe, createPod, deletePod)
// implemented with Incus REST calls. The machine (machines/incus-hpa/machine.ts) is unchanged.
import { randomBytes } from 'node:crypto';
import { fromPromise } from 'xstate';
import type {
  CreateInput,
  CreateOutput,
  DeleteInput,
  HpaAction,
  HpaConfig,
  InstanceStatus,
  Observation,
  ObservedInstance,
  ObserveInput,
} from '../machines/incus-hpa';
import { OWNER_KEY, incusHpaMachine } from '../machines/incus-hpa';
import type { RealSettings } from './hpa-config';
import type { Identity } from './identity';
import { identityOf, rereadForAct } from './identity';
import type { IncusClient, InstanceFull } from './incus';
import { IncusError, IncusNotFoundError, IncusOperationError } from './incus';
import { listOwned } from './owned-observe';
import type { OwnedGc } from './owned-gc';
import type { OwnActKind, OwnEvents } from './own-events';
import { SpreadPlacement, targetFor } from './placement';
import { sleep } from './sleep';
import { ActBatches } from './slow-start';
import { isOneOf } from '../sim/one-of';

/** A policy asked to touch an instance this HPA does not own: refused, never done. */
export class OwnershipError extends Error {
  override name = 'OwnershipError';
  constructor(
    readonly instance: string,
    readonly hpa: string,
    owner: string | null,
  ) {
    super(
      `refused to delete ${instance}: it does not carry ${OWNER_KEY}=${hpa} (${owner === null ? 'no owner key' : `owner is "${owner}"`})`,
    );
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
  /** Leader election: false once the lease is not safely held; no act is started then. */
  canAct?: () => boolean;
  /** The machine's pending actions now (the runner's snapshot), for parallel acts. */
  pending?: () => readonly HpaAction[];
  /** Acts run at once at most (slow start 1, 2, 4 … up to this); 1 = one at a time. */
  maxParallel?: () => number;
  /** Names this process is creating or deleting right now (the GC leaves them alone). */
  busy?: Set<string>;
  /** volatile.uuid and owner of each instance of the last observation: what a delete was decided on. */
  decided?: Map<string, Identity>;
  /** Collects owned leftovers (Stopped/Error) whatever the policy; see owned-gc.ts. */
  gc?: OwnedGc;
  /** The lifecycle events our acts cause (they must not wake the loop); see own-events.ts. */
  ownEvents?: OwnEvents;
  /** Our pods per cluster member, for `placement: spread` (made by realHpaActors when absent). */
  spread?: SpreadPlacement;
}

/** Leadership lost (or never held): the act is not started. */
export class NotLeaderError extends Error {
  override name = 'NotLeaderError';
  constructor(what: string) {
    super(`not acting (${what}): this copy does not hold the HPA's lease`);
  }
}

function mustAct(hooks: RealActorHooks, what: string): void {
  if (hooks.canAct && !hooks.canAct()) throw new NotLeaderError(what);
}

/** Tracks an act on `name` in hooks.busy for its duration, and the lifecycle events it causes. */
async function tracked<T>(hooks: RealActorHooks, name: string, kind: OwnActKind, act: () => Promise<T>): Promise<T> {
  hooks.busy?.add(name);
  hooks.ownEvents?.begin(name, kind);
  try {
    return await act();
  } finally {
    hooks.busy?.delete(name);
    hooks.ownEvents?.end(name);
  }
}

const STATUSES: readonly InstanceStatus[] = ['Starting', 'Running', 'Stopping', 'Stopped', 'Frozen', 'Error'];

export function ownerOf(instance: { config?: Record<string, string> }): string | null {
  return instance.config?.[OWNER_KEY] ?? null;
}

/** One instance of GET /1.0/instances?recursion=2 as the machine sees it. */
function toObservedInstance(instance: InstanceFull, epoch: number): ObservedInstance {
  const raw = instance.state?.status ?? instance.status;
  const status = isOneOf(STATUSES, raw) ? raw : 'Error';
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

/** Incus refuses to delete while another operation holds the instance or it is still running. */
const isBusy = (e: unknown) => e instanceof IncusError && /busy|is running/i.test(e.serverMessage);

export async function createPod(hooks: RealActorHooks, config: HpaConfig, name: string): Promise<void> {
  mustAct(hooks, `create ${name}`);
  return tracked(hooks, name, 'create', () => createTracked(hooks, config, name));
}

async function createTracked(hooks: RealActorHooks, config: HpaConfig, name: string): Promise<void> {
  const { client, signal } = hooks;
  const { image, profiles, placement } = hooks.settings();
  const instanceConfig: Record<string, string> = { [OWNER_KEY]: config.name };
  if (config.limitsMemoryBytes > 0) instanceConfig['limits.memory'] = String(config.limitsMemoryBytes);
  // Chosen before the try: a failed choice (no member online) has created nothing to remove.
  const target = placement ? await targetFor(placement, (hooks.spread ??= new SpreadPlacement()), client, name, signal) : undefined;
  try {
    // One POST with start:true: created and started in one operation, waited for.
    await client.createInstance(
      {
        name,
        source: isFingerprint(image) ? { type: 'image', fingerprint: image } : { type: 'image', alias: image },
        config: instanceConfig,
        profiles,
        start: true,
      },
      { signal, timeoutSec: 120, ...(target ? { target } : {}) },
    );
    hooks.spread?.settled(name);
  } catch (err) {
    hooks.spread?.forget(name);
    // A pod created but not started would be left Stopped: remove it (it carries our key; the GC
    // collects it later if the daemon cannot be reached now).
    hooks.ownEvents?.begin(name, 'delete');
    await removeTracked(hooks, config, name, false, undefined)
      .catch(() => undefined)
      .finally(() => hooks.ownEvents?.end(name));
    throw err;
  }
}

const alreadyStopped = (e: unknown) => e instanceof IncusError && /already stopped|not running/i.test(e.serverMessage);

/**
 * Stop and delete one owned instance; gone already counts as done, and so do "already stopped" and
 * "not found" at every step (another copy, an operator or the GC may have got there first).
 * Immediately before the stop and before each delete the instance is re-read: it must still carry
 * our owner key (else OwnershipError) and, when `expected` is given, the volatile.uuid decided on
 * (else IdentityChangedError) — see identity.ts.
 * waitForStop=false (the seed's "fire stop, delete at once") cannot work on Incus (DELETE of a
 * running instance is refused), so it becomes a forced stop that is waited for, then delete.
 */
export async function removeOwned(
  hooks: RealActorHooks,
  config: HpaConfig,
  name: string,
  waitForStop: boolean,
  expected?: Identity,
): Promise<void> {
  mustAct(hooks, `delete ${name}`);
  return tracked(hooks, name, 'delete', () => removeTracked(hooks, config, name, waitForStop, expected));
}

async function reread(hooks: RealActorHooks, config: HpaConfig, name: string, expected: Identity | undefined) {
  const inst = await rereadForAct(hooks.client, name, expected, hooks.signal);
  if (!inst) return null;
  const owner = ownerOf(inst);
  if (owner !== config.name) {
    const refused = new OwnershipError(name, config.name, owner);
    hooks.onRefused?.(refused);
    throw refused;
  }
  return inst;
}

async function removeTracked(
  hooks: RealActorHooks,
  config: HpaConfig,
  name: string,
  waitForStop: boolean,
  expected: Identity | undefined,
): Promise<void> {
  const { client, signal } = hooks;
  const instance = await reread(hooks, config, name, expected);
  if (!instance) return;
  // What we delete from here on is this very instance, whether or not a uuid was decided on.
  const identity = expected ?? identityOf(instance) ?? undefined;
  if (instance.status !== 'Stopped') {
    // Every write of a multi-step act asks again: the lease may have lapsed (a daemon outage, a
    // starved renewal) since the act began, and from then on this copy must not act — the rest is
    // left to the leader (an owned Stopped pod is collected by the GC, owned-gc.ts).
    mustAct(hooks, `stop ${name}`);
    const forced = () => client.updateInstanceState(name, { action: 'stop', force: true }, { signal, timeoutSec: 60 });
    try {
      // A clean stop sends SIGPWR to init (our image traps it); bounded, then forced.
      await (waitForStop ? client.updateInstanceState(name, { action: 'stop', timeout: 30 }, { signal, timeoutSec: 60 }) : forced());
    } catch (err) {
      if (err instanceof IncusNotFoundError) return;
      if (err instanceof IncusOperationError && waitForStop && !alreadyStopped(err)) {
        try {
          await forced();
        } catch (again) {
          // A pod that stopped between the clean stop and the forced one is what we wanted: this
          // "already stopped" used to be re-thrown, failing an act that had succeeded.
          if (again instanceof IncusNotFoundError) return;
          if (!alreadyStopped(again)) throw again;
        }
      } else if (!alreadyStopped(err)) {
        throw err;
      }
    }
  }
  // Right after a stop Incus may still answer "Instance is busy" / "Instance is running" briefly.
  for (let attempt = 0; ; attempt++) {
    if (!(await reread(hooks, config, name, identity))) return;
    mustAct(hooks, `delete ${name}`);
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

/** Consecutive pending acts of one kind from the head (what one slow-started run may do at once). */
function headRun(pending: readonly HpaAction[], kind: HpaAction['kind']): HpaAction[] {
  const run: HpaAction[] = [];
  for (const a of pending) {
    if (a.kind !== kind) break;
    run.push(a);
  }
  return run;
}

/** The machine's actors, implemented against Incus. */
export function realHpaActors(hooks: RealActorHooks) {
  // Parallel only when nobody is asked per act and the policy is not the seed (kept one at a time).
  const parallel = (config: HpaConfig) => !hooks.dryRun && !hooks.approve && config.policy !== 'seed' && (hooks.maxParallel?.() ?? 1) > 1;
  const creates = new ActBatches<string, string>(() => hooks.maxParallel?.() ?? 1);
  const deletes = new ActBatches<string, void>(() => hooks.maxParallel?.() ?? 1);
  hooks.spread ??= new SpreadPlacement();
  const pendingNow = async () => {
    // The invoke starts inside the machine's transition: read the snapshot once it is committed.
    await Promise.resolve();
    return hooks.pending?.() ?? [];
  };
  return {
    observe: fromPromise<Observation, ObserveInput>(async ({ input }) => {
      // Only this HPA's instances are listed (server-side filter) and only theirs have state read.
      const list = await listOwned(hooks.client, input.config.name, hooks.signal);
      hooks.onList?.(list);
      hooks.spread?.seen(list);
      hooks.decided?.clear();
      for (const i of list) {
        const id = identityOf(i);
        if (id) hooks.decided?.set(i.name, id);
      }
      creates.reset();
      deletes.reset();
      const collecting = hooks.gc?.sweep(list, hooks.busy ?? new Set()) ?? new Set<string>();
      return observationOf(
        list.filter((i) => !collecting.has(i.name)),
        input.config.name,
        hooks.clock(),
        hooks.epoch,
      );
    }),
    createPod: fromPromise<CreateOutput, CreateInput>(async ({ input }) => {
      if (parallel(input.config)) {
        const run = headRun(await pendingNow(), 'create');
        return {
          name: await creates.claim(
            'create',
            run.map(() => 'create'),
            async () => {
              const name = newPodName(input.config.namePrefix);
              await createPod(hooks, input.config, name);
              return name;
            },
          ),
        };
      }
      const name = newPodName(input.config.namePrefix);
      if (await approved(hooks, { kind: 'create', name, config: input.config })) await createPod(hooks, input.config, name);
      return { name };
    }),
    deletePod: fromPromise<void, DeleteInput>(async ({ input }) => {
      const expected = hooks.decided?.get(input.name);
      if (parallel(input.config)) {
        const run = headRun(await pendingNow(), 'delete').flatMap((a) => (a.kind === 'delete' ? [a] : []));
        const waitFor = new Map(run.map((a) => [a.name, a.waitForStop]));
        await deletes.claim(
          input.name,
          run.map((a) => a.name),
          (name) => removeOwned(hooks, input.config, name, waitFor.get(name) ?? input.waitForStop, hooks.decided?.get(name)),
        );
        return;
      }
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
        await removeOwned(hooks, input.config, input.name, input.waitForStop, expected);
      }
    }),
  };
}

/** The unchanged HPA machine with the real actors attached. */
export function realHpaMachine(hooks: RealActorHooks) {
  return incusHpaMachine.provide({ actors: realHpaActors(hooks) });
}
