// The PodService operator with a PLANTED BUG that only a differential oracle sees: it creates the
// Pod and the Service when they are missing and never looks at them again. A PodService whose port
// changes before the first reconcile gets a Service on the new port; one that changes after keeps
// the old port for good — the same desired state, two different worlds, depending on history.
// (controller.ts compares and repairs its children on every reconcile.)
//   loopscope check examples/podservice/check-create-only.yaml → differential violated: both histories
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
        metadata: { namespace, name: `${name}-pod`, labels: { app: name }, ownerReferences: [ownerReference(ps)] },
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
