import { z } from 'zod';
import type { EventObject } from 'xstate';
import type { ControllerConfig, NewObject } from '../../machines/kubernetes';
import {
  CONTROLLER_RUNTIME_RELEASES,
  DEFAULT_CONTROLLER_CONFIG,
  DEFAULT_RELEASE,
  RECONCILER_NAMES,
  controllerMachine,
  createControllerMachine,
  defaultRateLimiter,
  withUserReconciler,
} from '../../machines/kubernetes';
import type { ReconcilerName } from '../../machines/kubernetes';
import type { LoopBinding } from '../model';
import type { KubeSummary } from './kubernetes-world-schema';
import type { KubernetesController } from './kubernetes-controller';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { headerOf, headerShape } from '../scenario/header';
import type { KubeFault, KubeParams, KubeWorld } from '../worlds/kubernetes';
import { DEFAULT_KUBE_PARAMS, createKubeWorld, kubeWorldModel, kubectlApply, settle } from '../worlds/kubernetes';
import { knownKinds, manifestSchemaFor, parseCpu, toNewObject } from './kubernetes-manifests';
import { kubernetesController } from './kubernetes-controller';
import { parseHpaOptions } from './kubernetes-hpa-options';
import { noteFor } from './kubernetes-notes';
import type { DecoratorWebhookConfig, ScenarioHost, UserController, WebhookControllerConfig } from '../user-controller/hook';
import { MODULE_TIMEOUT_MS, NEEDS_CLI, WEBHOOK_TIMEOUT_MS } from '../user-controller/hook';
import type { DeclaredProperty } from '../user-controller/declared';
import { declaredPropertySchema } from '../user-controller/declared';
import { observeIdempotence } from '../properties/kubernetes/idempotence';

export const kubernetesBinding: LoopBinding<
  KubeWorld,
  KubeFault,
  ControllerConfig,
  KubernetesController,
  typeof controllerMachine,
  KubeSummary
> = {
  loop: 'kubernetes',
  machine: controllerMachine,
  world: kubeWorldModel,
  machineInput: (config) => ({ config }),
  configEvent: (config) => ({ type: 'CONFIG.UPDATE', config }),
  isControllerRestart: (fault) => fault.kind === 'restartController',
  note: (ctx, event: EventObject) => noteFor(ctx, event),
  controller: (ctx) => kubernetesController(ctx),
  // For a user's controller only (the others' worlds stay as they were): what idempotence judges.
  monitor: (world, event, snapshot) => observeIdempotence(world, event, snapshot),
};

/** The binding whose machine runs the user's own controller beside the built-in ones. */
export const kubernetesBindingFor = (
  user: UserController,
): LoopBinding<KubeWorld, KubeFault, ControllerConfig, KubernetesController, typeof controllerMachine, KubeSummary> => ({
  ...kubernetesBinding,
  machine: createControllerMachine(withUserReconciler(user.name, user.reconciler)),
});

const NAMES = RECONCILER_NAMES as [ReconcilerName, ...ReconcilerName[]]; // cast: z.enum wants a non-empty tuple; the registry has eight names
const reconcilerName = z.enum(NAMES, {
  error: `expected one of ${RECONCILER_NAMES.join(', ')}`,
});

const hookUrl = z.string().regex(/^https?:\/\/[^\s]+$/, { error: 'expected an http(s) URL of the hook, e.g. http://127.0.0.1:8080/sync' });
/** A Metacontroller CompositeController whose hooks are the user's webhooks (sim/user-controller/webhook.ts). */
const webhookControllerSchema = z.strictObject({
  metacontroller: z.literal('composite', { error: 'expected composite (CompositeController) or decorator (DecoratorController)' }),
  parent: z.string().min(1),
  children: z.array(z.string().min(1)).min(1),
  sync: hookUrl,
  finalize: hookUrl.optional(),
  timeout: durationField.optional(),
});
/** A Metacontroller DecoratorController whose hooks are the user's webhooks (sim/user-controller/decorator-webhook.ts). */
const decoratorWebhookSchema = z.strictObject({
  metacontroller: z.literal('decorator'),
  resource: z.string().min(1),
  labelSelector: z
    .record(z.string(), z.string())
    .refine((m) => Object.keys(m).length > 0, { error: 'expected at least one label (matchLabels)' }),
  attachments: z.array(z.string().min(1)).min(1),
  sync: hookUrl,
  finalize: hookUrl.optional(),
  timeout: durationField.optional(),
});

const latencySchema = z.strictObject({
  api: durationField.optional(),
  watch: durationField.optional(),
  scheduler: durationField.optional(),
  start: durationField.optional(),
  ready: durationField.optional(),
  terminationGrace: durationField.optional(),
  nodeMonitorGrace: durationField.optional(),
  podEviction: durationField.optional(),
  builtin: durationField.optional(),
  crashBackoff: durationField.optional(),
});

const nodeSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'expected a node name (lowercase letters, digits, dashes)' }),
  cpu: z.union([z.string(), z.number()]),
  maxPods: z.number().int().min(1).optional(),
});

const manifest = z.looseObject({ apiVersion: z.string().optional(), kind: z.string({ error: 'expected a kind' }) });
const ref = z.strictObject({ kind: z.string(), name: z.string(), namespace: z.string().optional() });
/** A pod by name, or the first ready pod (by name) labelled app=<app>: pod names are random. */
const podRef = z
  .strictObject({ name: z.string().optional(), app: z.string().optional(), namespace: z.string().optional() })
  .refine((p) => (p.name === undefined) !== (p.app === undefined), { error: 'expected either name or app' });

const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    apply: manifest.optional(),
    delete: ref.optional(),
    scale: z
      .strictObject({ kind: z.string(), name: z.string(), namespace: z.string().optional(), replicas: z.number().int().min(0) })
      .optional(),
    setImage: z.strictObject({ deployment: z.string(), namespace: z.string().optional(), image: z.string() }).optional(),
    load: z.strictObject({ app: z.string(), cpu: z.union([z.string(), z.number()]) }).optional(),
    queue: z.strictObject({ name: z.string(), arrivalsPerSec: z.number().min(0) }).optional(),
    crashPod: podRef.optional(),
    deletePod: podRef.optional(),
    nodeFail: z.string().optional(),
    nodeRecover: z.string().optional(),
    delayWatch: z.strictObject({ kind: z.string().optional(), by: durationField, for: durationField }).optional(),
    dropWatch: z.strictObject({ kind: z.string().optional(), count: z.number().int().min(1) }).optional(),
    reorderWatch: z.strictObject({ count: z.number().int().min(1), upTo: durationField }).optional(),
    failWrites: z.number().int().min(1).optional(),
    restartController: z
      .union([z.literal(true), z.enum(['write-lands', 'write-lost'])], {
        error: 'expected true (a crash between reconciles), write-lands or write-lost (a crash with a write on the wire)',
      })
      .optional(),
  })
  .refine((e) => Object.keys(e).length === 2, {
    error:
      'expected "at" and exactly one change (apply, delete, scale, setImage, load, queue, crashPod, deletePod, nodeFail, nodeRecover, delayWatch, dropWatch, reorderWatch, failWrites or restartController)',
  });

const queueSchema = z.strictObject({
  name: z.string(),
  length: z.number().min(0).optional(),
  arrivalsPerSec: z.number().min(0),
  perWorkerPerSec: z.number().min(0),
  workerSelector: z.record(z.string(), z.string()),
});

const kubernetesScenarioSchema = z.strictObject({
  ...headerShape('kubernetes'),
  // A built-in controller by name, or the user's own: a module exporting reconcile(request, client).
  controller: z.union(
    [
      reconcilerName,
      z.strictObject({ module: z.string().min(1), timeout: durationField.optional() }),
      webhookControllerSchema,
      decoratorWebhookSchema,
    ],
    {
      error: `expected one of ${RECONCILER_NAMES.join(', ')}, { module: ./my-controller.ts }, { metacontroller: composite, parent, children, sync: http://… } or { metacontroller: decorator, resource, labelSelector, attachments, sync: http://… }`,
    },
  ),
  builtins: z.array(reconcilerName).optional(),
  // Counts a controller module promises, checked beside the built-in claims (sim/user-controller/declared.ts).
  properties: z.array(declaredPropertySchema).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  // The controller-runtime release whose default queue the controller uses: "0.23" (and later: the
  // priority queue, exponential-only limiter) or "0.22" (client-go's workqueue, MaxOf exponential + 10 qps / 100 bucket).
  controllerRuntime: z
    .enum(CONTROLLER_RUNTIME_RELEASES, {
      error: `expected one of ${CONTROLLER_RUNTIME_RELEASES.map((r) => `"${r}"`).join(', ')} (a YAML string)`,
    })
    .optional(),
  rateLimiter: z
    .strictObject({
      baseDelay: durationField.optional(),
      maxDelay: durationField.optional(),
      qps: z.number().positive().optional(),
      burst: z.number().int().min(1).optional(),
    })
    .optional(),
  cluster: z
    .strictObject({
      nodes: z.array(nodeSchema).min(1, { error: 'expected at least one node' }).optional(),
      latency: latencySchema.optional(),
      resync: durationField.optional(),
      heartbeat: durationField.optional(),
    })
    .optional(),
  load: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  // A pod's extra CPU for its first seconds (a warm-up): { <app>: { cpu: 800m, for: 90s } }.
  startupLoad: z.record(z.string(), z.strictObject({ cpu: z.union([z.string(), z.number()]), for: durationField })).optional(),
  queues: z.array(queueSchema).optional(),
  objects: z.array(manifest).optional(),
  timeline: z.array(timelineEntrySchema).optional(),
});

export interface KubernetesScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: ControllerConfig;
  world: KubeWorld;
  timeline: TimelineEntry<KubeFault, ControllerConfig>[];
}

function cpu(file: string, field: string, v: string | number): number {
  const c = parseCpu(v);
  if (c === null) throw new InputError(file, field, `expected a CPU quantity like "500m" or "2", got ${JSON.stringify(v)}`);
  return c;
}

/** Validates one manifest against its kind's schema; errors name the field inside it. */
function parseManifest(file: string, field: string, doc: { kind: string }): NewObject {
  const schema = manifestSchemaFor(doc.kind);
  if (!schema) throw new InputError(file, `${field}.kind`, `expected one of ${knownKinds().join(', ')}, got ${JSON.stringify(doc.kind)}`);
  const parsed = schema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, field, parsed.error));
  return toNewObject(doc.kind, parsed.data);
}

const pick = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>; // cast: Object.fromEntries says Record<string, unknown>; the entries are o's own, some dropped

export function parseKubernetesScenario(
  file: string,
  name: string,
  doc: unknown,
  seedOverride?: number,
  host?: ScenarioHost,
): KubernetesScenario {
  const parsed = kubernetesScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const header = headerOf(file, name, s, seedOverride, 10 * 60_000);
  const { seed } = header;
  const lat = s.cluster?.latency ?? {};
  const params: KubeParams = {
    ...DEFAULT_KUBE_PARAMS,
    ...pick({
      apiLatencyMs: lat.api,
      watchDelayMs: lat.watch,
      schedulerDelayMs: lat.scheduler,
      startMs: lat.start,
      readyMs: lat.ready,
      terminationGraceMs: lat.terminationGrace,
      nodeMonitorGraceMs: lat.nodeMonitorGrace,
      podEvictionMs: lat.podEviction,
      builtinDelayMs: lat.builtin,
      crashBackoffMs: lat.crashBackoff,
      resyncMs: s.cluster?.resync,
      heartbeatMs: s.cluster?.heartbeat,
    }),
  };
  if (params.heartbeatMs < 1) throw new InputError(file, 'cluster.heartbeat', 'expected a duration > 0');
  if (params.resyncMs < 0) throw new InputError(file, 'cluster.resync', 'expected a duration ≥ 0 (0: never, as client-go)');
  const builtins = s.builtins ?? [];
  if (s.properties && typeof s.controller === 'string')
    throw new InputError(file, 'properties', 'expected declared properties only with a controller module (controller: { module })');
  const focal = typeof s.controller === 'string' ? s.controller : loadUserController(file, s.controller, s.properties ?? [], host);
  if (typeof s.controller === 'string' && builtins.includes(s.controller))
    throw new InputError(file, 'builtins', `expected the built-in controllers not to include the focal controller "${s.controller}"`);

  const timeline: TimelineEntry<KubeFault, ControllerConfig>[] = (s.timeline ?? []).map((e, i) => ({
    at: e.at,
    fault: timelineFault(file, `timeline[${i}]`, e),
  }));
  let world = createKubeWorld(
    seed,
    params,
    builtins,
    timeline.map((e) => e.at),
  );
  const nodes = s.cluster?.nodes ?? [
    { name: 'node-1', cpu: '4' },
    { name: 'node-2', cpu: '4' },
  ];
  nodes.forEach((n, i) => {
    world = kubectlApply(
      world,
      {
        kind: 'Node',
        metadata: { namespace: '', name: n.name },
        spec: { cpuMilli: cpu(file, `cluster.nodes[${i}].cpu`, n.cpu), maxPods: n.maxPods ?? 110 },
        status: { ready: true },
      },
      0,
    ).world;
  });
  for (const [app, v] of Object.entries(s.load ?? {})) world = { ...world, load: { ...world.load, [app]: cpu(file, `load.${app}`, v) } };
  for (const [app, v] of Object.entries(s.startupLoad ?? {}))
    world = {
      ...world,
      startupLoad: { ...world.startupLoad, [app]: { cpuMilli: cpu(file, `startupLoad.${app}.cpu`, v.cpu), forMs: v.for } },
    };
  world = {
    ...world,
    queues: (s.queues ?? []).map((q) => ({
      name: q.name,
      length: q.length ?? 0,
      arrivalsPerSec: q.arrivalsPerSec,
      perWorkerPerSec: q.perWorkerPerSec,
      workerSelector: q.workerSelector,
      at: 0,
    })),
  };
  (s.objects ?? []).forEach((m, i) => {
    const r = kubectlApply(world, parseManifest(file, `objects[${i}]`, m), 0);
    if (r.error) throw new InputError(file, `objects[${i}]`, `expected an object the API server accepts: ${r.error}`);
    world = r.world;
  });
  world = settle(world, 0);
  const nodeNames = new Set(nodes.map((n) => n.name));
  timeline.forEach((e, i) => {
    const f = 'fault' in e ? e.fault : undefined;
    if (f && (f.kind === 'nodeFail' || f.kind === 'nodeRecover') && !nodeNames.has(f.node)) {
      throw new InputError(
        file,
        `timeline[${i}].${f.kind}`,
        `expected a node of the cluster (${[...nodeNames].join(', ')}), got "${f.node}"`,
      );
    }
  });

  const rl = s.rateLimiter ?? {};
  const base = defaultRateLimiter(s.controllerRuntime ?? DEFAULT_RELEASE);
  // A qps or burst adds (or tunes) the overall bucket, as a custom RateLimiter = MaxOf(exponential, bucket) would.
  const bucket =
    rl.qps !== undefined || rl.burst !== undefined
      ? { qps: rl.qps ?? base.bucket?.qps ?? 10, burst: rl.burst ?? base.bucket?.burst ?? 100 }
      : base.bucket;
  const config: ControllerConfig = {
    ...DEFAULT_CONTROLLER_CONFIG,
    reconciler: focal,
    options: s.controller === 'hpa' ? parseHpaOptions(file, s.options ?? {}) : (s.options ?? {}),
    rateLimiter: { ...base, ...pick({ baseDelayMs: rl.baseDelay, maxDelayMs: rl.maxDelay }), bucket },
  };
  return { ...header, config, world, timeline };
}

type Entry = z.output<typeof timelineEntrySchema>;

type UserControllerField = Exclude<z.output<typeof kubernetesScenarioSchema>['controller'], string>;

/** The scenario's own controller (a module or a webhook), loaded with the host's loaders and handed
 * back through `host.loaded`; its name is what the machine's config carries. */
function loadUserController(file: string, c: UserControllerField, declared: DeclaredProperty[], host: ScenarioHost | undefined): string {
  const loaders = host?.loaders;
  if (!host || !loaders)
    throw new InputError(
      file,
      'module' in c ? 'controller.module' : 'controller.sync',
      'module' in c ? NEEDS_CLI.module : NEEDS_CLI.webhook,
    );
  const loaded = 'module' in c ? loaders.module(file, c.module, c.timeout ?? MODULE_TIMEOUT_MS) : loaders.webhook(webhookConfig(c));
  host.loaded.controller = { ...loaded, declared };
  return loaded.name;
}

function webhookConfig(c: Exclude<UserControllerField, { module: string }>): WebhookControllerConfig | DecoratorWebhookConfig {
  const timeoutMs = c.timeout ?? WEBHOOK_TIMEOUT_MS;
  return c.metacontroller === 'composite'
    ? { metacontroller: 'composite', parent: c.parent, children: c.children, sync: c.sync, finalize: c.finalize, timeoutMs }
    : {
        metacontroller: 'decorator',
        resource: c.resource,
        labelSelector: c.labelSelector,
        attachments: c.attachments,
        sync: c.sync,
        finalize: c.finalize,
        timeoutMs,
      };
}

function timelineFault(file: string, field: string, e: Entry): KubeFault {
  const ns = (n?: string) => n ?? 'default';
  if (e.apply) return { kind: 'apply', object: parseManifest(file, `${field}.apply`, e.apply) };
  if (e.delete)
    return {
      kind: 'delete',
      objectKind: e.delete.kind,
      namespace: e.delete.kind === 'Node' || e.delete.kind === 'Namespace' ? '' : ns(e.delete.namespace),
      name: e.delete.name,
    };
  if (e.scale)
    return { kind: 'scale', objectKind: e.scale.kind, namespace: ns(e.scale.namespace), name: e.scale.name, replicas: e.scale.replicas };
  if (e.setImage) return { kind: 'setImage', namespace: ns(e.setImage.namespace), name: e.setImage.deployment, image: e.setImage.image };
  if (e.load) return { kind: 'load', app: e.load.app, cpuMilli: cpu(file, `${field}.load.cpu`, e.load.cpu) };
  if (e.queue) return { kind: 'queue', queue: e.queue.name, arrivalsPerSec: e.queue.arrivalsPerSec };
  if (e.crashPod)
    return {
      kind: 'crashPod',
      namespace: ns(e.crashPod.namespace),
      pod: e.crashPod.name ? { name: e.crashPod.name } : { app: e.crashPod.app! },
    };
  if (e.deletePod)
    return {
      kind: 'deletePod',
      namespace: ns(e.deletePod.namespace),
      pod: e.deletePod.name ? { name: e.deletePod.name } : { app: e.deletePod.app! },
    };
  if (e.nodeFail !== undefined) return { kind: 'nodeFail', node: e.nodeFail };
  if (e.nodeRecover !== undefined) return { kind: 'nodeRecover', node: e.nodeRecover };
  if (e.delayWatch) return { kind: 'delayWatch', objectKind: e.delayWatch.kind ?? null, extraMs: e.delayWatch.by, forMs: e.delayWatch.for };
  if (e.dropWatch) return { kind: 'dropWatch', objectKind: e.dropWatch.kind ?? null, count: e.dropWatch.count };
  if (e.reorderWatch) return { kind: 'reorderWatch', count: e.reorderWatch.count, maxMs: e.reorderWatch.upTo };
  if (e.failWrites !== undefined) return { kind: 'failWrites', count: e.failWrites };
  return e.restartController === 'write-lands'
    ? { kind: 'restartController', write: 'lands' }
    : e.restartController === 'write-lost'
      ? { kind: 'restartController', write: 'lost' }
      : { kind: 'restartController' };
}
