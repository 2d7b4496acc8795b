import type { ControllerConfig, KObject } from '../../../machines/kubernetes';
import { isPodReady, matches, specOf } from '../../../machines/kubernetes';
import { DECORATOR_SELECTOR } from '../../../machines/kubernetes/metacontroller/decorator';
import type { PodServiceSpec } from '../../../machines/kubernetes/metacontroller/hooks';
import { sidecarSync } from '../../../machines/kubernetes/metacontroller/hooks';
import { isActive } from '../../../machines/kubernetes/reconcilers/replicaset';
import type { CheckProperty } from '../../check/model';
import type { KubeWorld } from '../../worlds/kubernetes';
import { store as st } from '../../worlds/kubernetes';
import { objectsOf, ownedBy, worldAt } from './view';
import type { ControllerContext } from '../../../machines/kubernetes';

/**
 * Metacontroller's contracts (metacontroller.github.io, "CompositeController" / "DecoratorController"):
 * the framework makes the children (attachments) match what the sync hook returns, level-triggered;
 * a Recreate child is deleted and created again, never doubled.
 */

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

// ---- CompositeController (PodService → Pod + Service + Ingress) ----------------------------------

export const onePodPerParent: Property = {
  name: 'one-pod',
  kind: 'always',
  claim: 'no PodService ever has two active pods (Recreate deletes, then creates)',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'PodService').every((ps) => ownedBy(w, ps, 'Pod').filter(isActive).length <= 1);
  },
};

/** The children are what the hook asks for: a ready Pod with the parent's image, the Service, the Ingress. */
function compositeMatches(w: KubeWorld): boolean {
  return objectsOf(w, 'PodService').every((ps) => {
    if (ps.metadata.deletionTimestamp !== undefined) return false;
    const s = specOf<PodServiceSpec>(ps);
    const child = (kind: string) => w.store.objects[st.storeKey(kind, ps.metadata.namespace, ps.metadata.name)];
    const pod = child('Pod');
    const image = (pod?.spec as { containers?: { image: string }[] } | undefined)?.containers?.[0]?.image; // cast: unchecked: the spec fields the model's Pods carry
    return (
      pod !== undefined &&
      isActive(pod) &&
      isPodReady(pod) &&
      image === s.image &&
      (child('Service')?.spec as { port?: number } | undefined)?.port === s.port && // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
      child('Ingress') !== undefined
    ); // cast: unchecked: the spec fields the model's Services carry
  });
}

export function compositeConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every PodService has a ready Pod of its image, its Service and its Ingress, and it stays so`,
    holds: (v) => compositeMatches(worldAt(v)),
  };
}

export const recreatesPod: Property = {
  name: 'recreates',
  kind: 'sometimes',
  claim: "some run replaces a PodService's pod after its image changed (the Recreate path is reached)",
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'PodService').some((ps) => {
      const pod = w.store.objects[st.storeKey('Pod', ps.metadata.namespace, ps.metadata.name)];
      // generation > 1: the spec was changed; a pod of the new image is then a recreated one.
      return (
        ps.metadata.generation > 1 &&
        pod !== undefined &&
        (pod.spec as { containers: { image: string }[] }).containers[0]?.image === specOf<PodServiceSpec>(ps).image // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
      ); // cast: unchecked: the spec fields the model's Pods carry
    });
  },
};

// ---- DecoratorController (pods labelled sidecar=inject) ------------------------------------------

const attachmentsOf = (w: KubeWorld, pod: KObject) => ownedBy(w, pod, 'ConfigMap');

/** Every live matching pod carries the hook's labels and annotations and exactly its attachments. */
function podsDecorated(w: KubeWorld): boolean {
  return objectsOf(w, 'Pod').every((pod) => {
    if (pod.metadata.deletionTimestamp !== undefined || !matches(DECORATOR_SELECTOR, pod.metadata.labels)) return true;
    const want = sidecarSync(pod);
    const has = (have: Record<string, string>, need: Record<string, string>) => Object.entries(need).every(([k, x]) => have[k] === x);
    const names = attachmentsOf(w, pod)
      .map((a) => a.metadata.name)
      .sort();
    return (
      has(pod.metadata.labels, want.labels) &&
      has(pod.metadata.annotations, want.annotations) &&
      JSON.stringify(names) === JSON.stringify(want.attachments.map((a) => a.metadata.name).sort())
    );
  });
}

export function decoratorConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: every pod labelled sidecar=inject is marked and has exactly its log-shipper attachment, and it stays so`,
    holds: (v) => podsDecorated(worldAt(v)),
  };
}

/** An attachment per pod, never two: the hook names it after the pod (a create from a stale cache meets AlreadyExists). */
export const oneAttachment: Property = {
  name: 'one-attachment',
  kind: 'always',
  claim: 'no pod ever has more than one log-shipper attachment',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'Pod').every((pod) => attachmentsOf(w, pod).length <= 1);
  },
};

export const decorates: Property = {
  name: 'decorates',
  kind: 'sometimes',
  claim: 'some run decorates a pod (labels, annotations and its attachment)',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'Pod').some((pod) => matches(DECORATOR_SELECTOR, pod.metadata.labels) && attachmentsOf(w, pod).length > 0);
  },
};
