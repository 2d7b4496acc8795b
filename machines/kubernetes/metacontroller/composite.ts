import type { Plan, Reconciler } from '../reconciler';
import { enqueueForAndOwner } from '../reconciler';
import type { KObject, Write } from '../types';
import { controllerOf, ownerRef, splitKey } from '../types';
import type { CompositeSyncRequest, CompositeSyncResponse } from './hooks';
import { podServiceSync } from './hooks';

/**
 * Metacontroller's CompositeController (metacontroller pkg/controller/composite): for each parent
 * it calls the sync hook with the observed parent and children, then makes the children match
 * the answer — create the missing, delete those no longer desired, and update the changed ones
 * according to the child's updateStrategy (OnDelete: leave them; Recreate: delete, the next sync
 * creates; InPlace: update) — and writes the hook's status into the parent. Here the parent is the
 * seed's PodService with children Pod, Service and Ingress.
 */

const COMPOSITE_CHILD_KINDS = ['Pod', 'Service', 'Ingress'];
export type UpdateStrategy = 'OnDelete' | 'Recreate' | 'InPlace';
const DEFAULT_STRATEGY: Record<string, UpdateStrategy> = { Pod: 'Recreate', Service: 'InPlace', Ingress: 'InPlace' };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Metacontroller applies children with a three-way merge of the fields the hook sets: fields
 * others own (a pod's nodeName, set by the scheduler) are not a difference. */
const drifted = (current: Record<string, unknown>, desired: Record<string, unknown>) =>
  Object.keys(desired).some((k) => !same(current[k], desired[k]));

/** A hook's answer, or why there is none (a webhook that is down, times out or answers garbage). */
export type SyncOutcome = (CompositeSyncResponse & { resyncAfterMs?: number; finalized?: boolean }) | { error: string };

/** What a CompositeController is made of: its parent and child resources and its hooks. */
export interface CompositeSpec {
  parentKind: string;
  childKinds: string[];
  sync(request: CompositeSyncRequest & { finalizing: boolean }): SyncOutcome;
  /** With a finalize hook, Metacontroller keeps a finalizer on the parent until the hook says finalized. */
  finalize?: (request: CompositeSyncRequest & { finalizing: boolean }) => SyncOutcome;
  /** The CompositeController's metadata.name (names its finalizer); the reconciler's name otherwise. */
  controllerName?: string;
}

/** metacontroller pkg/controller/composite: the finalizer it puts on parents when a finalize hook is set. */
const compositeFinalizer = (name: string) => `metacontroller.io/compositecontroller-${name}`;

export const compositeReconciler: Reconciler<null> = compositeController('composite', {
  parentKind: 'PodService',
  childKinds: COMPOSITE_CHILD_KINDS,
  sync: (r) => podServiceSync(r),
});

export function compositeController(name: string, spec: CompositeSpec): Reconciler<null> {
  return {
    name,
    forKind: spec.parentKind,
    watches: spec.childKinds,
    initialMemory: () => null,
    mapEvent: (event, memory) => ({ requests: enqueueForAndOwner(spec.parentKind, event), memory }),

    reconcile({ request, view, options }): Plan<null> {
      const { namespace, name: parentName } = splitKey(request);
      const parent = view.objects.find(
        (o) => o.kind === spec.parentKind && o.metadata.namespace === namespace && o.metadata.name === parentName,
      );
      if (!parent)
        return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: `${request} is gone (children are garbage collected)` };
      const finalizer = compositeFinalizer(spec.controllerName ?? name);
      const finalizing = parent.metadata.deletionTimestamp !== undefined;
      if (finalizing && !(spec.finalize && parent.metadata.finalizers.includes(finalizer))) {
        return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: 'parent is being deleted' };
      }
      if (!finalizing && spec.finalize && !parent.metadata.finalizers.includes(finalizer)) {
        return {
          batches: [
            [
              {
                verb: 'update',
                object: { ...parent, metadata: { ...parent.metadata, finalizers: [...parent.metadata.finalizers, finalizer] } },
              },
            ],
          ],
          outcome: { kind: 'ok' },
          memory: null,
          summary: `add finalizer ${finalizer}`,
        };
      }
      const strategies = { ...DEFAULT_STRATEGY, ...((options.updateStrategy ?? {}) as Record<string, UpdateStrategy>) }; // cast: unchecked: updateStrategy as the scenario's controller options give it
      const observed: Record<string, Record<string, KObject>> = {};
      for (const o of view.objects) {
        if (!spec.childKinds.includes(o.kind) || controllerOf(o)?.uid !== parent.metadata.uid) continue;
        (observed[o.kind] ??= {})[o.metadata.name] = o;
      }
      const hook = finalizing && spec.finalize ? spec.finalize : spec.sync;
      const answer = hook({ parent, children: observed, finalizing });
      // A hook that fails: Metacontroller logs the error and retries the parent with backoff.
      if ('error' in answer) return { batches: [], outcome: { kind: 'error', message: answer.error }, memory: null, summary: answer.error };
      const writes: Write[] = [];
      const steps: string[] = [];
      const desiredKeys = new Set(answer.children.map((c) => `${c.kind}/${c.metadata.name}`));
      for (const child of answer.children) {
        const current = observed[child.kind]?.[child.metadata.name];
        const label = `${child.kind.toLowerCase()}/${child.metadata.name}`;
        if (!current) {
          writes.push({
            verb: 'create',
            object: { ...child, metadata: { ...child.metadata, namespace, ownerReferences: [ownerRef(parent)] } },
            tolerate: ['AlreadyExists'],
          });
          steps.push(`create ${label}`);
          continue;
        }
        if (current.metadata.deletionTimestamp !== undefined || !drifted(current.spec, child.spec)) continue;
        const strategy = strategies[child.kind] ?? 'OnDelete';
        if (strategy === 'InPlace') {
          writes.push({ verb: 'update', object: { ...current, spec: { ...current.spec, ...structuredClone(child.spec) } } });
          steps.push(`update ${label}`);
        }
        if (strategy === 'Recreate') {
          writes.push({ verb: 'delete', kind: child.kind, namespace, name: child.metadata.name, tolerate: ['NotFound'] });
          steps.push(`recreate ${label}`);
        }
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
      // finalized: true from the finalize hook → the finalizer goes (and with it the parent).
      if (finalizing && answer.finalized) {
        batches.push([
          {
            verb: 'update',
            object: { ...parent, metadata: { ...parent.metadata, finalizers: parent.metadata.finalizers.filter((f) => f !== finalizer) } },
          },
        ]);
        steps.push('finalized: remove the finalizer');
      }
      const resync = answer.resyncAfterMs ?? (typeof options.resyncPeriodMs === 'number' ? options.resyncPeriodMs : 0);
      return {
        batches,
        outcome: { kind: 'ok', ...(resync > 0 ? { requeueAfterMs: resync } : {}) },
        memory: null,
        summary: `${finalizing ? 'finalize' : 'sync'} hook → ${answer.children.length} desired children; ${steps.length ? steps.join(', ') : 'children match'}`,
      };
    },
  };
}
