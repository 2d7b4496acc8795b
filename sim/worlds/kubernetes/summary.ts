import type { KObject, PodSpec, PodStatus } from '../../../machines/kubernetes';
import { specOf, statusOf } from '../../../machines/kubernetes';
import type { KubeWorld } from './world';
import { objectsOf, podRequestMilli } from './world';
import type { KubeSummary } from '../../loops/kubernetes-world-schema';

/** kubectl's STATUS column: Terminating, Pending, ContainerCreating, Running, NotReady. */
function podState(p: KObject): string {
  const s = statusOf<PodStatus>(p);
  if (p.metadata.deletionTimestamp !== undefined) return 'Terminating';
  if (!specOf<PodSpec>(p).nodeName) return 'Pending';
  if (s.phase === 'Pending') return 'ContainerCreating';
  if (s.phase === 'Running' && !s.ready) return s.restarts > 0 ? 'CrashLoopBackOff' : 'Running (not ready)';
  return s.phase;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

function stateOf(o: KObject): string {
  const fin = o.metadata.finalizers.length ? ` [finalizers: ${o.metadata.finalizers.join(', ')}]` : '';
  return baseState(o) + fin;
}

function baseState(o: KObject): string {
  const st = o.status as Record<string, unknown>; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
  if (o.kind === 'Application') {
    const s = o.spec as { image?: string; replicas?: number; port?: number }; // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
    return `image ${s.image}, replicas ${s.replicas}, port ${s.port}`;
  }
  if (typeof st.summary === 'string') return st.summary;
  if (typeof st.phase === 'string') return st.phase;
  const spec = o.spec as Record<string, unknown>; // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
  if (o.kind === 'ConfigMap')
    return Object.entries((spec.data ?? {}) as Record<string, string>) // cast: unchecked: a ConfigMap's data is string → string (its schema)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
  if (o.kind === 'CronJob') return `schedule "${String(spec.schedule)}"${spec.target ? `, from ${String(spec.target)}` : ''}`;
  if (o.kind === 'Ingress') return `host ${String(spec.host)} → ${String(spec.service)}:${String(spec.port)}`;
  if (o.kind === 'Namespace') return 'Active';
  const selector = (o.spec as { selector?: Record<string, string> } | undefined)?.selector; // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
  if (o.kind === 'Service')
    return `selector ${Object.entries(selector ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(',')}`;
  return `generation ${o.metadata.generation}, observed ${num(st.observedGeneration)}`;
}

export function kubeSummary(world: KubeWorld, _t: number): KubeSummary {
  const byName = (a: KObject, b: KObject) => (a.metadata.name < b.metadata.name ? -1 : 1);
  const pods = [...objectsOf(world, 'Pod')].sort(byName);
  const shown = new Set(['Pod', 'ReplicaSet', 'Deployment', 'Node']);
  return {
    pods: pods.map((p) => {
      const s = statusOf<PodStatus>(p);
      const owner = p.metadata.ownerReferences.find((r) => r.controller);
      return {
        name: p.metadata.name,
        ready: s.ready === true && p.metadata.deletionTimestamp === undefined,
        status: podState(p),
        restarts: s.restarts ?? 0,
        node: specOf<PodSpec>(p).nodeName ?? '<none>',
        owner: owner ? `${owner.kind}/${owner.name}` : '',
      };
    }),
    replicasets: [...objectsOf(world, 'ReplicaSet')].sort(byName).map((rs) => ({
      name: rs.metadata.name,
      desired: num((rs.spec as { replicas?: number }).replicas), // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
      current: num(rs.status.replicas),
      ready: num(rs.status.readyReplicas),
    })),
    deployments: [...objectsOf(world, 'Deployment')].sort(byName).map((d) => ({
      name: d.metadata.name,
      ready: `${num(d.status.readyReplicas)}/${num((d.spec as { replicas?: number }).replicas)}`, // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
      upToDate: num(d.status.updatedReplicas),
      available: num(d.status.availableReplicas),
      generation: d.metadata.generation,
      observedGeneration: num(d.status.observedGeneration),
    })),
    nodes: [...objectsOf(world, 'Node')].sort(byName).map((n) => {
      const onNode = pods.filter((p) => specOf<PodSpec>(p).nodeName === n.metadata.name && p.metadata.deletionTimestamp === undefined);
      return {
        name: n.metadata.name,
        ready: (n.status as { ready?: boolean }).ready === true, // cast: unchecked: a Node's status/spec as the cluster model writes them (sim/worlds/kubernetes/world.ts)
        cpu: `${onNode.reduce((s, p) => s + podRequestMilli(p), 0)}m/${num((n.spec as { cpuMilli?: number }).cpuMilli)}m`, // cast: unchecked: a Node's status/spec as the cluster model writes them (sim/worlds/kubernetes/world.ts)
        pods: onNode.length,
      };
    }),
    resources: Object.values(world.store.objects)
      .filter((o) => !shown.has(o.kind))
      .sort((a, b) => (a.kind + a.metadata.name < b.kind + b.metadata.name ? -1 : 1))
      .map((o) => ({
        kind: o.kind,
        name: o.metadata.name,
        state: stateOf(o),
        ...(o.metadata.deletionTimestamp !== undefined ? { deleting: true } : {}),
      })),
    queues: world.queues.map((q) => ({ name: q.name, length: Math.round(q.length) })),
    events: world.events.slice(-5),
    watch: {
      cached: Object.keys(world.informer?.cache ?? {}).length,
      inFlight: world.agenda.filter((a) => a.kind === 'deliver').length,
      dropped: world.counters.watchDropped,
    },
    apiWrites: world.counters.apiWrites,
    conflicts: world.counters.conflicts,
  };
}
