// The PodService operator (controller.ts) with a PLANTED BUG that breaks level-triggered
// idempotence: every reconcile counts itself in an annotation (a "reconciles" counter, patched
// with client.MergeFrom). Reconciling the same state twice changes it twice — and the patch's own
// watch event brings the next reconcile, so it never settles. `loopscope check` names it:
//   loopscope check examples/podservice/check-counting.yaml → idempotent violated: the shortest trace
import type { Client, KubeObject, Request, Result } from 'loopscope/controller';
import { isNotFound, mergeFrom, ownerReference } from 'loopscope/controller';

export const controller = { for: 'PodService', owns: ['Pod', 'Service'] };

export function reconcile(request: Request, client: Client): Result {
  let ps: KubeObject;
  try {
    ps = client.get('PodService', request);
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
  if (ps.metadata.deletionTimestamp !== undefined) return {};
  const { name, namespace } = ps.metadata;
  const image = String(ps.spec.image);
  const port = Number(ps.spec.port);
  if (client.list('Pod', { namespace, labels: { app: name } }).length === 0) {
    client.create(
      {
        kind: 'Pod',
        metadata: { namespace, name: `${name}-pod`, labels: { app: name }, ownerReferences: [ownerReference(ps)] },
        spec: { containers: [{ name: 'app', image, cpuMilli: Number(ps.spec.cpu ?? 100), port }] },
      },
      { ignoreAlreadyExists: true },
    );
  }
  if (client.list('Service', { namespace, labels: { app: name } }).length === 0) {
    client.create(
      {
        kind: 'Service',
        metadata: { namespace, name: `${name}-svc`, labels: { app: name }, ownerReferences: [ownerReference(ps)] },
        spec: { selector: { app: name }, port },
      },
      { ignoreAlreadyExists: true },
    );
  }
  // PLANTED BUG: a counter is history, not state — the fix is to drop it (or to record something
  // the state determines, such as the observed generation).
  const before: KubeObject = JSON.parse(JSON.stringify(ps));
  const count = Number(ps.metadata.annotations?.['podservice.example.com/reconciles'] ?? 0);
  ps.metadata.annotations = { ...ps.metadata.annotations, 'podservice.example.com/reconciles': String(count + 1) };
  client.patch(ps, mergeFrom(before));
  return {};
}
