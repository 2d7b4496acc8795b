// A PodService operator as a loopscope controller module (the CompositeController of seed 003,
// written as a controller-runtime reconcile): each PodService gets one Pod and one Service.
// The Pod has a fixed name, so a create from a stale cache meets AlreadyExists instead of
// doubling it (controller-runtime FAQ: use deterministic names). Level-triggered: every reconcile
// compares the children with the spec and repairs them — the Service's port in place, a Pod of
// the wrong image or port is deleted and created again (a Pod's containers are immutable).
//   loopscope check examples/podservice/check.yaml
//   loopscope check examples/podservice/check-spec-change.yaml (the port changes at any instant)
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
  for (const pod of pods) {
    const c = (pod.spec.containers as { image: string; port?: number }[])[0];
    if (pod.metadata.deletionTimestamp === undefined && (c?.image !== image || c?.port !== port))
      client.delete(pod, { ignoreNotFound: true });
  }
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
  for (const svc of services) {
    if (svc.spec.port !== port) client.update({ ...svc, spec: { ...svc.spec, port } });
  }
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
