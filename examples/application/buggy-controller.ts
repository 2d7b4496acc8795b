// Seed 001's Application operator (github.com/eminetto/k8s-operator-talk,
// controllers/application_controller.go, an Operator SDK / controller-runtime reconciler) as a
// loopscope controller module: an Application (minetto.dev/v1alpha1: image, replicas, port) gets
// the finalizer, then a Deployment "<name>-deployment" and a Service "<name>-service" in the
// namespace named after it; deleting it cleans both up, then removes the finalizer.
// PLANTED BUG (the seed's own): the cleanup deletes the children the cache shows. A Deployment
// created a moment ago may not be in the cache yet; the cleanup misses it, the finalizer goes, and
// the garbage collector deletes what the operator should have (controller-runtime FAQ: "My cache
// might be stale if I read from a cache!"). controller.ts deletes by name instead.
//   loopscope check examples/application/check-buggy.yaml    → cleanup-before-finalizer violated
// Differences from the seed, each said where it is: it goes on after adding the finalizer, the
// children carry a controller reference
// (ctrl.SetControllerReference, so the operator Owns them), and the Deployment is updated only
// when it differs from the spec (the simulated API server, unlike the real one, counts a no-op
// update as a change, whose watch event would bring the next reconcile at once).
import type { Client, KubeObject, Request, Result } from 'loopscope/controller';
import { isNotFound, ownerReference } from 'loopscope/controller';

export const controller = { for: 'Application', owns: ['Deployment', 'Service'] };

const FINALIZER = 'minetto.dev/application_controller_finalizer';

export function reconcile(request: Request, client: Client): Result {
  let app: KubeObject;
  try {
    app = client.get('Application', request);
  } catch (err) {
    if (isNotFound(err)) return {}; // deleted: nothing to do
    throw err;
  }
  const name = app.metadata.name;
  const finalizers = app.metadata.finalizers ?? [];
  if (app.metadata.deletionTimestamp !== undefined) {
    if (!finalizers.includes(FINALIZER)) return {};
    // The cleanup, as the seed does it: what the cache shows.
    for (const kind of ['Deployment', 'Service']) {
      const child = client.list(kind, { namespace: name }).find((o) => o.metadata.name === `${name}-${kind.toLowerCase()}`);
      if (child) client.delete(child);
    }
    client.update({ ...app, metadata: { ...app.metadata, finalizers: finalizers.filter((f) => f !== FINALIZER) } });
    return {};
  }
  if (!finalizers.includes(FINALIZER)) {
    // Add the finalizer and go on, as the Kubebuilder tutorial's operator does. (The seed returns
    // here and waits for the update's own watch event: the idempotence check reports that — a
    // reconcile of the state it has just written would still have work to do.)
    client.update({ ...app, metadata: { ...app.metadata, finalizers: [...finalizers, FINALIZER] } });
  }
  createOrUpdateDeployment(client, app);
  createService(client, app);
  return {};
}

function createOrUpdateDeployment(client: Client, app: KubeObject): void {
  const name = app.metadata.name;
  const image = String(app.spec.image);
  const replicas = Number(app.spec.replicas);
  const port = Number(app.spec.port);
  const labels = { label: name, app: name };
  const container = { name: `${name}-container`, image, cpuMilli: 100, port };
  let deployment: KubeObject;
  try {
    deployment = client.get('Deployment', { namespace: name, name: `${name}-deployment` });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    client.create(
      {
        kind: 'Deployment',
        metadata: {
          namespace: name,
          name: `${name}-deployment`,
          labels,
          annotations: { imageregistry: 'https://hub.docker.com/' },
          ownerReferences: [ownerReference(app)],
        },
        spec: {
          replicas,
          selector: { label: name },
          template: { labels, containers: [container] },
          strategy: { maxSurge: '25%', maxUnavailable: '25%' },
        },
      },
      { ignoreAlreadyExists: true },
    );
    return;
  }
  const template = deployment.spec.template as { labels: Record<string, string>; containers: (typeof container)[] };
  const first = template.containers[0];
  if (deployment.spec.replicas === replicas && first?.image === image && first.port === port) return;
  client.update({
    ...deployment,
    spec: {
      ...deployment.spec,
      replicas,
      template: { ...template, containers: [{ ...container, ...first, image, port }, ...template.containers.slice(1)] },
    },
  });
}

function createService(client: Client, app: KubeObject): void {
  const name = app.metadata.name;
  try {
    client.get('Service', { namespace: name, name: `${name}-service` });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    client.create(
      {
        kind: 'Service',
        metadata: { namespace: name, name: `${name}-service`, labels: { app: name }, ownerReferences: [ownerReference(app)] },
        spec: { type: 'NodePort', selector: { app: name }, port: Number(app.spec.port) },
      },
      { ignoreAlreadyExists: true },
    );
  }
}
