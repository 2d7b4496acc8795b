import { SCHEMAS } from './schema';
import type { AttrChange, Drift, Plan, PlannedChange, PlannedValue, ResourceConfig, Scalar, StateResource } from './types';
import { UNKNOWN } from './types';

const REF = /^\$\{([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)\}$/;

/** A reference "${aws_vpc.main.id}" → { address: "aws_vpc.main", attr: "id" }. */
export function parseReference(v: Scalar): { address: string; attr: string } | null {
  if (typeof v !== 'string') return null;
  const m = REF.exec(v);
  return m ? { address: m[1]!, attr: m[2]! } : null;
}

/** What a resource depends on: its references (implicit) and depends_on (explicit). */
export function dependenciesOf(r: ResourceConfig): string[] {
  const refs = Object.values(r.attrs)
    .map(parseReference)
    .filter((x) => x !== null)
    .map((x) => x.address);
  return [...new Set([...refs, ...r.dependsOn])];
}

/** Configuration order with every resource after its dependencies (the graph walk); null on a cycle. */
export function topoOrder(resources: ResourceConfig[]): string[] | null {
  const byAddr = new Map(resources.map((r) => [r.address, r]));
  const done: string[] = [];
  const visiting = new Set<string>();
  const visit = (a: string): boolean => {
    if (done.includes(a)) return true;
    if (visiting.has(a)) return false;
    visiting.add(a);
    for (const d of dependenciesOf(byAddr.get(a)!)) if (byAddr.has(d) && !visit(d)) return false;
    visiting.delete(a);
    done.push(a);
    return true;
  };
  for (const r of resources) if (!visit(r.address)) return null;
  return done;
}

/**
 * Refresh (terraform plan/apply's first step): the state's objects as the provider reads them
 * now; what differs is drift — "Objects have changed outside of Terraform". An object that is
 * gone is dropped from the refreshed state, so the plan creates it again.
 */
export function refreshState(
  prior: Record<string, StateResource>,
  read: Record<string, Record<string, Scalar> | null>,
): { refreshed: Record<string, StateResource>; drift: Drift[] } {
  const refreshed: Record<string, StateResource> = {};
  const drift: Drift[] = [];
  for (const [address, r] of Object.entries(prior)) {
    const now = read[address];
    if (now === null || now === undefined) {
      drift.push({ address, kind: 'deleted', attrs: [] });
      continue;
    }
    const attrs = Object.keys({ ...r.attrs, ...now })
      .filter((k) => r.attrs[k] !== now[k])
      .map((name) => ({ name, before: r.attrs[name], after: now[name] }));
    if (attrs.length) drift.push({ address, kind: 'changed', attrs });
    refreshed[address] = { ...r, attrs: { ...now } };
  }
  return { refreshed, drift };
}

/**
 * The plan (terraform/internal/terraform: plan walk; plans.Action): for each configured resource,
 * in dependency order, compare the configuration with the refreshed state —
 *   not in state → create (+); tainted → replace; an argument that forces replacement differs →
 *   replace (-/+, or +/- with create_before_destroy); other differences → update in place (~);
 *   same → no-op. A reference to something being created or replaced is "(known after apply)",
 *   which can in turn force a replacement. State objects not in the configuration → delete (-).
 * lifecycle.prevent_destroy turns a plan that destroys the object into an error ("Instance cannot
 * be destroyed") — but only while the block is still in the configuration.
 */
export function plan(resources: ResourceConfig[], state: Record<string, StateResource>): Plan {
  const order = topoOrder(resources) ?? resources.map((r) => r.address);
  const byAddr = new Map(resources.map((r) => [r.address, r]));
  const planned = new Map<string, PlannedChange>();
  const errors: string[] = [];
  // lifecycle docs: create_before_destroy propagates to every resource the marked one depends on.
  const cbd = new Set<string>();
  const mark = (a: string) => {
    if (cbd.has(a) || !byAddr.has(a)) return;
    cbd.add(a);
    dependenciesOf(byAddr.get(a)!).forEach(mark);
  };
  for (const r of resources) if (r.lifecycle.createBeforeDestroy) mark(r.address);
  for (const address of order) {
    const r = byAddr.get(address)!;
    const schema = SCHEMAS[r.type];
    const prior = state[address];
    const resolve = (v: Scalar): PlannedValue => {
      const ref = parseReference(v);
      if (!ref) return v;
      const target = planned.get(ref.address);
      if (!target || target.action === 'create' || target.action === 'replace') return UNKNOWN;
      const s = state[ref.address];
      if (!s) return UNKNOWN;
      return ref.attr === 'id' ? s.id : (s.attrs[ref.attr] ?? UNKNOWN);
    };
    const ignored = new Set(r.lifecycle.ignoreChanges);
    const attrs: AttrChange[] = Object.entries(r.attrs).map(([name, v]) => {
      const after = resolve(v);
      const before = prior?.attrs[name];
      const differs = !prior || (!ignored.has(name) && (after === UNKNOWN || after !== before));
      return {
        name,
        before,
        after: differs || !prior ? after : before,
        forcesReplacement: !!prior && differs && (schema?.attrs[name]?.forceNew ?? false),
      };
    });
    let change: PlannedChange;
    if (!prior) change = { address, type: r.type, action: 'create', attrs };
    else if (prior.tainted) change = { address, type: r.type, action: 'replace', reason: 'tainted', attrs };
    else if (attrs.some((a) => a.forcesReplacement)) change = { address, type: r.type, action: 'replace', reason: 'cannot-update', attrs };
    else if (attrs.some((a) => a.after !== a.before)) change = { address, type: r.type, action: 'update', attrs };
    else change = { address, type: r.type, action: 'no-op', attrs };
    if (change.action === 'replace') {
      change.order = cbd.has(address) ? 'create-before-destroy' : 'destroy-before-create';
      if (r.lifecycle.preventDestroy) {
        errors.push(
          `Error: Instance cannot be destroyed — Resource ${address} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.`,
        );
      }
    }
    planned.set(address, change);
  }
  const deletes: PlannedChange[] = Object.values(state)
    .filter((s) => !byAddr.has(s.address))
    .map((s) => ({
      address: s.address,
      type: s.type,
      action: 'delete',
      reason: 'not-in-configuration',
      attrs: Object.entries(s.attrs).map(([name, before]) => ({ name, before, after: undefined, forcesReplacement: false })),
    }));
  return { changes: [...order.map((a) => planned.get(a)!), ...deletes], errors };
}

/** "Plan: 1 to add, 2 to change, 1 to destroy." — a replacement counts as one add and one destroy. */
export function planSummary(p: Plan): { add: number; change: number; destroy: number } {
  const n = (f: (c: PlannedChange) => boolean) => p.changes.filter(f).length;
  return {
    add: n((c) => c.action === 'create' || c.action === 'replace'),
    change: n((c) => c.action === 'update'),
    destroy: n((c) => c.action === 'delete' || c.action === 'replace'),
  };
}

export const hasChanges = (p: Plan) => p.changes.some((c) => c.action !== 'no-op');

/** The plan renderer's symbols: + create, ~ update in-place, - destroy, -/+ and +/- replace. */
export function actionSymbol(c: PlannedChange): string {
  switch (c.action) {
    case 'create':
      return '+';
    case 'update':
      return '~';
    case 'delete':
      return '-';
    case 'replace':
      return c.order === 'create-before-destroy' ? '+/-' : '-/+';
    default:
      return ' ';
  }
}
