import type { ResourceConfig } from '../../machines/terraform';
import { dependenciesOf } from '../../machines/terraform';
import type { TerraformWorld } from '../worlds/terraform';
import type { Violation } from './systemd-restart';

export type { Violation };
type Call = TerraformWorld['calls'][number];

const v = (t: number, property: string, message: string): Violation => ({ frame: -1, t, property, message });

/** Cloud calls grouped by the lock their run held. */
function runs(world: TerraformWorld): Call[][] {
  const by = new Map<string, Call[]>();
  for (const c of world.calls) if (c.lockId) by.set(c.lockId, [...(by.get(c.lockId) ?? []), c]);
  return [...by.values()];
}

function closure(config: ResourceConfig[]): Map<string, Set<string>> {
  const direct = new Map(config.map((r) => [r.address, dependenciesOf(r)]));
  const out = new Map<string, Set<string>>();
  for (const a of direct.keys()) {
    const seen = new Set<string>();
    const stack = [...(direct.get(a) ?? [])];
    while (stack.length) { const d = stack.pop()!; if (!seen.has(d)) { seen.add(d); stack.push(...(direct.get(d) ?? [])); } }
    out.set(a, seen);
  }
  return out;
}

/**
 * The apply graph: a create/update starts after the creates/updates of its dependencies in the same
 * run finished; a delete starts after the deletes of its dependents finished.
 */
export function applyRespectsDependencies(world: TerraformWorld, config: ResourceConfig[]): Violation[] {
  const deps = new Map(config.map((r) => [r.address, dependenciesOf(r)]));
  const out: Violation[] = [];
  for (const run of runs(world)) for (const c of run) {
    if (c.kind === 'delete') {
      for (const r of run) if (r.kind === 'delete' && (deps.get(r.address) ?? []).includes(c.address) && r.t1 > c.t0) out.push(v(c.t0, 'applyRespectsDependencies', `${c.address} deleted before its dependent ${r.address}`));
      continue;
    }
    for (const d of deps.get(c.address) ?? []) for (const dc of run) {
      if (dc.address === d && dc.kind !== 'delete' && dc.t1 > c.t0) out.push(v(c.t0, 'applyRespectsDependencies', `${c.address} ${c.kind}d before its dependency ${d} finished`));
    }
  }
  return out;
}

/** "a failure stops its dependents": after a failed create/update, nothing downstream of it is created or updated in that run. */
export function failureStopsDependents(world: TerraformWorld, config: ResourceConfig[]): Violation[] {
  const up = closure(config);
  const out: Violation[] = [];
  for (const run of runs(world)) for (const f of run.filter((c) => !c.ok && c.kind !== 'delete')) {
    for (const c of run) if (c.t0 >= f.t1 && c.kind !== 'delete' && up.get(c.address)?.has(f.address)) out.push(v(c.t0, 'failureStopsDependents', `${c.address} ${c.kind}d after its dependency ${f.address} failed`));
  }
  return out;
}

/** lifecycle.prevent_destroy: while configured, the object is never deleted by Terraform. */
export function preventDestroyHonoured(world: TerraformWorld, config: ResourceConfig[]): Violation[] {
  const protectedAddrs = new Set(config.filter((r) => r.lifecycle.preventDestroy).map((r) => r.address));
  return world.calls.filter((c) => c.kind === 'delete' && protectedAddrs.has(c.address)).map((c) => v(c.t0, 'preventDestroyHonoured', `${c.address} was destroyed despite prevent_destroy`));
}

/** The state's serial grows with every write, and every write is made by the holder of the lock. */
export function stateWritesAreLockedAndOrdered(world: TerraformWorld): Violation[] {
  const out: Violation[] = [];
  world.writes.forEach((w, i) => {
    if (i > 0 && w.serial <= world.writes[i - 1]!.serial) out.push(v(w.t, 'stateWritesAreLockedAndOrdered', `serial ${w.serial} written after serial ${world.writes[i - 1]!.serial}`));
    if (w.heldBy !== w.lockId) out.push(v(w.t, 'stateWritesAreLockedAndOrdered', `state written by lock ${w.lockId} while the lock is ${w.heldBy ?? 'free'}`));
  });
  return out;
}

/**
 * Convergence: after a run whose cloud calls all succeeded, with nothing changed outside Terraform
 * (and the same configuration) until the next run ends, the next run makes no cloud call.
 */
export function cleanApplyConverges(world: TerraformWorld, configChangedAt: number[] = []): Violation[] {
  const out: Violation[] = [];
  const taken = world.locks.filter((l) => l.ok && l.id !== null);
  for (let i = 1; i < taken.length; i++) {
    const a = taken[i - 1]!;
    const b = taken[i]!;
    const bEnd = world.releases.find((r) => r.id === b.id)?.t;
    if (bEnd === undefined || !world.releases.some((r) => r.id === a.id)) continue;
    const callsA = world.calls.filter((c) => c.lockId === a.id);
    if (callsA.some((c) => !c.ok)) continue;
    if (world.faults.some((f) => f.t >= a.t && f.t <= bEnd) || configChangedAt.some((t) => t >= a.t && t <= bEnd)) continue;
    const callsB = world.calls.filter((c) => c.lockId === b.id);
    if (callsB.length) out.push(v(b.t, 'cleanApplyConverges', `${callsB.length} cloud calls after a clean apply with no drift (${callsB.map((c) => `${c.kind} ${c.address}`).join(', ')})`));
  }
  return out;
}

/** All invariants, for a configuration that stayed `config` (apart from edits at `configChangedAt` that keep its dependencies and prevent_destroy). */
/**
 * Refresh + apply reconcile: at the end, if the last run finished cleanly and nothing changed
 * outside Terraform since it began, every object in the state exists with the attributes the state
 * records. (Not with prevent_destroy in the configuration: a refused plan writes nothing.)
 */
export function stateMatchesCloudAfterLastRun(world: TerraformWorld, config: ResourceConfig[]): Violation[] {
  if (config.some((r) => r.lifecycle.preventDestroy)) return [];
  const last = world.locks.filter((l) => l.ok && l.id !== null).at(-1);
  const released = last && world.releases.find((r) => r.id === last.id);
  if (!last || !released || world.faults.some((f) => f.t >= last.t)) return [];
  if (world.calls.some((c) => c.lockId === last.id && !c.ok)) return [];
  const out: Violation[] = [];
  for (const s of Object.values(world.state.resources)) {
    const o = world.cloud[s.id];
    if (!o) out.push(v(released.t, 'stateMatchesCloudAfterLastRun', `${s.address} (${s.id}) is in the state but not in the cloud`));
    else if (JSON.stringify(o.attrs) !== JSON.stringify(s.attrs)) out.push(v(released.t, 'stateMatchesCloudAfterLastRun', `${s.address}: state ${JSON.stringify(s.attrs)} but cloud ${JSON.stringify(o.attrs)}`));
  }
  return out;
}

export function terraformViolations(world: TerraformWorld, config: ResourceConfig[], configChangedAt: number[] = []): Violation[] {
  return [
    ...applyRespectsDependencies(world, config), ...failureStopsDependents(world, config), ...preventDestroyHonoured(world, config),
    ...stateWritesAreLockedAndOrdered(world), ...cleanApplyConverges(world, configChangedAt), ...stateMatchesCloudAfterLastRun(world, config),
  ];
}
