import type { Plan, Reconciler } from '../reconciler';
import { enqueueForAndOwner } from '../reconciler';
import type { KObject, Write } from '../types';
import { controllerOf, ownerRef, splitKey } from '../types';
import { podServiceSync } from './hooks';

/**
 * Metacontroller's CompositeController (metacontroller pkg/controller/composite): for each parent
 * it calls the sync hook with the observed parent and children, then makes the children match
 * the answer — create the missing, delete those no longer desired, and update the changed ones
 * according to the child's updateStrategy (OnDelete: leave them; Recreate: delete, the next sync
 * creates; InPlace: update) — and writes the hook's status into the parent. Here the parent is the
 * seed's PodService with children Pod, Service and Ingress.
 */

export const COMPOSITE_CHILD_KINDS = ['Pod', 'Service', 'Ingress'];
export type UpdateStrategy = 'OnDelete' | 'Recreate' | 'InPlace';
const DEFAULT_STRATEGY: Record<string, UpdateStrategy> = { Pod: 'Recreate', Service: 'InPlace', Ingress: 'InPlace' };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Metacontroller applies children with a three-way merge of the fields the hook sets: fields
 * others own (a pod's nodeName, set by the scheduler) are not a difference. */
const drifted = (current: Record<string, unknown>, desired: Record<string, unknown>) =>
  Object.keys(desired).some((k) => !same(current[k], desired[k]));

export const compositeReconciler: Reconciler<null> = {
  name: 'composite',
  forKind: 'PodService',
  watches: COMPOSITE_CHILD_KINDS,
  initialMemory: () => null,
  mapEvent: (event, memory) => ({ requests: enqueueForAndOwner('PodService', event), memory }),

  reconcile({ request, view, options }): Plan<null> {
    const { namespace, name } = splitKey(request);
    const parent = view.objects.find((o) => o.kind === 'PodService' && o.metadata.namespace === namespace && o.metadata.name === name);
    if (!parent) return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: `${request} is gone (children are garbage collected)` };
    if (parent.metadata.deletionTimestamp !== undefined) return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: 'parent is being deleted' };
    const strategies = { ...DEFAULT_STRATEGY, ...((options.updateStrategy ?? {}) as Record<string, UpdateStrategy>) };
    const observed: Record<string, Record<string, KObject>> = {};
    for (const o of view.objects) {
      if (!COMPOSITE_CHILD_KINDS.includes(o.kind) || controllerOf(o)?.uid !== parent.metadata.uid) continue;
      (observed[o.kind] ??= {})[o.metadata.name] = o;
    }
    const answer = podServiceSync({ parent, children: observed });
    const writes: Write[] = [];
    const steps: string[] = [];
    const desiredKeys = new Set(answer.children.map((c) => `${c.kind}/${c.metadata.name}`));
    for (const child of answer.children) {
      const current = observed[child.kind]?.[child.metadata.name];
      const label = `${child.kind.toLowerCase()}/${child.metadata.name}`;
      if (!current) {
        writes.push({ verb: 'create', object: { ...child, metadata: { ...child.metadata, namespace, ownerReferences: [ownerRef(parent)] } }, tolerate: ['AlreadyExists'] });
        steps.push(`create ${label}`);
        continue;
      }
      if (current.metadata.deletionTimestamp !== undefined || !drifted(current.spec, child.spec)) continue;
      const strategy = strategies[child.kind] ?? 'OnDelete';
      if (strategy === 'InPlace') { writes.push({ verb: 'update', object: { ...current, spec: { ...current.spec, ...structuredClone(child.spec) } } }); steps.push(`update ${label}`); }
      if (strategy === 'Recreate') { writes.push({ verb: 'delete', kind: child.kind, namespace, name: child.metadata.name, tolerate: ['NotFound'] }); steps.push(`recreate ${label}`); }
    }
    for (const [kind, byName] of Object.entries(observed)) {
      for (const [childName, o] of Object.entries(byName)) {
        if (desiredKeys.has(`${kind}/${childName}`) || o.metadata.deletionTimestamp !== undefined) continue;
        writes.push({ verb: 'delete', kind, namespace, name: childName, tolerate: ['NotFound'] });
        steps.push(`delete ${kind.toLowerCase()}/${childName}`);
      }
    }
    const status = { ...answer.status, observedGeneration: parent.metadata.generation };
    const batches: Write[][] = writes.length ? [writes] : [];
    if (!same(parent.status, status)) batches.push([{ verb: 'updateStatus', object: { ...parent, status }, retryOnConflict: true }]);
    const resync = typeof options.resyncPeriodMs === 'number' ? options.resyncPeriodMs : 0;
    return { batches, outcome: { kind: 'ok', ...(resync > 0 ? { requeueAfterMs: resync } : {}) }, memory: null,
      summary: `sync hook → ${answer.children.length} desired children; ${steps.length ? steps.join(', ') : 'children match'}` };
  },
};
