import type { CheckState, KeyEncoder, LoopCheck } from '../../sim/check/model';
import { keyText } from '../../sim/check/key-writer';
import type { HpaConfig, HpaContext } from '../../machines/incus-hpa';
import type { HpaWorld } from '../../sim/worlds/incus-hpa';
import type { StepState } from '../../sim/step';
import type { LoopEntry } from '../../sim/loops/registry';

/**
 * A measurement, not a reduction: the most any renaming of generated names could merge. The
 * loop's canonical key with every generated name erased — Kubernetes' random pod suffixes (and
 * the generator's state), the HPA's created instances' positions (their entries sorted) — so
 * states that differ only by such names get one key. It is NOT sound (both loops read name
 * order: sim/properties/*.ts say why); the bench uses it to show how little symmetry could give
 * here, the symmetry tests to drive the machinery with a key that does merge states.
 */
export function ceilingEntry(entry: LoopEntry): LoopEntry {
  const check: LoopCheck<unknown, unknown, unknown> = {
    ...entry.check,
    symmetry: {
      what: 'generated names erased (a ceiling for measurement, not sound)',
      canonicalizer: (start, alphabet) => ceilingKey(entry, start, alphabet),
    },
  };
  return { ...entry, check };
}

// Kubernetes' generated names: generateName + 5 characters of apimachinery's alphabet (sim/worlds/kubernetes/store.ts).
const KUBE_SUFFIX = /-[bcdfghjklmnpqrstvwxz2456789]{5}(?![a-z0-9-])/g;
// The HPA's created names: prefix + 8 hex digits (sim/worlds/incus-hpa-names.ts).
const HPA_CREATED = /[0-9a-f]{8}$/;

type HpaState = CheckState<HpaWorld, HpaConfig, HpaContext>;

function ceilingKey(
  entry: LoopEntry,
  start: { config: unknown; world: unknown },
  alphabet: Parameters<LoopCheck<unknown, unknown, unknown>['canonicalizer']>[1],
): KeyEncoder<StepState<unknown, unknown>> | string {
  const inner = entry.check.canonicalizer(start, alphabet);
  if (entry.id === 'kubernetes') {
    // The key's text with the generator's state dropped and every generated suffix erased. The key
    // writes names (objects', owners', queue and store keys) as strings, so its text shows them; what
    // it keeps as per-object digests (labels, spec, status, a create's or a patch's body) stays as it is.
    const text = keyText(inner);
    return (s, key) => key.str(text({ ...s, world: { ...(s.world as object), rng: [] } }).replace(KUBE_SUFFIX, '-*'));
  }
  if (entry.id === 'incus-hpa') {
    // Created names erased ('' wherever they appear) and the instances listed in an order of their own.
    return (s, key) => {
      const state = s as HpaState; // cast: this is the HPA's entry, so its states are the HPA's
      const erase = (name: string) => (HPA_CREATED.test(name) ? '' : name);
      const instances = state.world.instances
        .map((i) => ({ ...i, name: erase(i.name) }))
        .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
      const ops = state.world.ops.map((o) => ('name' in o ? { ...o, name: erase(o.name) } : o));
      const ctx = state.snapshot.context;
      const pending = ctx.pending.map((a) => (a.kind === 'delete' ? { ...a, name: erase(a.name) } : a));
      inner({ ...state, world: { ...state.world, instances, ops }, snapshot: { ...state.snapshot, context: { ...ctx, pending } } }, key);
    };
  }
  return `no generated names in loop ${entry.id}`;
}
