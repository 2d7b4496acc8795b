import type { ApplyInput, ApplyOutcome, LockInfo, LockInput, PersistInput, RefreshInput, Scalar, TfState } from '../../machines/terraform';
import { SCHEMAS } from '../../machines/terraform';
import type { OpResult, WorldModel } from '../model';
import type { RngState } from '../random';
import { drawHex, seedRng } from '../random';
import type { PlanAction, PlanRow, TerraformWorldSummary } from '../loops/terraform-world-schema';
import type { TerraformNote } from '../notes/terraform';
import { terraformNote } from '../notes/terraform';

/** A real cloud object: whatever Terraform thinks, this is what exists. */
export interface CloudObject {
  id: string;
  type: string;
  attrs: Record<string, Scalar>;
  dataGb: number;
  createdAt: number;
}

/** How long the provider's calls take, ms, per resource type (create, update, delete). */
export const DEFAULT_TIMINGS: Record<string, [number, number, number]> = {
  aws_vpc: [3000, 2000, 2000],
  aws_subnet: [2000, 1000, 1500],
  aws_security_group: [3000, 2000, 2000],
  aws_instance: [35_000, 60_000, 45_000],
  aws_db_instance: [300_000, 90_000, 240_000],
  aws_s3_bucket: [1500, 1000, 1000],
};
/** A backend call (lock, state write, unlock) and reading one object back, ms. */
export const BACKEND_MS = 300;
export const READ_MS = 400;

export type PendingOp =
  | { id: number; kind: 'lock'; result: OpResult }
  | { id: number; kind: 'refresh'; addresses: { address: string; id: string }[] }
  | { id: number; kind: 'apply'; input: ApplyInput; failure: { tainted: boolean } | null; t0: number }
  | { id: number; kind: 'persist'; input: PersistInput }
  | { id: number; kind: 'unlock'; lockId: string };

export interface CreateFailure {
  times: number;
  tainted: boolean;
}

/** One cloud call of the current run (the last to ask for the lock), in the order the calls began. */
export interface RunCall {
  address: string;
  kind: 'create' | 'update' | 'delete';
  /** null while in flight. */
  ok: boolean | null;
  /** The pending operation's id while in flight, 0 once it returned. */
  op: number;
  /** Addresses of this run's calls still in flight when this one began (parallel calls). */
  busy: string[];
}

/**
 * What the claims in sim/properties/terraform.ts read: kept by the world as it happens (not read
 * back from a trace), bounded, so it is part of the explorer's state.
 */
export interface TerraformMonitor {
  /** The calls of the current run (reset when a run asks for the lock). */
  run: RunCall[];
  /** State writes whose writer did not hold the lock. */
  unlockedWrites: number;
  /** State writes whose serial was not above the one before. */
  serialRegressions: number;
  /** GB held by objects that Terraform's own deletes destroyed. */
  destroyedDataGb: number;
}

export interface TerraformWorld {
  rng: RngState;
  cloud: Record<string, CloudObject>;
  /** The backend (e.g. S3 + DynamoDB): the state file and its lock. */
  state: TfState;
  lock: LockInfo | null;
  /** Creates of these addresses that will still fail (−1: every one). */
  createFailures: Record<string, CreateFailure>;
  ops: PendingOp[];
  nextOpId: number;
  /** Every cloud call and every lock request (for the lab's summary and the tests). */
  calls: {
    t0: number;
    t1: number;
    lockId: string | null;
    address: string;
    kind: 'create' | 'update' | 'delete';
    ok: boolean;
    objectId: string | null;
  }[];
  locks: { t: number; id: string | null; ok: boolean }[];
  monitor: TerraformMonitor;
  dataLostGb: number;
  /** The plan as it is applied to the cloud: one entry per ApplyResourceChange, tagged with its run. */
  changes: AppliedChange[];
}

/** One change of a run's plan reaching the cloud: what the object was and what it is asked to be. */
export interface AppliedChange {
  run: number;
  address: string;
  kind: 'create' | 'update' | 'delete';
  before: Record<string, Scalar> | null;
  after: Record<string, Scalar>;
  ok: boolean | null;
}

export type TerraformFault =
  | { kind: 'drift'; address: string; set: Record<string, Scalar> }
  | { kind: 'deleteOutside'; address: string }
  | { kind: 'failCreate'; address: string; times: number; tainted: boolean }
  | { kind: 'writeData'; address: string; gb: number }
  /** The terraform process dies (kill -9, a CI runner lost): handled as a controller restart. */
  | { kind: 'crash' }
  /** `terraform force-unlock <LOCK_ID>` */
  | { kind: 'forceUnlock' };

export function createTerraformWorld(seed: number, createFailures: Record<string, CreateFailure> = {}): TerraformWorld {
  let rng = seedRng(seed);
  const [lineage, r2] = drawHex(rng, 12);
  rng = r2;
  return {
    rng,
    cloud: {},
    state: { version: 4, serial: 0, lineage: `${lineage.slice(0, 8)}-${lineage.slice(8)}`, resources: {} },
    lock: null,
    createFailures,
    ops: [],
    nextOpId: 1,
    calls: [],
    locks: [],
    dataLostGb: 0,
    changes: [],
    monitor: { run: [], unlockedWrites: 0, serialRegressions: 0, destroyedDataGb: 0 },
  };
}

/** The arguments of an object as the provider reads them back (only those the schema has). */
const readAttrs = (o: CloudObject) => ({ ...o.attrs });
/** The cloud object the state file points at for this address. */
export const objectAt = (w: TerraformWorld, address: string): CloudObject | undefined => {
  const id = w.state.resources[address]?.id;
  return id ? w.cloud[id] : undefined;
};

function newId(w: TerraformWorld, type: string, attrs: Record<string, Scalar>): [string, RngState] {
  const schema = SCHEMAS[type];
  if (schema?.idFrom) return [String(attrs[schema.idFrom] ?? ''), w.rng];
  const [hex, rng] = drawHex(w.rng, 8);
  return [`${schema?.idPrefix ?? 'id-'}${hex}`, rng];
}

function begin(world0: TerraformWorld, src: string, input: unknown, t: number) {
  let w: TerraformWorld = { ...world0, nextOpId: world0.nextOpId + 1 };
  const id = world0.nextOpId;
  const add = (op: PendingOp, ms: number) => ({ world: { ...w, ops: [...w.ops, op] }, opId: id, doneAt: t + ms });
  switch (src) {
    case 'acquireLock': {
      const { operation, who } = input as LockInput; // cast: setup() types this actor's input
      // A run starts by asking for the lock (granted or not): the monitor follows this run from here.
      w = { ...w, monitor: { ...w.monitor, run: [] } };
      if (w.lock) {
        const l = w.lock;
        const error = `ConditionalCheckFailedException: The conditional request failed. Lock Info: ID: ${l.id} Path: ${l.path} Operation: ${l.operation} Who: ${l.who} Version: ${l.version} Created: t=${l.created}ms. Terraform acquires a state lock to protect the state from being written by multiple users at the same time.`;
        w = { ...w, locks: [...w.locks, { t, id: null, ok: false }] };
        return add({ id, kind: 'lock', result: { ok: false, error } }, BACKEND_MS);
      }
      const [hex, rng] = drawHex(w.rng, 32);
      const lockId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      const lock: LockInfo = { id: lockId, operation, who, version: '1.9.8', created: t, path: 'tfstate-bucket/prod/terraform.tfstate' };
      w = { ...w, rng, lock, locks: [...w.locks, { t, id: lockId, ok: true }] };
      // The state is read after the lock is taken, when the call returns.
      return add({ id, kind: 'lock', result: { ok: true, output: lockId } }, BACKEND_MS);
    }
    case 'refresh': {
      const { resources } = input as RefreshInput; // cast: setup() types this actor's input
      return add(
        { id, kind: 'refresh', addresses: resources.map((r) => ({ address: r.address, id: r.id })) },
        READ_MS * Math.max(1, resources.length),
      );
    }
    case 'applyChange': {
      const a = input as ApplyInput; // cast: setup() types this actor's input
      const timing = DEFAULT_TIMINGS[a.type] ?? [1000, 1000, 1000];
      let failure: { tainted: boolean } | null = null;
      const f = w.createFailures[a.op.address];
      if (a.op.kind === 'create' && f && f.times !== 0) {
        failure = { tainted: f.tainted };
        w = { ...w, createFailures: { ...w.createFailures, [a.op.address]: { ...f, times: f.times > 0 ? f.times - 1 : f.times } } };
      }
      const ms = a.op.kind === 'create' ? timing[0] : a.op.kind === 'update' ? timing[1] : timing[2];
      // The run is the latest lock taken: an apply only happens under its lock.
      const run = w.locks.filter((l) => l.ok).length;
      const old =
        a.op.kind === 'create' ? undefined : a.op.kind === 'delete' && a.op.objectId ? w.cloud[a.op.objectId] : objectAt(w, a.op.address);
      w = {
        ...w,
        changes: [
          ...w.changes,
          { run, address: a.op.address, kind: a.op.kind, before: old ? { ...old.attrs } : null, after: { ...a.attrs }, ok: null },
        ],
      };
      const busy = w.monitor.run.filter((c) => c.ok === null).map((c) => c.address);
      w = { ...w, monitor: { ...w.monitor, run: [...w.monitor.run, { address: a.op.address, kind: a.op.kind, ok: null, op: id, busy }] } };
      return add({ id, kind: 'apply', input: a, failure, t0: t }, failure && !failure.tainted ? Math.min(ms, 5000) : ms);
    }
    case 'persistState':
      return add({ id, kind: 'persist', input: input as PersistInput }, BACKEND_MS); // cast: setup() types this actor's input
    case 'releaseLock':
      return add({ id, kind: 'unlock', lockId: (input as { lockId: string }).lockId }, BACKEND_MS); // cast: setup() types releaseLock's input
    default:
      throw new Error(`terraform world has no actor "${src}"`);
  }
}

/** The cloud API answering one ApplyResourceChange. */
function applyCall(
  w0: TerraformWorld,
  p: Extract<PendingOp, { kind: 'apply' }>,
  t: number,
): { world: TerraformWorld; outcome: ApplyOutcome } {
  let w = w0;
  const { op, type, attrs } = p.input;
  const log = (ok: boolean, objectId: string | null) => ({
    ...w,
    calls: [...w.calls, { t0: p.t0, t1: t, lockId: w.lock?.id ?? null, address: op.address, kind: op.kind, ok, objectId }],
  });
  if (op.kind === 'delete') {
    const o = op.objectId ? w.cloud[op.objectId] : undefined;
    if (o) {
      const { [o.id]: _gone, ...cloud } = w.cloud;
      w = {
        ...w,
        cloud,
        dataLostGb: w.dataLostGb + o.dataGb,
        monitor: { ...w.monitor, destroyedDataGb: w.monitor.destroyedDataGb + o.dataGb },
      };
    }
    return { world: log(true, op.objectId ?? null), outcome: { object: null, error: null } };
  }
  if (op.kind === 'update') {
    const current = objectAt(w, op.address);
    if (!current)
      return { world: log(false, null), outcome: { object: null, error: `reading ${op.address}: couldn't find resource (404)` } };
    const o = { ...current, attrs: { ...current.attrs, ...attrs } };
    w = { ...w, cloud: { ...w.cloud, [o.id]: o } };
    return { world: log(true, o.id), outcome: { object: { id: o.id, attrs: readAttrs(o) }, error: null } };
  }
  // create
  const schema = SCHEMAS[type];
  if (schema?.uniqueBy) {
    const name = attrs[schema.uniqueBy];
    // The name is the id: with create_before_destroy the new object cannot take the old one's name.
    if (w.cloud[String(name)] || Object.values(w.cloud).some((o) => o.type === type && o.attrs[schema.uniqueBy!] === name)) {
      const error =
        type === 'aws_s3_bucket'
          ? `creating S3 Bucket (${String(name)}): BucketAlreadyOwnedByYou: Your previous request to create the named bucket succeeded and you already own it.`
          : `creating RDS DB Instance (${String(name)}): DBInstanceAlreadyExists: DB instance already exists`;
      return { world: log(false, null), outcome: { object: null, error } };
    }
  }
  if (p.failure && !p.failure.tainted)
    return {
      world: log(false, null),
      outcome: {
        object: null,
        error: `creating ${type}: operation error: api error InsufficientInstanceCapacity: We currently do not have sufficient capacity in the Availability Zone you requested.`,
      },
    };
  const [id, rng] = newId(w, type, attrs);
  const o: CloudObject = { id, type, attrs: { ...attrs }, dataGb: 0, createdAt: t };
  w = { ...w, rng, cloud: { ...w.cloud, [id]: o } };
  if (p.failure?.tainted)
    return {
      world: log(false, id),
      outcome: {
        object: { id, attrs: readAttrs(o) },
        error: `waiting for ${type} (${id}) create: timeout while waiting for state to become 'available' (last state: 'pending', timeout: 10m0s)`,
      },
    };
  return { world: log(true, id), outcome: { object: { id, attrs: readAttrs(o) }, error: null } };
}

function complete(world0: TerraformWorld, opId: number, t: number): { world: TerraformWorld; result: OpResult } {
  const op = world0.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  const w: TerraformWorld = { ...world0, ops: world0.ops.filter((o) => o.id !== opId) };
  switch (op.kind) {
    case 'lock':
      return { world: w, result: op.result.ok ? { ok: true, output: { lockId: op.result.output, state: w.state } } : op.result };
    case 'refresh':
      return {
        world: w,
        result: {
          ok: true,
          output: Object.fromEntries(op.addresses.map((a) => [a.address, w.cloud[a.id] ? readAttrs(w.cloud[a.id]!) : null])),
        },
      };
    case 'apply': {
      const { world, outcome } = applyCall(w, op, t);
      const i = world.changes.findLastIndex((c) => c.address === op.input.op.address && c.kind === op.input.op.kind && c.ok === null);
      const changes = i < 0 ? world.changes : world.changes.map((c, j) => (j === i ? { ...c, ok: outcome.error === null } : c));
      // A call begun by an earlier run (before a crash and a new lock) is no longer in the monitor.
      const run = world.monitor.run.map((c) => (c.op === opId ? { ...c, ok: outcome.error === null, op: 0 } : c));
      return { world: { ...world, changes, monitor: { ...world.monitor, run } }, result: { ok: true, output: outcome } };
    }
    case 'persist': {
      // An S3 backend does not check the lock on write: after a force-unlock a stale run still writes.
      const s = op.input.state;
      const m = w.monitor;
      const monitor = {
        ...m,
        unlockedWrites: m.unlockedWrites + (w.lock?.id === op.input.lockId ? 0 : 1),
        serialRegressions: m.serialRegressions + (s.serial > w.state.serial ? 0 : 1),
      };
      return { world: { ...w, state: s, monitor }, result: { ok: true, output: s.serial } };
    }
    case 'unlock':
      if (w.lock?.id !== op.lockId)
        return {
          world: w,
          result: {
            ok: false,
            error: `lock ID "${op.lockId}" does not match existing lock${w.lock ? ` "${w.lock.id}"` : ' (no lock held)'}`,
          },
        };
      return { world: { ...w, lock: null }, result: { ok: true } };
  }
}

function inject(w: TerraformWorld, fault: TerraformFault): { world: TerraformWorld; note: TerraformNote } {
  switch (fault.kind) {
    case 'drift': {
      const o = objectAt(w, fault.address);
      if (!o) return { world: w, note: terraformNote('terraform.consoleEditMissing', { address: fault.address }) };
      return {
        world: { ...w, cloud: { ...w.cloud, [o.id]: { ...o, attrs: { ...o.attrs, ...fault.set } } } },
        note: terraformNote('terraform.consoleEdit', {
          change: `${fault.address} (${o.id}) ${Object.entries(fault.set)
            .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
            .join(', ')}`,
        }),
      };
    }
    case 'deleteOutside': {
      const o = objectAt(w, fault.address);
      if (!o) return { world: w, note: terraformNote('terraform.deleteMissing', { address: fault.address }) };
      const { [o.id]: _gone, ...cloud } = w.cloud;
      return {
        world: { ...w, cloud, dataLostGb: w.dataLostGb + o.dataGb },
        note: terraformNote('terraform.deletedOutside', { address: fault.address, id: o.id }),
      };
    }
    case 'failCreate':
      return {
        world: { ...w, createFailures: { ...w.createFailures, [fault.address]: { times: fault.times, tainted: fault.tainted } } },
        note: terraformNote('terraform.createsWillFail', { address: fault.address, times: fault.times, tainted: fault.tainted }),
      };
    case 'writeData': {
      const o = objectAt(w, fault.address);
      if (!o) return { world: w, note: terraformNote('terraform.writeMissing', { address: fault.address }) };
      return {
        world: { ...w, cloud: { ...w.cloud, [o.id]: { ...o, dataGb: o.dataGb + fault.gb } } },
        note: terraformNote('terraform.dataWritten', { gb: fault.gb, address: fault.address, id: o.id }),
      };
    }
    case 'forceUnlock':
      if (!w.lock) return { world: w, note: terraformNote('terraform.forceUnlockNoLock', {}) };
      return { world: { ...w, lock: null }, note: terraformNote('terraform.forceUnlocked', { lockId: w.lock.id }) };
    case 'crash':
      return { world: w, note: terraformNote('terraform.killed', {}) };
  }
}

/** Groups a run's cloud calls by address into the plan's rows (a replace is a create and a delete). */
export function planRows(changes: AppliedChange[]): PlanRow[] {
  const byAddress = new Map<string, AppliedChange[]>();
  for (const c of changes) byAddress.set(c.address, [...(byAddress.get(c.address) ?? []), c]);
  return [...byAddress.entries()].map(([address, cs]) => {
    const create = cs.find((c) => c.kind === 'create');
    const del = cs.find((c) => c.kind === 'delete');
    const update = cs.find((c) => c.kind === 'update');
    // Which came first tells the replace order (internal/plans/action.go DeleteThenCreate / CreateThenDelete).
    const action: PlanAction = create && del ? 'replace' : create ? 'create' : del ? 'delete' : update ? 'update' : 'no-op';
    const symbol =
      action === 'replace'
        ? cs[0]!.kind === 'create'
          ? '+/-'
          : '-/+'
        : action === 'create'
          ? '+'
          : action === 'delete'
            ? '-'
            : action === 'update'
              ? '~'
              : ' ';
    const before = (del ?? update)?.before ?? null;
    const after = action === 'delete' ? null : ((create ?? update)?.after ?? null);
    const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
    const attrs = names
      .map((name) => ({
        name,
        before: before?.[name] ?? null,
        after: after ? (after[name] ?? (action === 'update' ? (before?.[name] ?? null) : null)) : null,
      }))
      .filter((a) => a.before !== a.after);
    const status = cs.some((c) => c.ok === false) ? 'failed' : cs.some((c) => c.ok === null) ? 'applying' : 'done';
    return { address, action, symbol, attrs, status };
  });
}

function summary(w: TerraformWorld): TerraformWorldSummary {
  const owner = new Map(Object.values(w.state.resources).map((r) => [r.id, r.address]));
  const cloud = Object.values(w.cloud).map((o) => ({ id: o.id, type: o.type, address: owner.get(o.id) ?? null, dataGb: o.dataGb }));
  return {
    cloud,
    serial: w.state.serial,
    state: Object.values(w.state.resources).map((r) => `${r.address}${r.tainted ? ' (tainted)' : ''}`),
    lock: w.lock ? { id: w.lock.id, who: w.lock.who, operation: w.lock.operation, since: w.lock.created } : null,
    unmanaged: cloud.filter((c) => c.address === null).length,
    dataLostGb: w.dataLostGb,
    calls: w.calls.length,
    plan: lastPlan(w.changes),
    lockHolder: w.lock?.who ?? null,
  };
}

function lastPlan(changes: AppliedChange[]): TerraformWorldSummary['plan'] {
  const run = changes.at(-1)?.run;
  if (run === undefined) return null;
  return { run, changes: planRows(changes.filter((c) => c.run === run)) };
}

export const terraformWorldModel: WorldModel<TerraformWorld, TerraformFault, TerraformWorldSummary> = {
  begin,
  complete,
  inject,
  summary: (w) => summary(w),
};
