import type { ControllerConfig } from '../../../machines/kubernetes';
import { specOf } from '../../../machines/kubernetes';
import type { HpaSpec } from '../../../machines/kubernetes/hpa/reconciler';
import { HPA_SYNC_PERIOD_MS, hpaOptionsOf } from '../../../machines/kubernetes/hpa/reconciler';
import { DB_FAILOVER_AFTER_MS, DB_READY_POLL_MS } from '../../../machines/kubernetes/reconcilers/database';
import type { QueueScalerSpec } from '../../../machines/kubernetes/reconcilers/queue-scaler';
import type { CheckProperty, EnvMove, LoopCheck } from '../../check/model';
import type { KubeFault, KubeParams, KubeWorld } from '../../worlds/kubernetes';
import { DEFAULT_KUBE_PARAMS } from '../../worlds/kubernetes';
import { settleBoundMs } from './bound';
import { kubernetesKey } from './key';
import { kubernetesApplicable, kubernetesLabel, validateKubernetesCheck } from './moves';
import { deploymentConverges, maxSurge, minAvailable, rollsOut } from './deployment';
import { hpaConverges, noWarmUpOverscale, scalesToMax, withinBounds } from './hpa';
import { compositeConverges, decoratorConverges, decorates, oneAttachment, onePodPerParent, recreatesPod } from './metacontroller';
import {
  applicationConverges,
  cleanupBeforeFinalizer,
  databaseConverges,
  deletesApplication,
  failsOver,
  onePrimary,
  queueScalerConverges,
  scalesWorkersUp,
  workersWithinBounds,
} from './operators';
import type { UserControllerRun } from './module';
import { moduleProperties, modulePromises, userControllerOf } from './module';
import { isUserController } from '../../user-controller/declared';
import { noExtraPods, noSurplusAtRest, reachesReplicas, replicaSetConverges, waitsForExpectations } from './replicaset';
import type { ControllerContext } from '../../../machines/kubernetes';

/**
 * The Kubernetes loop's claims, one CheckProperty each, per controller the machine can run; the
 * explorer (loopscope check) and the fast-check tests evaluate these same objects.
 */

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;
type Move = EnvMove<KubeFault, ControllerConfig>;

export * from './replicaset';
export * from './deployment';
export * from './hpa';
export * from './operators';
export * from './metacontroller';

const faultsOf = (alphabet: readonly Move[]): KubeFault[] => alphabet.flatMap((m) => ('fault' in m.entry ? [m.entry.fault] : []));

/** Whether a move may lower the spec.replicas of an object of `kind` (below its start or another move's value). */
function lowersReplicas(kind: string, alphabet: readonly Move[], world: KubeWorld | undefined): boolean {
  const faults = faultsOf(alphabet);
  if (faults.some((f) => (f.kind === 'apply' && f.object.kind === kind) || (f.kind === 'delete' && f.objectKind === kind))) return true;
  const scales = faults.flatMap((f) => (f.kind === 'scale' && f.objectKind === kind ? [f] : []));
  return scales.some((f) => {
    const start = world?.store.objects[`${kind}/${f.namespace}/${f.name}`]?.spec.replicas;
    const others = scales.flatMap((g) => (g !== f && g.name === f.name ? [g.replicas] : []));
    return [typeof start === 'number' ? start : Infinity, ...others].some((r) => f.replicas < r);
  });
}

/** Whether a move takes pods down on its own (then availability is not the controller's alone). */
const killsPods = (alphabet: readonly Move[]) =>
  faultsOf(alphabet).some((f) => f.kind === 'crashPod' || f.kind === 'deletePod' || f.kind === 'nodeFail');

/** The largest spec.replicas an object of `kind` has at the start or gets from a move. */
function mostReplicas(kind: string, alphabet: readonly Move[], world: KubeWorld | undefined): number {
  const start = Object.values(world?.store.objects ?? {}).flatMap((o) =>
    o.kind === kind && typeof o.spec.replicas === 'number' ? [o.spec.replicas] : [],
  );
  const moved = faultsOf(alphabet).flatMap((f) => (f.kind === 'scale' && f.objectKind === kind ? [f.replicas] : []));
  return Math.max(1, ...start, ...moved);
}

/**
 * The claims for this configuration. K (`withinPeriods`, in watch heartbeats, overrides it) is
 * settleBoundMs: what the moves of the alphabet can still cost once the environment stops, plus
 * what the controller itself needs; each controller's term is explained where it is added.
 */
export function kubernetesProperties(
  config: ControllerConfig,
  alphabet: readonly Move[],
  withinPeriods?: number,
  world?: KubeWorld,
  user?: UserControllerRun,
): Property[] {
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
      if (!lowersReplicas('ReplicaSet', alphabet, world)) out.unshift(noExtraPods);
      if (config.options.expectations !== false) out.push(waitsForExpectations);
      return out;
    }
    case 'deployment': {
      // Deployment: a rollout replaces one pod per step (maxSurge/maxUnavailable of a small set):
      // scale the new ReplicaSet, its pod starts and becomes ready, the ReplicaSet's status and the
      // watch bring that back, the old one is scaled down — per pod of the largest replicas.
      const step =
        params.schedulerDelayMs + params.startMs + params.readyMs + 4 * (params.builtinDelayMs + params.watchDelayMs + params.apiLatencyMs);
      const { withinMs, within } = bound(mostReplicas('Deployment', alphabet, world) * step);
      const out: Property[] = [deploymentConverges(withinMs, within), rollsOut];
      if (!killsPods(alphabet)) out.unshift(minAvailable);
      if (!lowersReplicas('Deployment', alphabet, world)) out.unshift(maxSurge);
      return out;
    }
    case 'hpa': {
      // HPA: a load change is seen at the next sync (15 s); each sync may move the count (up to
      // maxReplicas − minReplicas syncs with the seed rule's one pod a period); a scale-down waits
      // out the stabilisation window (300 s, or the longest behavior window); the pods then start.
      const period = typeof config.options.syncPeriodMs === 'number' ? config.options.syncPeriodMs : HPA_SYNC_PERIOD_MS;
      const hpas = Object.values(world?.store.objects ?? {})
        .filter((o) => o.kind === 'HorizontalPodAutoscaler')
        .map((o) => specOf<HpaSpec>(o));
      const span = Math.max(1, ...hpas.map((h) => h.maxReplicas - h.minReplicas));
      const window = Math.max(300_000, ...hpas.map((h) => (h.behavior?.scaleDown?.stabilizationWindowSeconds ?? 0) * 1000));
      const step =
        params.schedulerDelayMs + params.startMs + params.readyMs + 4 * (params.builtinDelayMs + params.watchDelayMs + params.apiLatencyMs);
      const { withinMs, within } = bound(window + (span + 2) * period + span * step);
      const out: Property[] = [hpaConverges(withinMs, within), scalesToMax];
      if (!faultsOf(alphabet).some((f) => f.kind === 'scale' || f.kind === 'apply')) out.unshift(withinBounds);
      if (Object.keys(world?.startupLoad ?? {}).length > 0) {
        // The highest demand each app can see: its load now and every load move.
        const demand: Record<string, number> = { ...world?.load };
        for (const f of faultsOf(alphabet)) if (f.kind === 'load') demand[f.app] = Math.max(demand[f.app] ?? 0, f.cpuMilli);
        out.unshift(noWarmUpOverscale(demand));
      }
      return out;
    }
    case 'application': {
      // Application: a few writes (finalizer, Deployment + Service, or the cleanup), no pods to wait for.
      const { withinMs, within } = bound(0);
      return [cleanupBeforeFinalizer, applicationConverges(withinMs, within), deletesApplication];
    }
    case 'database': {
      // Database: provisioning, then the primary's and each replica's pod life; a lost primary
      // is promoted away after failoverAfter, noticed by the ready poll.
      const failover = typeof config.options.failoverAfterMs === 'number' ? config.options.failoverAfterMs : DB_FAILOVER_AFTER_MS;
      const life = params.schedulerDelayMs + params.startMs + params.readyMs;
      const { withinMs, within } = bound(
        params.provisionMs + failover + DB_READY_POLL_MS + (mostReplicas('Database', alphabet, world) + 1) * life,
      );
      return [onePrimary, databaseConverges(withinMs, within), failsOver];
    }
    case 'queue-scaler': {
      // QueueScaler: the backlog drains at perWorker messages/s per ready worker (at least one, as
      // the scaler adds them), then the scale-down waits scaleDownDelay; each step is one poll.
      const scalers = Object.values(world?.store.objects ?? {})
        .filter((o) => o.kind === 'QueueScaler')
        .map((o) => specOf<QueueScalerSpec>(o));
      const drain = (world?.queues ?? []).reduce((ms, q) => ms + (q.length / Math.max(q.perWorkerPerSec, 1e-9)) * 1000, 0);
      const delays = Math.max(0, ...scalers.map((q) => (q.scaleDownDelaySeconds + 2 * q.pollingIntervalSeconds) * 1000));
      const life =
        params.schedulerDelayMs + params.startMs + params.readyMs + 4 * (params.builtinDelayMs + params.watchDelayMs + params.apiLatencyMs);
      const { withinMs, within } = bound(drain + delays + Math.max(1, ...scalers.map((q) => q.maxReplicas)) * life);
      const out: Property[] = [queueScalerConverges(withinMs, within), scalesWorkersUp];
      if (!faultsOf(alphabet).some((f) => f.kind === 'scale' || f.kind === 'apply')) out.unshift(workersWithinBounds);
      return out;
    }
    case 'composite': {
      // Composite: delete + create of a Recreate child, then its pod's life.
      const { withinMs, within } = bound(params.terminationGraceMs + params.builtinDelayMs);
      return [onePodPerParent, compositeConverges(withinMs, within), recreatesPod];
    }
    case 'decorator': {
      // Decorator: one update and one create per pod; nothing to wait for.
      const { withinMs, within } = bound(0);
      return [oneAttachment, decoratorConverges(withinMs, within), decorates];
    }
    default: {
      // A user's controller module: pods it creates still have to start, so allow one pod's life.
      if (!isUserController(config.reconciler)) return [];
      const { withinMs, within } = bound(
        params.schedulerDelayMs + params.startMs + params.readyMs + 4 * (params.builtinDelayMs + params.watchDelayMs + params.apiLatencyMs),
      );
      return moduleProperties(userControllerOf(config, user), config, world, withinMs, within);
    }
  }
}

/** What each configuration promises; a property it does not promise is a finding, not a failure. */
export function kubernetesPromises(config: ControllerConfig, user?: UserControllerRun): readonly string[] {
  switch (config.reconciler) {
    // replica_set.go: expectations keep a reconcile from acting on a cache that does not yet show
    // its own writes; without them (options.expectations: false) only the level-triggered
    // convergence and the rest state are promised.
    case 'replicaset':
      return config.options.expectations === false
        ? ['no-surplus-at-rest', 'converges']
        : ['no-extra-pods', 'no-surplus-at-rest', 'converges'];
    // The documented RollingUpdate bounds (maxSurge, maxUnavailable) and the finished rollout.
    case 'deployment':
      return ['max-surge', 'min-available', 'converges'];
    // The autoscaling/v2 algorithm (tolerance, stabilisation window) promises bounds and settling;
    // the talk's seed rule (options.policy: seed) only clamps to the bounds.
    case 'hpa':
      if (config.options.policy === 'seed') return ['within-bounds'];
      // groupPods' CPU initialisation period and readiness delay keep a warm-up before Ready from
      // reading as load; with either flag at 0 that is not promised.
      return hpaOptionsOf(config.options).cpuInitializationPeriodMs > 0 && hpaOptionsOf(config.options).initialReadinessDelayMs > 0
        ? ['within-bounds', 'converges', 'no-warm-up-overscale']
        : ['within-bounds', 'converges'];
    // A finalizer's purpose is to clean up before the object goes (controller-runtime's finalizer
    // pattern); the operator also promises to converge.
    case 'application':
      return ['cleanup-before-finalizer', 'converges'];
    // The seed's "operations knowledge": failover without split brain, then a ready set again.
    case 'database':
      return ['one-primary', 'converges'];
    case 'queue-scaler':
      return ['within-bounds', 'converges'];
    // Metacontroller: children (attachments) follow the hook's answer, never doubled.
    case 'composite':
      return ['one-pod', 'converges'];
    case 'decorator':
      return ['one-attachment', 'converges'];
    default:
      return isUserController(config.reconciler) ? modulePromises(userControllerOf(config, user)) : [];
  }
}

export const kubernetesCheck: LoopCheck<KubeWorld, KubeFault, ControllerConfig, ControllerContext> = {
  loop: 'kubernetes',
  validate: validateKubernetesCheck,
  label: kubernetesLabel,
  applicable: kubernetesApplicable,
  canonicalizer: (start) => {
    const failoverAfterMs =
      typeof start.config.options.failoverAfterMs === 'number' ? start.config.options.failoverAfterMs : DB_FAILOVER_AFTER_MS;
    return (state, out) => kubernetesKey(state, out, failoverAfterMs);
  },
  // Symmetry (sim/check/symmetry.ts): object names are ordered and the order is read, so pods are not interchangeable.
  symmetry: {
    none: 'names are ordered and the order is read (informer lists and resyncs go in key order, a ReplicaSet breaks its last tie by name, deletePod by app takes the first by name); generated names come from the seeded generator, which the key keeps',
  },
  properties: (config, alphabet, withinPeriods, world) => kubernetesProperties(config, alphabet, withinPeriods, world),
  promises: (config) => kubernetesPromises(config),
};

/** The check of a scenario with the user's own controller: the same, with its claims. */
export const kubernetesCheckFor = (user: UserControllerRun): LoopCheck<KubeWorld, KubeFault, ControllerConfig, ControllerContext> => ({
  ...kubernetesCheck,
  properties: (config, alphabet, withinPeriods, world) => kubernetesProperties(config, alphabet, withinPeriods, world, user),
  promises: (config) => kubernetesPromises(config, user),
});
