// A PodService operator as a loopscope controller module (the CompositeController of seed 003,
// written as a controller-runtime reconcile): each PodService gets one Pod and one Service.
// PLANTED BUG: the Pod gets a generated name (generateName), so a reconcile that runs while the
// Pod cache is stale creates a second Pod. `loopscope check` finds the shortest trace.
//   loopscope check examples/podservice/check-buggy.yaml
import type { Client, KubeObject, Request, Result } from 'loopscope/controller';
import { isNotFound, ownerReference } from 'loopscope/controller';

export const controller = { for: 'PodService', owns: ['Pod', 'Service'] };

export function reconcile(request: Request, client: Client): Result {
  let ps: KubeObject;
  try {
    ps = client.get('PodService', request);
  } catch (err) {
    if (isNotFound(err)) return {}; // deleted: the garbage collector removes the children
    throw err;
  }
  if (ps.metadata.deletionTimestamp !== undefined) return {};
  const { name, namespace } = ps.metadata;
  const image = String(ps.spec.image);
  const port = Number(ps.spec.port);
  const pods = client.list('Pod', { namespace, labels: { app: name } });
  if (pods.length === 0) {
    client.create(
      {
        kind: 'Pod',
        metadata: { namespace, generateName: `${name}-`, labels: { app: name }, ownerReferences: [ownerReference(ps)] },
        spec: { containers: [{ name: 'app', image, cpuMilli: Number(ps.spec.cpu ?? 100), port }] },
      },
      { ignoreAlreadyExists: true },
    );
  }
  const services = client.list('Service', { namespace, labels: { app: name } });
  if (services.length === 0) {
    client.create(
      {
        kind: 'Service',
        metadata: { namespace, name: `${name}-svc`, labels: { app: name }, ownerReferences: [ownerReference(ps)] },
        spec: { selector: { app: name }, port },
      },
      { ignoreAlreadyExists: true },
    );
  }
  return {};
}
