import { dependenciesOf, parseReference } from './plan';
import type { ApplyOp, ApplyOutcome, Plan, ResourceConfig, Scalar, StateResource } from './types';

/**
 * The apply graph (terraform/internal/terraform: graph_builder_apply.go, transform_destroy_edge.go):
 * a create or update waits for the creates/updates of what it depends on; a delete waits for
 * the deletes of what depends on it (dependents are destroyed first); a replacement is delete
 * then create (-/+), or create then delete (+/-, create_before_destroy — and then the old object
 * is deleted only after its dependents were updated to the new one).
 */
export function applyOps(p: Plan, resources: ResourceConfig[], state: Record<string, StateResource>): ApplyOp[] {
  const config = new Map(resources.map((r) => [r.address, r]));
  const deps = (address: string) => (config.has(address) ? dependenciesOf(config.get(address)!) : (state[address]?.dependencies ?? []));
  const ops = new Map<string, ApplyOp>();
  const add = (op: ApplyOp) => ops.set(op.key, op);
  for (const c of p.changes) {
    const id = state[c.address]?.id;
    if (c.action === 'create') add({ key: `${c.address}:create`, address: c.address, kind: 'create', after: [] });
    if (c.action === 'update') add({ key: `${c.address}:update`, address: c.address, kind: 'update', after: [] });
    if (c.action === 'delete')
      add({ key: `${c.address}:delete`, address: c.address, kind: 'delete', ...(id ? { objectId: id } : {}), after: [] });
    if (c.action === 'replace') {
      add({
        key: `${c.address}:delete`,
        address: c.address,
        kind: 'delete',
        ...(id ? { objectId: id } : {}),
        after: c.order === 'create-before-destroy' ? [`${c.address}:create`] : [],
      });
      add({
        key: `${c.address}:create`,
        address: c.address,
        kind: 'create',
        after: c.order === 'create-before-destroy' ? [] : [`${c.address}:delete`],
      });
    }
  }
  const upsert = (a: string) => ops.get(`${a}:create`) ?? ops.get(`${a}:update`);
  for (const op of ops.values()) {
    if (op.kind !== 'delete') {
      for (const d of deps(op.address)) {
        const dep = upsert(d);
        if (dep) op.after.push(dep.key);
      }
    } else {
      // A deposed object goes, as in the replacement that deposed it, once its dependents point at the new one.
      const of = state[op.address]?.deposedOf;
      if (of)
        for (const r of resources)
          if (dependenciesOf(r).includes(of)) {
            const up = upsert(r.address);
            if (up) op.after.push(up.key);
          }
      // Every resource (in state or config) that depends on this one and is itself deleted goes first.
      const dependents = new Set([
        ...Object.values(state)
          .filter((s) => s.dependencies.includes(op.address))
          .map((s) => s.address),
        ...resources.filter((r) => dependenciesOf(r).includes(op.address)).map((r) => r.address),
      ]);
      for (const r of dependents) {
        const del = ops.get(`${r}:delete`);
        if (del && !del.after.includes(op.key)) op.after.push(del.key);
        // create_before_destroy: the old object goes once its dependents point at the new one.
        const up = upsert(r);
        if (up && op.after.includes(`${op.address}:create`)) op.after.push(up.key);
      }
    }
  }
  return [...ops.values()].map((op) => ({ ...op, after: [...new Set(op.after)] }));
}

export interface ApplyProgress {
  ops: ApplyOp[];
  done: string[];
  failed: string[];
  /** The working state: updated after every operation (a crash loses what was not yet written). */
  state: Record<string, StateResource>;
  errors: string[];
}

/** Operations that will not run because something they wait for failed (transitively). */
export function blockedOps(p: ApplyProgress): string[] {
  const bad = new Set(p.failed);
  let grew = true;
  while (grew) {
    grew = false;
    for (const op of p.ops)
      if (!bad.has(op.key) && op.after.some((k) => bad.has(k))) {
        bad.add(op.key);
        grew = true;
      }
  }
  return p.ops.filter((o) => bad.has(o.key) && !p.failed.includes(o.key)).map((o) => o.key);
}

/** The next operation whose predecessors all succeeded, in plan order (as with -parallelism=1); null when none is left. */
export function nextOp(p: ApplyProgress): ApplyOp | null {
  const settled = new Set([...p.done, ...p.failed]);
  return p.ops.find((o) => !settled.has(o.key) && o.after.every((k) => p.done.includes(k))) ?? null;
}

/** Arguments with references resolved against the working state (the ids just created are known now). */
export function resolvedAttrs(r: ResourceConfig, state: Record<string, StateResource>): Record<string, Scalar> {
  const prior = state[r.address];
  return Object.fromEntries(
    Object.entries(r.attrs).map(([k, v]) => {
      // lifecycle.ignore_changes: an existing object keeps its current value for these arguments.
      if (prior && r.lifecycle.ignoreChanges.includes(k) && prior.attrs[k] !== undefined) return [k, prior.attrs[k]!];
      const ref = parseReference(v);
      if (!ref) return [k, v];
      const s = state[ref.address];
      return [k, s ? (ref.attr === 'id' ? s.id : (s.attrs[ref.attr] ?? '')) : ''];
    }),
  );
}

/**
 * Records what the provider returned. An object that came back with an error is kept in the
 * state as tainted (the next plan replaces it); a failed operation blocks its dependents.
 * create_before_destroy (node_resource_apply_instance.go): the new object becomes current and the
 * prior one is deposed — still in the state until its delete succeeds. If the create fails with
 * no object, the prior one simply stays current (EvalMaybeRestoreDeposedObject); with a partial
 * (tainted) object, "the prior object remains deposed" and a later run destroys it.
 */
export function recordOutcome(p: ApplyProgress, op: ApplyOp, outcome: ApplyOutcome, config: ResourceConfig | undefined): ApplyProgress {
  const state = { ...p.state };
  const prior = state[op.address];
  if (op.kind === 'delete') {
    // The object deleted is the current one, or one deposed by a create_before_destroy replacement.
    if (!outcome.error)
      for (const [key, s] of Object.entries(state))
        if (s.id === op.objectId && (key === op.address || s.deposedOf === op.address)) delete state[key];
  } else if (outcome.object) {
    if (
      op.kind === 'create' &&
      prior &&
      prior.id !== outcome.object.id &&
      p.ops.some((o) => o.kind === 'delete' && o.address === op.address && o.objectId === prior.id)
    ) {
      let n = 1;
      while (state[`${op.address} (deposed ${n})`]) n++;
      const key = `${op.address} (deposed ${n})`;
      state[key] = { ...prior, address: key, deposedOf: op.address };
    }
    state[op.address] = {
      address: op.address,
      type: config?.type ?? prior?.type ?? '',
      id: outcome.object.id,
      attrs: outcome.object.attrs,
      dependencies: config ? dependenciesOf(config) : (prior?.dependencies ?? []),
      tainted: op.kind === 'create' && outcome.error !== null,
    };
  }
  return outcome.error
    ? { ...p, state, failed: [...p.failed, op.key], errors: [...p.errors, `Error: ${op.address}: ${outcome.error}`] }
    : { ...p, state, done: [...p.done, op.key] };
}
