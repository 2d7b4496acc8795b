import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { KObject, Reconciler } from '../../machines/kubernetes';
import type { CompositeSyncRequest, DesiredChild } from '../../machines/kubernetes/metacontroller/hooks';
import type { SyncOutcome } from '../../machines/kubernetes/metacontroller/composite';
import { compositeController } from '../../machines/kubernetes/metacontroller/composite';
import { manifestSchemaFor, toNewObject } from '../loops/kubernetes-manifests';
import type { WebhookControllerConfig } from './hook';
import type { HttpAnswer } from './sync-http';
import { postJsonSync } from './sync-http';

/**
 * A user's Metacontroller CompositeController whose hooks are real webhooks (any language: seed
 * 003's is Python): each sync calls the hook with the JSON request Metacontroller sends and
 * applies the answer the way Metacontroller does (machines/kubernetes/metacontroller/composite.ts).
 * Request and response follow metacontroller.github.io/metacontroller/api/compositecontroller.html
 * (parent, children keyed "<Kind>.<apiVersion>", related, finalizing; status, children,
 * resyncAfterSeconds, finalized). Answers are memoised by the request's hash: a run is
 * deterministic and the explorer can branch without calling the hook twice for one request.
 */

/** The API groups of the kinds the simulated plane knows (the request's keys carry them). */
const API_VERSION: Record<string, string> = {
  Pod: 'v1',
  Service: 'v1',
  ConfigMap: 'v1',
  Namespace: 'v1',
  Ingress: 'networking.k8s.io/v1',
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  PodService: 'pocs.lpsm.dev/v1',
  Application: 'minetto.dev/v1alpha1',
};
export const apiVersionOf = (kind: string) => API_VERSION[kind] ?? 'v1';

/** The simulator keeps a few specs in its own compact shape; a hook sees Kubernetes' shape. */
function apiSpec(o: KObject): Record<string, unknown> {
  const s = o.spec as Record<string, unknown>; // cast: a Pod's spec is a record
  const cpu = (m: unknown) => `${Number(m)}m`;
  if (o.kind === 'Pod') {
    const containers = (s.containers as { name: string; image: string; cpuMilli: number; port?: number }[]) ?? []; // cast: a Pod's containers, as the model stores them
    return {
      ...s,
      containers: containers.map((c) => ({
        name: c.name,
        image: c.image,
        ...(c.port !== undefined ? { ports: [{ containerPort: c.port }] } : {}),
        resources: { requests: { cpu: cpu(c.cpuMilli) } },
      })),
    };
  }
  if (o.kind === 'Service') return { selector: s.selector, ports: [{ port: s.port }] };
  if (o.kind === 'PodService') {
    const { cpu: c, ...rest } = s;
    return { ...rest, resources: { requests: { cpu: cpu(c) } } };
  }
  return s;
}

export function apiObject(o: KObject): Record<string, unknown> {
  const m = o.metadata;
  return {
    apiVersion: apiVersionOf(o.kind),
    kind: o.kind,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: String(m.resourceVersion),
      generation: m.generation,
      labels: m.labels,
      annotations: m.annotations,
      finalizers: m.finalizers,
      ownerReferences: m.ownerReferences.map((r) => ({
        apiVersion: apiVersionOf(r.kind),
        kind: r.kind,
        name: r.name,
        uid: r.uid,
        controller: r.controller,
        blockOwnerDeletion: true,
      })),
      ...(m.deletionTimestamp !== undefined ? { deletionTimestamp: new Date(m.deletionTimestamp).toISOString() } : {}),
    },
    // A ConfigMap keeps its data at the top level (the simulator keeps it in spec.data).
    ...(o.kind === 'ConfigMap' ? { data: (o.spec as { data?: unknown }).data ?? {} } : { spec: apiSpec(o), status: o.status }), // cast: a ConfigMap's spec keeps data
  };
}

export const childSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().min(1),
  metadata: z.looseObject({
    name: z.string().min(1),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
  spec: z.record(z.string(), z.unknown()).optional(),
});
const responseSchema = z.looseObject({
  status: z.record(z.string(), z.unknown()).nullish(),
  children: z.array(childSchema).nullish(),
  resyncAfterSeconds: z.number().min(0).optional(),
  finalized: z.boolean().optional(),
});

/** A desired child back in the simulator's shape (Pods and Services through their manifest schemas). */
function desiredChild(child: z.output<typeof childSchema>, index: number): DesiredChild | string {
  const schema = manifestSchemaFor(child.kind);
  const meta = {
    name: child.metadata.name,
    ...(child.metadata.labels ? { labels: child.metadata.labels } : {}),
    ...(child.metadata.annotations ? { annotations: child.metadata.annotations } : {}),
  };
  if ((child.kind === 'Pod' || child.kind === 'Service') && schema) {
    const parsed = schema.safeParse({ ...child, metadata: meta });
    if (!parsed.success)
      return `children[${index}] (${child.kind} ${child.metadata.name}): ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`;
    const o = toNewObject(child.kind, parsed.data);
    return { kind: child.kind, metadata: meta, spec: o.spec, ...(o.status ? { status: o.status } : {}) };
  }
  if (child.kind === 'ConfigMap') return { kind: child.kind, metadata: meta, spec: { data: child.data ?? {} } };
  return { kind: child.kind, metadata: meta, spec: child.spec ?? {} };
}

/** One line of a body: a traceback's last line names the exception (Python's KeyError: 'host'). */
function short(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** Calls one hook (memoised by the request's hash) and reads its answer. */
function hookCaller(which: 'sync' | 'finalize', url: string, controllerName: string, config: WebhookControllerConfig) {
  const memo = new Map<string, SyncOutcome>();
  return (request: CompositeSyncRequest & { finalizing: boolean }): SyncOutcome => {
    const children: Record<string, Record<string, unknown>> = {};
    for (const kind of config.children) children[`${kind}.${apiVersionOf(kind)}`] = {};
    for (const [kind, byName] of Object.entries(request.children)) {
      for (const [name, o] of Object.entries(byName)) (children[`${kind}.${apiVersionOf(kind)}`] ??= {})[name] = apiObject(o);
    }
    const body = JSON.stringify({
      controller: {
        apiVersion: 'metacontroller.k8s.io/v1alpha1',
        kind: 'CompositeController',
        metadata: { name: controllerName },
        spec: {
          parentResource: { apiVersion: apiVersionOf(config.parent), resource: config.parent },
          childResources: config.children.map((k) => ({ apiVersion: apiVersionOf(k), resource: k })),
        },
      },
      parent: apiObject(request.parent),
      children,
      related: {},
      finalizing: request.finalizing,
    });
    const hash = createHash('sha256').update(body).digest('hex');
    const hit = memo.get(hash);
    if (hit) return hit;
    const answer = postJsonSync(url, body, config.timeoutMs);
    const outcome = readAnswer(which, url, answer);
    memo.set(hash, outcome);
    return outcome;
  };
}

/** A hook's HTTP answer as JSON, or why it is not one (down, slow, not 200, not JSON). */
export function answerJson(which: string, url: string, answer: HttpAnswer): { json: unknown } | { error: string } {
  const fail = (why: string) => ({ error: `panic: ${which} hook ${url} ${why}` });
  if ('error' in answer) return fail(`is unreachable or too slow: ${answer.error}`);
  if (answer.status !== 200) return fail(`answered HTTP ${answer.status}: ${short(answer.body.trim())}`);
  try {
    return { json: JSON.parse(answer.body) as unknown }; // cast: JSON.parse's any, narrowed to unknown
  } catch {
    return fail(`answered something that is not JSON: ${short(answer.body.trim())}`);
  }
}

/** Desired children (attachments) back in the simulator's shape, or the first the API server would refuse. */
export function desiredChildren(children: z.output<typeof childSchema>[]): DesiredChild[] | string {
  const desired: DesiredChild[] = [];
  for (const [i, c] of children.entries()) {
    const d = desiredChild(c, i);
    if (typeof d === 'string') return d;
    desired.push(d);
  }
  return desired;
}

function readAnswer(which: string, url: string, answer: HttpAnswer): SyncOutcome {
  const fail = (why: string): SyncOutcome => ({ error: `panic: ${which} hook ${url} ${why}` });
  const read = answerJson(which, url, answer);
  if ('error' in read) return read;
  const parsed = responseSchema.safeParse(read.json);
  if (!parsed.success)
    return fail(`answered JSON that is not a sync response: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  const desired = desiredChildren(parsed.data.children ?? []);
  if (typeof desired === 'string') return fail(`answered a child the API server would refuse: ${desired}`);
  return {
    status: parsed.data.status ?? {},
    children: desired,
    ...(parsed.data.resyncAfterSeconds ? { resyncAfterMs: parsed.data.resyncAfterSeconds * 1000 } : {}),
    ...(parsed.data.finalized !== undefined ? { finalized: parsed.data.finalized } : {}),
  };
}

/** The webhook controller, under its name. */
export function loadWebhookController(config: WebhookControllerConfig): { name: string; reconciler: Reconciler<unknown> } {
  const name = `webhook:${config.sync}`;
  const controllerName = config.parent.toLowerCase();
  return {
    name,
    reconciler: compositeController(name, {
      parentKind: config.parent,
      childKinds: config.children,
      controllerName,
      sync: hookCaller('sync', config.sync, controllerName, config),
      ...(config.finalize ? { finalize: hookCaller('finalize', config.finalize, controllerName, config) } : {}),
    }),
  };
}
