import type { Plan, Reconciler } from '../reconciler';
import type { KObject, Write } from '../types';
import { controllerOf, keyOf, matches, ownerRef, splitKey } from '../types';
import { sidecarSync } from './hooks';

/**
 * Metacontroller's DecoratorController (metacontroller pkg/controller/decorator): for every object
 * of the target resource matching its selector (here Pods labelled sidecar=inject) it calls the
 * sync hook and applies the answer: labels and annotations merged into the target, attachments
 * created (owned by the target) or deleted when no longer returned.
 */

export const DECORATOR_SELECTOR = { sidecar: 'inject' };

const contains = (have: Record<string, string>, want: Record<string, string>) => Object.entries(want).every(([k, v]) => have[k] === v);

export const decoratorReconciler: Reconciler<null> = {
  name: 'decorator',
  forKind: 'Pod',
  watches: ['ConfigMap'],
  initialMemory: () => null,
  mapEvent: (event, memory) => {
    const o = event.object;
    if (o.kind === 'Pod') return { requests: matches(DECORATOR_SELECTOR, o.metadata.labels) ? [keyOf(o)] : [], memory };
    const owner = controllerOf(o);
    return { requests: owner?.kind === 'Pod' ? [`${o.metadata.namespace}/${owner.name}`] : [], memory };
  },

  reconcile({ request, view }): Plan<null> {
    const { namespace, name } = splitKey(request);
    const pod = view.objects.find((o) => o.kind === 'Pod' && o.metadata.namespace === namespace && o.metadata.name === name);
    const done = (writes: Write[], summary: string): Plan<null> => ({ batches: writes.length ? [writes] : [], outcome: { kind: 'ok' }, memory: null, summary });
    if (!pod || pod.metadata.deletionTimestamp !== undefined) return done([], `${request} is gone or going`);
    if (!matches(DECORATOR_SELECTOR, pod.metadata.labels)) return done([], `${name} does not match sidecar=inject`);
    const answer = sidecarSync(pod);
    const writes: Write[] = [];
    const steps: string[] = [];
    if (!contains(pod.metadata.labels, answer.labels) || !contains(pod.metadata.annotations, answer.annotations)) {
      writes.push({ verb: 'update', object: { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, ...answer.labels }, annotations: { ...pod.metadata.annotations, ...answer.annotations } } } });
      steps.push('add labels/annotations');
    }
    const attached = view.objects.filter((o: KObject) => o.kind === 'ConfigMap' && controllerOf(o)?.uid === pod.metadata.uid);
    for (const a of answer.attachments) {
      if (attached.some((o) => o.metadata.name === a.metadata.name)) continue;
      writes.push({ verb: 'create', object: { ...a, metadata: { ...a.metadata, namespace, ownerReferences: [ownerRef(pod)] } }, tolerate: ['AlreadyExists'] });
      steps.push(`attach ${a.kind.toLowerCase()}/${a.metadata.name}`);
    }
    for (const o of attached) {
      if (answer.attachments.some((a) => a.metadata.name === o.metadata.name)) continue;
      writes.push({ verb: 'delete', kind: o.kind, namespace, name: o.metadata.name, tolerate: ['NotFound'] });
      steps.push(`detach ${o.metadata.name}`);
    }
    return done(writes, `decorate ${name}: ${steps.length ? steps.join(', ') : 'already decorated'}`);
  },
};
