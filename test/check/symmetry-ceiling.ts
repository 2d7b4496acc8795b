import type { LoopCheck } from '../../sim/check/model';
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
// The HPA's key names a created instance by its position: "#<n>" (sim/properties/incus-hpa.ts).
const HPA_INSTANCE = /^#\d+,/;

function ceilingKey(
  entry: LoopEntry,
  start: { config: unknown; world: unknown },
  alphabet: Parameters<LoopCheck<unknown, unknown, unknown>['canonicalizer']>[1],
) {
  const inner = entry.check.canonicalizer(start, alphabet);
  if (entry.id === 'kubernetes') {
    return (s: StepState<unknown, unknown>) => inner({ ...s, world: { ...(s.world as object), rng: 0 } }).replace(KUBE_SUFFIX, '-*');
  }
  if (entry.id === 'incus-hpa') {
    return (s: StepState<unknown, unknown>) => {
      const parts = inner(s).split('|');
      const created = parts
        .filter((p) => HPA_INSTANCE.test(p))
        .map((p) => p.replace(/^#\d+/, '#'))
        .sort();
      return `${parts
        .filter((p) => !HPA_INSTANCE.test(p))
        .join('|')
        .replace(/#\d+/g, '#')}|${created.join('|')}`;
    };
  }
  return `no generated names in loop ${entry.id}`;
}
