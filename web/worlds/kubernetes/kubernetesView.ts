import type { KubeSummary } from '../../../sim/loops/kubernetes-world-schema';

export type KubePod = KubeSummary['pods'][number];

/** Pods grouped under the node they are bound to; unscheduled pods under null. */
export function podsByNode(world: KubeSummary): { node: string | null; ready: boolean | null; cpu: string; pods: KubePod[] }[] {
  const groups: ReturnType<typeof podsByNode> = world.nodes.map((n) => ({
    node: n.name,
    ready: n.ready,
    cpu: n.cpu,
    pods: world.pods.filter((p) => p.node === n.name),
  }));
  const known = new Set(world.nodes.map((n) => n.name));
  const elsewhere = world.pods.filter((p) => !known.has(p.node));
  if (elsewhere.length) groups.push({ node: null, ready: null, cpu: '', pods: elsewhere });
  return groups;
}

/** Desired replicas (every ReplicaSet's spec.replicas) and ready pods, for the chart. */
export function replicaCounts(world: KubeSummary): [number, number] {
  return [world.replicasets.reduce((s, rs) => s + rs.desired, 0), world.pods.filter((p) => p.ready).length];
}
