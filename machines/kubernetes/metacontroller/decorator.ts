import type { Plan, Reconciler } from '../reconciler';
import type { KObject, Write } from '../types';
import { controllerOf, keyOf, matches, ownerRef, splitKey } from '../types';
import type { UpdateStrategy } from './composite';
import type { DesiredChild } from './hooks';
import { sidecarSync } from './hooks';

/**
 * Metacontroller's DecoratorController (metacontroller pkg/controller/decorator,
 * metacontroller.github.io/metacontroller/api/decoratorcontroller.html): for every object of the
 * target resource matching its selector it calls the sync hook with the object and its
 * attachments, and applies the answer — labels and annotations merged into the target (null
 * removes one), the status replaced when the hook gives one, attachments created (owned by the
 * target), updated by their updateStrategy (default OnDelete: never) or deleted when no longer
 * returned. With a finalize hook it keeps the finalizer metacontroller.io/decoratorcontroller-<name>
 * on targets until the hook answers finalized. The built-in one (`controller: decorator`) is seed
 * 003's sidecar hook on pods labelled sidecar=inject; a user's webhook is another spec
 * (sim/user-controller/decorator-webhook.ts). Not modelled: annotation selectors, the customize
 * hook (related objects), and finalize on objects that stop matching.
 */

export const DECORATOR_SELECTOR = { sidecar: 'inject' };

/** A hook's answer, or why there is none (a webhook that is down, times out or answers garbage). */
export type DecoratorOutcome =
  | {
      labels: Record<string, string | null>;
      annotations: Record<string, string | null>;
      /** Replaces the target's status; null or absent leaves it. */
      status?: Record<string, unknown> | null;
      attachments: DesiredChild[];
      resyncAfterMs?: number;
      finalized?: boolean;
    }
  | { error: string };

export interface DecoratorSyncRequest {
  target: KObject;
  attachments: Record<string, Record<string, KObject>>;
  finalizing: boolean;
}

export interface DecoratorSpec {
  targetKind: string;
  /** labelSelector.matchLabels of the resource rule. */
  selector: Record<string, string>;
  attachmentKinds: string[];
  sync(request: DecoratorSyncRequest): DecoratorOutcome;
  finalize?: (request: DecoratorSyncRequest) => DecoratorOutcome;
  /** The DecoratorController's metadata.name (names its finalizer); the reconciler's name otherwise. */
  controllerName?: string;
}

/** metacontroller pkg/controller/decorator: the finalizer it puts on targets when a finalize hook is set. */
const decoratorFinalizer = (name: string) => `metacontroller.io/decoratorcontroller-${name}`;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const drifted = (current: Record<string, unknown>, desired: Record<string, unknown>) =>
  Object.keys(desired).some((k) => !same(current[k], desired[k]));

/** The labels (or annotations) after the hook's map: a value sets, null removes. */
function merged(have: Record<string, string>, answer: Record<string, string | null>): Record<string, string> {
  const out = { ...have };
  for (const [k, v] of Object.entries(answer)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}
const changes = (have: Record<string, string>, answer: Record<string, string | null>) =>
  Object.entries(answer).some(([k, v]) => (v === null ? k in have : have[k] !== v));

export function decoratorController(name: string, spec: DecoratorSpec): Reconciler<null> {
  const selectorText = Object.entries(spec.selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const finalizer = decoratorFinalizer(spec.controllerName ?? name);
  return {
    name,
    forKind: spec.targetKind,
    watches: spec.attachmentKinds,
    initialMemory: () => null,
    mapEvent: (event, memory) => {
      const o = event.object;
      if (o.kind === spec.targetKind) return { requests: matches(spec.selector, o.metadata.labels) ? [keyOf(o)] : [], memory };
      const owner = controllerOf(o);
      return { requests: owner?.kind === spec.targetKind ? [`${o.metadata.namespace}/${owner.name}`] : [], memory };
    },

    reconcile({ request, view, options }): Plan<null> {
      const { namespace, name: targetName } = splitKey(request);
      const target = view.objects.find(
        (o) => o.kind === spec.targetKind && o.metadata.namespace === namespace && o.metadata.name === targetName,
      );
      const done = (batches: Write[][], summary: string, resyncAfterMs?: number): Plan<null> => ({
        batches,
        outcome: { kind: 'ok', ...(resyncAfterMs ? { requeueAfterMs: resyncAfterMs } : {}) },
        memory: null,
        summary,
      });
      const finalizing =
        target?.metadata.deletionTimestamp !== undefined && spec.finalize !== undefined && target.metadata.finalizers.includes(finalizer);
      if (!target || (target.metadata.deletionTimestamp !== undefined && !finalizing)) return done([], `${request} is gone or going`);
      if (!matches(spec.selector, target.metadata.labels)) return done([], `${targetName} does not match ${selectorText}`);
      if (!finalizing && spec.finalize && !target.metadata.finalizers.includes(finalizer)) {
        return done(
          [
            [
              {
                verb: 'update',
                object: { ...target, metadata: { ...target.metadata, finalizers: [...target.metadata.finalizers, finalizer] } },
              },
            ],
          ],
          `add finalizer ${finalizer}`,
        );
      }
      const attached = view.objects.filter(
        (o: KObject) => spec.attachmentKinds.includes(o.kind) && controllerOf(o)?.uid === target.metadata.uid,
      );
      const observed: Record<string, Record<string, KObject>> = {};
      for (const o of attached) (observed[o.kind] ??= {})[o.metadata.name] = o;
      const hook = finalizing && spec.finalize ? spec.finalize : spec.sync;
      const answer = hook({ target, attachments: observed, finalizing });
      // A hook that fails: Metacontroller logs the error and retries the object with backoff.
      if ('error' in answer) return { batches: [], outcome: { kind: 'error', message: answer.error }, memory: null, summary: answer.error };
      const writes: Write[] = [];
      const steps: string[] = [];
      const m = target.metadata;
      if (changes(m.labels, answer.labels) || changes(m.annotations, answer.annotations)) {
        writes.push({
          verb: 'update',
          object: {
            ...target,
            metadata: { ...m, labels: merged(m.labels, answer.labels), annotations: merged(m.annotations, answer.annotations) },
          },
        });
        steps.push('add labels/annotations');
      }
      const strategies = (options.updateStrategy ?? {}) as Record<string, UpdateStrategy>; // cast: unchecked: updateStrategy as the scenario's controller options give it
      for (const a of answer.attachments) {
        const current = attached.find((o) => o.kind === a.kind && o.metadata.name === a.metadata.name);
        if (!current) {
          writes.push({
            verb: 'create',
            object: { ...a, metadata: { ...a.metadata, namespace, ownerReferences: [ownerRef(target)] } },
            tolerate: ['AlreadyExists'],
          });
          steps.push(`attach ${a.kind.toLowerCase()}/${a.metadata.name}`);
          continue;
        }
        if (current.metadata.deletionTimestamp !== undefined || !drifted(current.spec, a.spec)) continue;
        const strategy = strategies[a.kind] ?? 'OnDelete';
        if (strategy === 'InPlace') {
          writes.push({ verb: 'update', object: { ...current, spec: { ...current.spec, ...structuredClone(a.spec) } } });
          steps.push(`update ${a.metadata.name}`);
        }
        if (strategy === 'Recreate') {
          writes.push({ verb: 'delete', kind: a.kind, namespace, name: a.metadata.name, tolerate: ['NotFound'] });
          steps.push(`recreate ${a.metadata.name}`);
        }
      }
      for (const o of attached) {
        if (
          answer.attachments.some((a) => a.kind === o.kind && a.metadata.name === o.metadata.name) ||
          o.metadata.deletionTimestamp !== undefined
        )
          continue;
        writes.push({ verb: 'delete', kind: o.kind, namespace, name: o.metadata.name, tolerate: ['NotFound'] });
        steps.push(`detach ${o.metadata.name}`);
      }
      const batches: Write[][] = writes.length ? [writes] : [];
      if (answer.status && !same(target.status, answer.status)) {
        batches.push([{ verb: 'updateStatus', object: { ...target, status: answer.status }, retryOnConflict: true }]);
        steps.push('update status');
      }
      if (finalizing && answer.finalized) {
        batches.push([
          { verb: 'update', object: { ...target, metadata: { ...m, finalizers: m.finalizers.filter((f) => f !== finalizer) } } },
        ]);
        steps.push('finalized: remove the finalizer');
      }
      return done(
        batches,
        `${finalizing ? 'finalize' : 'decorate'} ${targetName}: ${steps.length ? steps.join(', ') : 'already decorated'}`,
        answer.resyncAfterMs,
      );
    },
  };
}

export const decoratorReconciler: Reconciler<null> = decoratorController('decorator', {
  targetKind: 'Pod',
  selector: DECORATOR_SELECTOR,
  attachmentKinds: ['ConfigMap'],
  sync: ({ target }) => sidecarSync(target),
});
