import type { ControllerConfig } from '../../machines/kubernetes';
import { DB_FAILOVER_AFTER_MS } from '../../machines/kubernetes/reconcilers/database';
import type { CheckProperty, EnvMove, LoopCheck } from '../check/model';
import type { KubeFault, KubeParams, KubeWorld } from '../worlds/kubernetes';
import { DEFAULT_KUBE_PARAMS } from '../worlds/kubernetes';
import { settleBoundMs } from './kubernetes/bound';
import { kubernetesKey } from './kubernetes/key';
import { kubernetesApplicable, kubernetesLabel, validateKubernetesCheck } from './kubernetes/moves';
import { noExtraPods, noSurplusAtRest, reachesReplicas, replicaSetConverges, waitsForExpectations } from './kubernetes/replicaset';

/**
 * The Kubernetes loop's claims, one CheckProperty each, per controller the machine can run; the
 * explorer (loopscope check) and the fast-check tests evaluate these same objects.
 */

type Property = CheckProperty<KubeWorld, ControllerConfig>;
type Move = EnvMove<KubeFault, ControllerConfig>;

export * from './kubernetes/replicaset';
export { controllerQuiescent, worldAt } from './kubernetes/view';
export { settleBoundMs } from './kubernetes/bound';

const faultsOf = (alphabet: readonly Move[]): KubeFault[] => alphabet.flatMap((m) => ('fault' in m.entry ? [m.entry.fault] : []));

/** Whether a move may lower a ReplicaSet's spec.replicas (below its start or another move's value). */
function lowersReplicaSets(alphabet: readonly Move[], world: KubeWorld | undefined): boolean {
  const scales = faultsOf(alphabet).filter((f) => f.kind === 'scale' && f.objectKind === 'ReplicaSet');
  if (faultsOf(alphabet).some((f) => (f.kind === 'apply' && f.object.kind === 'ReplicaSet') || (f.kind === 'delete' && f.objectKind === 'ReplicaSet'))) return true;
  return scales.some((f) => {
    if (f.kind !== 'scale') return false;
    const start = world?.store.objects[`ReplicaSet/${f.namespace}/${f.name}`]?.spec.replicas;
    const others = scales.flatMap((g) => (g !== f && g.kind === 'scale' && g.name === f.name ? [g.replicas] : []));
    return [typeof start === 'number' ? start : Infinity, ...others].some((r) => f.replicas < r);
  });
}

/**
 * The claims for this configuration. K (`withinPeriods`, in watch heartbeats, overrides it) is
 * settleBoundMs: what the moves of the alphabet can still cost once the environment stops, plus
 * what the controller itself needs; each controller's term is explained where it is added.
 */
export function kubernetesProperties(config: ControllerConfig, alphabet: readonly Move[], withinPeriods?: number, world?: KubeWorld): Property[] {
  const params: KubeParams = world?.params ?? DEFAULT_KUBE_PARAMS;
  const bound = (extraMs: number) => {
    const withinMs = withinPeriods !== undefined ? withinPeriods * params.heartbeatMs : settleBoundMs(config, alphabet, params, extraMs);
    return { withinMs, within: `${withinMs / 1000}s` };
  };
  switch (config.reconciler) {
    case 'replicaset': {
      // ReplicaSet: nothing beyond a pod's life (one slow-start round of writes takes milliseconds).
      const { withinMs, within } = bound(0);
      const out: Property[] = [noSurplusAtRest, replicaSetConverges(withinMs, within), reachesReplicas];
      if (!lowersReplicaSets(alphabet, world)) out.unshift(noExtraPods);
      if (config.options.expectations !== false) out.push(waitsForExpectations);
      return out;
    }
    default:
      return [];
  }
}

/** What each configuration promises; a property it does not promise is a finding, not a failure. */
export function kubernetesPromises(config: ControllerConfig): readonly string[] {
  switch (config.reconciler) {
    // replica_set.go: expectations keep a reconcile from acting on a cache that does not yet show
    // its own writes; without them (options.expectations: false) only the level-triggered
    // convergence and the rest state are promised.
    case 'replicaset':
      return config.options.expectations === false ? ['no-surplus-at-rest', 'converges'] : ['no-extra-pods', 'no-surplus-at-rest', 'converges'];
    default:
      return [];
  }
}

export const kubernetesCheck: LoopCheck<KubeWorld, KubeFault, ControllerConfig> = {
  loop: 'kubernetes',
  validate: validateKubernetesCheck,
  label: kubernetesLabel,
  applicable: kubernetesApplicable,
  canonicalizer: (start) => {
    const failoverAfterMs = typeof start.config.options.failoverAfterMs === 'number' ? start.config.options.failoverAfterMs : DB_FAILOVER_AFTER_MS;
    return (state) => kubernetesKey(state, failoverAfterMs);
  },
  properties: kubernetesProperties,
  promises: kubernetesPromises,
};
