import type { Plan, Reconciler } from '../reconciler';
import type { ReconcileSummary } from '../reconcile-summary';
import type { DeploymentSpec, KObject, Write } from '../types';
import { specOf, splitKey } from '../types';

/**
 * The seed's operator (seed 001, github.com/eminetto/k8s-operator-talk
 * controllers/application_controller.go), an Operator SDK / controller-runtime reconciler for
 * `Application` (minetto.dev/v1alpha1: image, replicas, port):
 * - no finalizer yet → add it with an Update and return (the next event brings it back);
 * - deletionTimestamp set → clean up, remove the finalizer (the seed only removes the finalizer
 *   and leaves the Deployment and Service to the garbage collector through their
 *   ownerReferences; here the cleanup is explicit, so the finalizer has work to show, and the GC is the net);
 * - otherwise createOrUpdateDeployment ("<name>-deployment" in the namespace named after the
 *   app, Update on every pass) and createService (CreateOrUpdate of "<name>-service");
 * - Result{}: no requeue. It only watches Applications (For, no Owns): a Deployment deleted by
 *   hand comes back only with the next Application event or the informer resync.
 */

export const APPLICATION_FINALIZER = 'minetto.dev/application_controller_finalizer';

export interface ApplicationSpec {
  image: string;
  replicas: number;
  port: number;
}

const find = (objects: KObject[], kind: string, namespace: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);

/** The Deployment the seed builds (labels label=<app>, app=<app>; one container). */
function desiredDeployment(app: KObject): Write {
  const s = specOf<ApplicationSpec>(app);
  const name = app.metadata.name;
  const labels = { label: name, app: name };
  const spec = {
    replicas: s.replicas,
    selector: { label: name },
    template: { labels, containers: [{ name: `${name}-container`, image: s.image, cpuMilli: 100, port: s.port }] },
    strategy: { maxSurge: '25%', maxUnavailable: '25%' },
  } satisfies DeploymentSpec;
  return {
    verb: 'create',
    object: {
      kind: 'Deployment',
      metadata: {
        namespace: name,
        name: `${name}-deployment`,
        labels,
        annotations: { imageregistry: 'https://hub.docker.com/' },
        ownerReferences: [{ kind: 'Application', name, uid: app.metadata.uid, controller: false }],
      },
      spec,
      status: {},
    },
  };
}

function desiredService(app: KObject): Write {
  const s = specOf<ApplicationSpec>(app);
  const name = app.metadata.name;
  return {
    verb: 'create',
    object: {
      kind: 'Service',
      metadata: {
        namespace: name,
        name: `${name}-service`,
        labels: { app: name },
        ownerReferences: [{ kind: 'Application', name, uid: app.metadata.uid, controller: false }],
      },
      spec: { type: 'NodePort', selector: { app: name }, port: s.port },
      status: {},
    },
  };
}

export const applicationReconciler: Reconciler<null> = {
  name: 'application',
  forKind: 'Application',
  // Read through the cached client (informers start on first Get) but no event handlers: no Owns.
  watches: ['Deployment', 'Service'],
  initialMemory: () => null,
  mapEvent: (event, memory) => ({
    requests: event.object.kind === 'Application' ? [`${event.object.metadata.namespace}/${event.object.metadata.name}`] : [],
    memory,
  }),

  reconcile({ request, view }): Plan<null> {
    const { namespace, name } = splitKey(request);
    const app = find(view.objects, 'Application', namespace, name);
    const done = (batches: Write[][], summary: ReconcileSummary): Plan<null> => ({
      batches,
      outcome: { kind: 'ok' },
      memory: null,
      summary,
    });
    if (!app) return done([], { kind: 'applicationGone', request });
    if (!app.metadata.finalizers.includes(APPLICATION_FINALIZER)) {
      return done(
        [
          [
            {
              verb: 'update',
              object: { ...app, metadata: { ...app.metadata, finalizers: [...app.metadata.finalizers, APPLICATION_FINALIZER] } },
            },
          ],
        ],
        { kind: 'applicationAddFinalizer' },
      );
    }
    const deployment = find(view.objects, 'Deployment', name, `${name}-deployment`);
    const service = find(view.objects, 'Service', name, `${name}-service`);
    if (app.metadata.deletionTimestamp !== undefined) {
      const cleanup: Write[] = [];
      if (deployment) cleanup.push({ verb: 'delete', kind: 'Deployment', namespace: name, name: deployment.metadata.name });
      if (service) cleanup.push({ verb: 'delete', kind: 'Service', namespace: name, name: service.metadata.name });
      const removeFinalizer: Write = {
        verb: 'update',
        object: { ...app, metadata: { ...app.metadata, finalizers: app.metadata.finalizers.filter((f) => f !== APPLICATION_FINALIZER) } },
      };
      return done([...(cleanup.length ? [cleanup] : []), [removeFinalizer]], {
        kind: 'applicationDeleting',
        deleting: cleanup.map((w) => (w.verb === 'delete' ? w.name : '')),
      });
    }
    const s = specOf<ApplicationSpec>(app);
    const writes: Write[] = [];
    if (!deployment) writes.push(desiredDeployment(app));
    else {
      // The seed updates unconditionally (replicas, image, port), from the cached copy.
      const d = specOf<DeploymentSpec>(deployment);
      const containers = d.template.containers.map((c, i) => (i === 0 ? { ...c, image: s.image, port: s.port } : c));
      writes.push({
        verb: 'update',
        object: { ...deployment, spec: { ...deployment.spec, replicas: s.replicas, template: { ...d.template, containers } } },
      });
    }
    if (!service) writes.push(desiredService(app));
    return done([writes], {
      kind: 'applicationSync',
      name,
      replicas: s.replicas,
      image: s.image,
      deploymentExists: Boolean(deployment),
      serviceExists: Boolean(service),
    });
  },
};
