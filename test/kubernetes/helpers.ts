import { parseScenarioText, createRunner } from '../../sim/loops/registry';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import type { KObject } from '../../machines/kubernetes';

/** A runner for a kubernetes scenario given as YAML text. */
export function kubeRunner(yaml: string, seed?: number) {
  const { entry, scenario } = parseScenarioText('test.yaml', 'test', yaml, seed);
  return createRunner(entry, scenario);
}

export const objects = (world: unknown, kind: string): KObject[] =>
  Object.values((world as KubeWorld).store.objects).filter((o) => o.kind === kind);

export const activePods = (world: unknown) => objects(world, 'Pod').filter((p) => p.metadata.deletionTimestamp === undefined);

export const replicaSetYaml = (replicas: number) => `
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: { name: web }
    spec:
      replicas: ${replicas}
      selector: { matchLabels: { app: web } }
      template:
        metadata: { labels: { app: web } }
        spec: { containers: [{ name: nginx, image: nginx, resources: { requests: { cpu: 100m } } }] }`;
