import type { ControllerConfig } from '../../../machines/kubernetes';
import { EXPECTATIONS_TIMEOUT_MS } from '../../../machines/kubernetes/expectations';
import type { EnvMove } from '../../check/model';
import type { KubeFault, KubeParams } from '../../worlds/kubernetes';

type Move = EnvMove<KubeFault, ControllerConfig>;

const faultsOf = (alphabet: readonly Move[]): KubeFault[] => alphabet.flatMap((m) => ('fault' in m.entry ? [m.entry.fault] : []));

/**
 * K, the time the cluster may take to settle once the environment stops, in virtual ms, for the
 * moves of this alphabet (each term is what one kind of move can still cost after it happened):
 * - one watch heartbeat, as slack: a change is pushed to the watch when its events are due, but
 *   a controller waiting on nothing else looks again only at its heartbeat;
 * - a stale cache (delayWatch): it keeps delaying events for its `for`, each by its `by`;
 * - lost watch events (dropWatch): the relist of the next resync repairs the cache; for the
 *   ReplicaSet controller a lost ADDED/DELETED first leaves its expectations unmet until
 *   ExpectationsTimeout (5 min, controller_utils.go);
 * - crashed pods: CrashLoopBackOff, 10 s doubling per crash of the alphabet (kubelet, ≤ 5 min);
 * - a failed node (the environment may stop before it recovers): node-monitor-grace-period + the not-ready toleration until its
 *   pods are evicted and replaced;
 * - failed writes: the workqueue's per-item backoff (5 ms doubling per failure);
 * - then a pod's life: scheduling, start, readiness, termination grace;
 * - `extraMs`: what the controller itself needs on top (its steps, windows, polls).
 */
export function settleBoundMs(config: ControllerConfig, alphabet: readonly Move[], p: KubeParams, extraMs = 0): number {
  const faults = faultsOf(alphabet);
  let k = p.heartbeatMs;
  for (const f of faults) if (f.kind === 'delayWatch') k += f.forMs + f.extraMs;
  if (faults.some((f) => f.kind === 'dropWatch'))
    k += p.resyncMs + (config.reconciler === 'replicaset' && config.options.expectations !== false ? EXPECTATIONS_TIMEOUT_MS : 0);
  const crashes = faults.filter((f) => f.kind === 'crashPod').length;
  for (let i = 0; i < crashes; i++) k += Math.min(p.crashBackoffMs * 2 ** i, 300_000);
  // The environment may stop before a node's recover move: its pods are then evicted.
  if (faults.some((f) => f.kind === 'nodeFail')) k += p.nodeMonitorGraceMs + p.podEvictionMs;
  const failed = faults.reduce((n, f) => n + (f.kind === 'failWrites' ? f.count : 0), 0);
  k += config.rateLimiter.baseDelayMs * 2 ** (failed + 1);
  return k + p.schedulerDelayMs + p.startMs + p.readyMs + p.terminationGraceMs + extraMs;
}
