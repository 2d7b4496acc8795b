import type { ControllerConfig, ControllerContext, ReplicaSetSpec } from '../../../machines/kubernetes';
import { specOf } from '../../../machines/kubernetes';
import type { LoadedScenario } from '../../scenario/loaded-scenario';
import type { TimelineEntry } from '../../runner';
import { InputError } from '../../scenario/errors';
import type { KubeFault, KubeWorld, PodSelector } from '../../worlds/kubernetes';
import { findPod, store as st, writeOnTheWire } from '../../worlds/kubernetes';
import { worldAt } from './view';
import type { CheckState } from '../../check/model';

type Entry = TimelineEntry<KubeFault, ControllerConfig>;

/** At most this many environment moves: each may happen at any instant, so the space grows fast. */
const MAX_MOVES = 8;
const MAX_NODES = 3;

const pod = (sel: PodSelector) => ('name' in sel ? sel.name : `app=${sel.app}`);
const secs = (ms: number) => `${ms / 1000}s`;

/** The environment's moves in words; equal labels are interchangeable. */
export function kubernetesLabel(entry: Entry): string {
  if ('config' in entry) return `config ${JSON.stringify(entry.config)}`;
  const f = entry.fault;
  switch (f.kind) {
    case 'apply':
      return `kubectl apply ${f.object.kind.toLowerCase()}/${f.object.metadata.name ?? ''} ${JSON.stringify(f.object.spec)}`;
    case 'delete':
      return `kubectl delete ${f.objectKind.toLowerCase()}/${f.name}`;
    case 'scale':
      return `kubectl scale ${f.objectKind.toLowerCase()}/${f.name} --replicas=${f.replicas}`;
    case 'setImage':
      return `kubectl set image deployment/${f.name} ${f.image}`;
    case 'load':
      return `load app=${f.app} ${f.cpuMilli}m`;
    case 'queue':
      return `queue ${f.queue} ${f.arrivalsPerSec}/s`;
    case 'crashPod':
      return `crash pod ${pod(f.pod)}`;
    case 'deletePod':
      return `delete pod ${pod(f.pod)}`;
    case 'nodeFail':
      return `node ${f.node} fails`;
    case 'nodeRecover':
      return `node ${f.node} recovers`;
    case 'delayWatch':
      return `stale cache: ${f.objectKind ?? 'every'} watch +${secs(f.extraMs)} for ${secs(f.forMs)}`;
    case 'dropWatch':
      return `lost watch event${f.count > 1 ? 's' : ''}: next ${f.count} of ${f.objectKind ?? 'any kind'}`;
    case 'reorderWatch':
      return `reordered watch: next ${f.count} events (≤ ${secs(f.maxMs)})`;
    case 'failWrites':
      return `fail next ${f.count} API write${f.count > 1 ? 's' : ''}`;
    case 'restartController':
      return f.write === undefined
        ? "controller crash (after a reconcile's writes)"
        : `controller crash mid-write (the write ${f.write === 'lands' ? 'lands' : 'is lost'})`;
  }
}

const nodeReady = (world: KubeWorld, node: string) =>
  (world.store.objects[st.storeKey('Node', '', node)]?.status as { ready?: boolean } | undefined)?.ready === true; // cast: unchecked: the status the model's Nodes carry

/**
 * Whether a move can change anything now (a no-op move would only duplicate states). A controller
 * crash happens right after a reconcile's writes were answered (Sieve's intermediate-state
 * perturbation, OSDI '22): the workqueue, expectations and cache die with the process, the writes
 * stay. A crash mid-write (`write-lands` / `write-lost` in a scenario) happens while a write is on
 * the wire: the API server applies it after the crash — possibly after the restarted controller's
 * relist — or never gets it; the two are separate moves, so the search takes both.
 */
export function kubernetesApplicable(state: CheckState<KubeWorld, ControllerConfig, ControllerContext>, entry: Entry): boolean {
  if ('config' in entry) return true;
  const f = entry.fault;
  const world = worldAt(state);
  switch (f.kind) {
    case 'restartController': {
      if (f.write !== undefined) return writeOnTheWire(world);
      const ctx = state.snapshot.context;
      return (
        (state.snapshot.matches('result') || state.snapshot.matches('failed')) &&
        ctx.writes.length > 0 &&
        !world.ops.some((op) => op.kind === 'write')
      );
    }
    case 'crashPod':
    case 'deletePod': {
      const p = findPod(world, f.namespace, f.pod);
      return p !== undefined && p.metadata.deletionTimestamp === undefined;
    }
    case 'nodeFail':
      return nodeReady(world, f.node);
    case 'nodeRecover':
      return !nodeReady(world, f.node);
    case 'delete': {
      const o = world.store.objects[st.storeKey(f.objectKind, f.namespace, f.name)];
      return o !== undefined && o.metadata.deletionTimestamp === undefined;
    }
    case 'scale': {
      const o = world.store.objects[st.storeKey(f.objectKind, f.namespace, f.name)];
      return o !== undefined && (o.spec as { replicas?: number }).replicas !== f.replicas; // cast: unchecked: the spec field the model's scalable objects carry
    }
    case 'load':
      return (world.load[f.app] ?? 0) !== f.cpuMilli;
    case 'queue':
      return world.queues.some((q) => q.name === f.queue && q.arrivalsPerSec !== f.arrivalsPerSec);
    default:
      return true;
  }
}

/** Rejects what the explorer cannot treat exhaustively (or what its canonical key does not model). */
export function validateKubernetesCheck(scenario: LoadedScenario<KubeWorld, KubeFault, ControllerConfig>): void {
  const { file, world, timeline } = scenario;
  if (timeline.length > MAX_MOVES) {
    throw new InputError(
      file,
      'timeline',
      `expected at most ${MAX_MOVES} entries for check (each is a move the environment may make at any instant), got ${timeline.length}`,
    );
  }
  const nodes = Object.values(world.store.objects).filter((o) => o.kind === 'Node').length;
  if (nodes > MAX_NODES) throw new InputError(file, 'cluster.nodes', `expected at most ${MAX_NODES} nodes for check, got ${nodes}`);
  const replicaSets = Object.values(world.store.objects).filter((o) => o.kind === 'ReplicaSet');
  replicaSets.forEach((rs) => {
    if (specOf<ReplicaSetSpec>(rs).minReadySeconds) {
      throw new InputError(
        file,
        `objects.ReplicaSet/${rs.metadata.name}.spec.minReadySeconds`,
        'expected no minReadySeconds for check: the canonical key keeps readiness times as an order only',
      );
    }
  });
  world.queues.forEach((q, i) => {
    if (q.arrivalsPerSec > 0)
      throw new InputError(
        file,
        `queues[${i}].arrivalsPerSec`,
        'expected 0 for check: a steady inflow keeps the queue length a real number that never repeats (give it a backlog: length)',
      );
  });
  timeline.forEach((e, i) => {
    if ('fault' in e && e.fault.kind === 'queue' && e.fault.arrivalsPerSec > 0) {
      throw new InputError(
        file,
        `timeline[${i}].queue.arrivalsPerSec`,
        'expected 0 for check: a steady inflow keeps the queue length a real number that never repeats',
      );
    }
    if ('config' in e)
      throw new InputError(file, `timeline[${i}]`, 'expected no config changes for check: the properties compare against one config');
    if (e.fault.kind === 'reorderWatch')
      throw new InputError(
        file,
        `timeline[${i}].reorderWatch`,
        'expected no reorderWatch for check: its random delays are one draw of the seed, not every order (use delayWatch)',
      );
    if (e.fault.kind === 'dropWatch' && world.params.resyncMs === 0) {
      throw new InputError(
        file,
        'cluster.resync',
        'expected a resync period with dropWatch: only a relist repairs a lost event (resync 0 never relists)',
      );
    }
  });
}
