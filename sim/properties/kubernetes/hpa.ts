import type { ControllerConfig, DeploymentSpec, KObject } from '../../../machines/kubernetes';
import { isPodReady, matches, specOf } from '../../../machines/kubernetes';
import type { HpaSpec } from '../../../machines/kubernetes/hpa/reconciler';
import { hpaOptionsOf } from '../../../machines/kubernetes/hpa/reconciler';
import { isActive } from '../../../machines/kubernetes/reconcilers/replicaset';
import type { CheckProperty } from '../../check/model';
import type { KubeWorld } from '../../worlds/kubernetes';
import { objectsOf, worldAt } from './view';
import type { ControllerContext } from '../../../machines/kubernetes';

/**
 * The HorizontalPodAutoscaler's contract (kubernetes docs, "Horizontal Pod Autoscaling"): the
 * target's replica count stays within [minReplicas, maxReplicas], and under a steady load it
 * settles — the tolerance and the scale-down stabilisation window exist so that it does not
 * "thrash" (flap) between counts.
 */

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

const targetOf = (w: KubeWorld, hpa: KObject): KObject | undefined => {
  const ref = specOf<HpaSpec>(hpa).scaleTargetRef;
  return objectsOf(w, ref.kind).find((o) => o.metadata.namespace === hpa.metadata.namespace && o.metadata.name === ref.name);
};

export const withinBounds: Property = {
  name: 'within-bounds',
  kind: 'always',
  claim: "every HPA target's spec.replicas stays within [minReplicas, maxReplicas]",
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'HorizontalPodAutoscaler').every((hpa) => {
      const target = targetOf(w, hpa);
      const { minReplicas, maxReplicas } = specOf<HpaSpec>(hpa);
      const replicas = target ? specOf<DeploymentSpec>(target).replicas : minReplicas;
      return replicas >= minReplicas && replicas <= maxReplicas;
    });
  },
};

/** Steady: the HPA wants what the target has, and the target's pods are all there and ready. */
function hpasSteady(w: KubeWorld): boolean {
  return objectsOf(w, 'HorizontalPodAutoscaler').every((hpa) => {
    const target = targetOf(w, hpa);
    if (!target) return false;
    const spec = specOf<DeploymentSpec>(target);
    const status = hpa.status as { desiredReplicas?: number; currentReplicas?: number }; // cast: unchecked: the status fields the model's HPA reconciler writes
    const pods = objectsOf(w, 'Pod').filter(
      (p) => p.metadata.namespace === target.metadata.namespace && matches(spec.selector, p.metadata.labels) && isActive(p),
    );
    return (
      status.desiredReplicas === spec.replicas &&
      status.currentReplicas === spec.replicas &&
      pods.length === spec.replicas &&
      pods.every(isPodReady)
    );
  });
}

export function hpaConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the load stops changing, within ${within}: every HPA wants the replicas its target has, they run ready, and it stays so (no flapping)`,
    holds: (v) => hpasSteady(worldAt(v)),
  };
}

export const scalesToMax: Property = {
  name: 'scales-to-max',
  kind: 'sometimes',
  claim: 'some run scales a target to maxReplicas (the load moves reach the bound)',
  holds: (v) => {
    const w = worldAt(v);
    return objectsOf(w, 'HorizontalPodAutoscaler').some((hpa) => {
      const target = targetOf(w, hpa);
      return target !== undefined && specOf<DeploymentSpec>(target).replicas === specOf<HpaSpec>(hpa).maxReplicas;
    });
  },
};

/**
 * The point of groupPods' CPU initialisation period and initial readiness delay (replica_calculator.go;
 * kube-controller-manager --horizontal-pod-autoscaler-cpu-initialization-period, -initial-readiness-delay):
 * a pod's start-up CPU (a warm-up before it is Ready) must not read as load. So the count never goes
 * above what the demand needs at the target, less the tolerance: ceil((demand + 10m × maxReplicas) /
 * (request × target × (1 − tolerance))), at least minReplicas. `demandByApp` is the highest load each
 * app can have (its load and every load move).
 */
export function noWarmUpOverscale(demandByApp: Readonly<Record<string, number>>): Property {
  return {
    name: 'no-warm-up-overscale',
    kind: 'always',
    claim: "a warming pod's start-up CPU does not scale the target above what its demand needs",
    holds: (v) => {
      const w = worldAt(v);
      const { tolerance } = hpaOptionsOf(v.config.options);
      return objectsOf(w, 'HorizontalPodAutoscaler').every((hpa) => {
        const target = targetOf(w, hpa);
        if (!target) return true;
        const spec = specOf<HpaSpec>(hpa);
        const template = specOf<DeploymentSpec>(target).template;
        const app = template.labels.app ?? '';
        if (!w.startupLoad?.[app]) return true;
        const request = template.containers.reduce((s, c) => s + c.cpuMilli, 0);
        const perPod = (request * spec.targetCPUUtilization * (1 - tolerance)) / 100;
        const needed = Math.max(spec.minReplicas, Math.ceil(((demandByApp[app] ?? 0) + 10 * spec.maxReplicas) / perPod));
        return specOf<DeploymentSpec>(target).replicas <= needed;
      });
    },
  };
}
