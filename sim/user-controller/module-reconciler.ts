import { relative, resolve, dirname } from 'node:path';
import { z } from 'zod';
import type { KObject, NewObject, Plan, ReconcileOutcome, Reconciler, Write } from '../../machines/kubernetes';
import { enqueueForAndOwner, patchProblem, splitKey } from '../../machines/kubernetes';
import { InputError } from '../scenario/errors';
import type { UserCodeLoaders } from './hook';
import { loadWebhookController } from './webhook';
import { loadDecoratorWebhook } from './decorator-webhook';
import type { SandboxOutcome } from './sandbox';
import { loadControllerSandbox } from './sandbox';

/** A module's `controller` export: ctrl.NewControllerManagedBy(mgr).For(kind).Owns(kinds…). */
const specSchema = z.strictObject({
  for: z.string().min(1),
  owns: z.array(z.string().min(1)).optional(),
});
export type ModuleControllerSpec = z.output<typeof specSchema>;

const labels = z.record(z.string(), z.string());
const ownerRefs = z.array(z.strictObject({ kind: z.string(), name: z.string(), uid: z.string(), controller: z.boolean() }));
const newMeta = z.looseObject({
  namespace: z.string(),
  name: z.string().optional(),
  generateName: z.string().optional(),
  labels: labels.optional(),
  annotations: labels.optional(),
  ownerReferences: ownerRefs.optional(),
  finalizers: z.array(z.string()).optional(),
});
/** An object as read from the client: an Update needs its uid and resourceVersion (optimistic concurrency). */
const readMeta = newMeta.extend({
  name: z.string(),
  uid: z.string({ error: 'expected the object as read (metadata.uid)' }),
  resourceVersion: z.number({ error: 'expected the object as read (metadata.resourceVersion): an unconditional update is not modelled' }),
});
const body = {
  kind: z.string().min(1),
  spec: z.record(z.string(), z.unknown()).optional(),
  status: z.record(z.string(), z.unknown()).optional(),
};
const writeSchema = z.discriminatedUnion('verb', [
  z.looseObject({
    verb: z.literal('create'),
    object: z.looseObject({ ...body, metadata: newMeta }),
    tolerate: z.array(z.string()).optional(),
  }),
  z.looseObject({ verb: z.enum(['update', 'updateStatus']), object: z.looseObject({ ...body, metadata: readMeta }) }),
  z.looseObject({
    verb: z.literal('delete'),
    kind: z.string(),
    namespace: z.string(),
    name: z.string(),
    tolerate: z.array(z.string()).optional(),
  }),
]);
const patchSchema = z.looseObject({
  verb: z.enum(['patch', 'patchStatus']),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  patch: z.record(z.string(), z.unknown()),
});
const resultSchema = z.looseObject({ requeue: z.boolean().optional(), requeueAfter: z.number().min(0).optional() });

/** The recorded writes in the simulator's shape, or the reason they are not valid writes. */
function toWrites(recorded: unknown[], cache: KObject[]): Write[] | string {
  const out: Write[] = [];
  for (const [i, raw] of recorded.entries()) {
    const asPatch = patchSchema.safeParse(raw);
    if (asPatch.success) {
      const p = asPatch.data;
      const status = p.verb === 'patchStatus';
      const problem = patchProblem(p.patch, status);
      if (problem) return `write #${i + 1} (${status ? 'status().patch' : 'patch'} ${p.kind} ${p.name}) ${problem}`;
      out.push({ verb: 'patch', kind: p.kind, namespace: p.namespace, name: p.name, patch: p.patch, ...(status ? { status: true } : {}) });
      continue;
    }
    const parsed = writeSchema.safeParse(raw);
    if (!parsed.success)
      return `write #${i + 1} is not valid: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`;
    const w = parsed.data;
    if (w.verb === 'delete') {
      out.push({ verb: 'delete', kind: w.kind, namespace: w.namespace, name: w.name, ...(w.tolerate ? { tolerate: w.tolerate } : {}) });
      continue;
    }
    const m = w.object.metadata;
    const common = {
      labels: m.labels ?? {},
      annotations: m.annotations ?? {},
      ownerReferences: m.ownerReferences ?? [],
      finalizers: m.finalizers ?? [],
    };
    if (w.verb === 'create') {
      const object: NewObject = {
        kind: w.object.kind,
        metadata: {
          namespace: m.namespace,
          ...common,
          ...(m.name ? { name: m.name } : {}),
          ...(m.generateName ? { generateName: m.generateName } : {}),
        },
        spec: w.object.spec ?? {},
        ...(w.object.status ? { status: w.object.status } : {}),
      };
      out.push({ verb: 'create', object, ...(w.tolerate ? { tolerate: w.tolerate } : {}) });
      continue;
    }
    // The fields the server owns come from the cached copy; the module's say only what a PUT may change.
    const read = w.object.metadata as z.output<typeof readMeta>; // cast: the write was parsed with readMeta above
    const cached = cache.find((o) => o.metadata.uid === read.uid);
    const base = cached?.metadata ?? {
      namespace: read.namespace,
      name: read.name,
      uid: read.uid,
      resourceVersion: read.resourceVersion,
      generation: 1,
      creationTimestamp: 0,
      labels: {},
      annotations: {},
      ownerReferences: [],
      finalizers: [],
    };
    const object: KObject = {
      kind: w.object.kind,
      metadata: { ...base, ...common, namespace: read.namespace, name: read.name, resourceVersion: read.resourceVersion },
      spec: w.object.spec ?? cached?.spec ?? {},
      status: w.object.status ?? cached?.status ?? {},
    };
    out.push({ verb: w.verb, object });
  }
  return out;
}

function outcomeOf(o: SandboxOutcome): ReconcileOutcome {
  if (o.kind === 'ok') {
    const r = resultSchema.safeParse(o.result);
    if (!r.success)
      return { kind: 'error', message: 'panic: reconcile returned something that is not a Result ({ requeue?, requeueAfter? })' };
    return {
      kind: 'ok',
      ...(r.data.requeue ? { requeue: true } : {}),
      ...(r.data.requeueAfter ? { requeueAfterMs: r.data.requeueAfter } : {}),
    };
  }
  if (o.kind === 'panic') return { kind: 'error', message: `panic: ${o.message}` };
  return { kind: o.kind, message: o.message };
}

const describeWrite = (w: Write) =>
  w.verb === 'delete'
    ? `delete ${w.kind} ${w.name}`
    : w.verb === 'create'
      ? `create ${w.object.kind} ${w.object.metadata.name ?? `${w.object.metadata.generateName ?? ''}…`}`
      : w.verb === 'update' || w.verb === 'updateStatus'
        ? `${w.verb} ${w.object.kind} ${w.object.metadata.name}`
        : w.verb === 'patch'
          ? `patch${w.status ? 'Status' : ''} ${w.kind} ${w.name}`
          : w.verb;

/** The module as a Reconciler: the same machine, workqueue and backoff as the built-in controllers. */
function moduleReconciler(
  name: string,
  spec: ModuleControllerSpec,
  reconcile: (request: { namespace: string; name: string }, objects: KObject[]) => SandboxOutcome,
): Reconciler<null> {
  const owns = spec.owns ?? [];
  return {
    name,
    forKind: spec.for,
    watches: owns,
    initialMemory: () => null,
    // handler.EnqueueRequestForObject for `for`, EnqueueRequestForOwner(OnlyControllerOwner) for `owns`.
    mapEvent: (event, memory) => ({
      requests: event.object.kind === spec.for || owns.includes(event.object.kind) ? enqueueForAndOwner(spec.for, event) : [],
      memory,
    }),
    reconcile({ request, view }): Plan<null> {
      const out = reconcile(splitKey(request), view.objects);
      const writes = toWrites(out.writes, view.objects);
      if (typeof writes === 'string')
        return { batches: [], outcome: { kind: 'error', message: `panic: ${writes}` }, memory: null, summary: writes };
      const outcome = outcomeOf(out);
      // A client call returns before the next one is made: one write per batch, in order; the first
      // that fails ends the reconcile with its error (as `if err != nil { return …, err }`).
      const summary = [
        writes.length ? writes.map(describeWrite).join(', ') : 'no writes',
        outcome.kind === 'ok' ? '' : `${outcome.kind}: ${outcome.message}`,
        ...out.logs,
      ]
        .filter(Boolean)
        .join('; ');
      return { batches: writes.map((w) => [w]), outcome, memory: null, summary };
    },
  };
}

/** Loads `controller: { module }` of a scenario: its reconciler, under its name. */
function loadModuleControllerFile(
  scenarioFile: string,
  modulePath: string,
  timeoutMs: number,
): { name: string; reconciler: Reconciler<unknown> } {
  const field = 'controller.module';
  const file = resolve(dirname(scenarioFile), modulePath);
  const sandbox = loadControllerSandbox(file, scenarioFile, field, timeoutMs);
  const spec = specSchema.safeParse(sandbox.spec);
  if (!spec.success)
    throw new InputError(
      scenarioFile,
      field,
      `expected the module to export controller = { for: "<Kind>", owns?: ["<Kind>", …] }, got ${JSON.stringify(sandbox.spec)}`,
    );
  const name = `module:${relative(process.cwd(), file) || file}`;
  return { name, reconciler: moduleReconciler(name, spec.data, (req, objects) => sandbox.reconcile(req, objects)) };
}

/** The Node side's controller loaders (sim/user-controller/node-loaders.ts). */
export const NODE_CONTROLLER_LOADERS: Pick<UserCodeLoaders, 'module' | 'webhook'> = {
  module: loadModuleControllerFile,
  webhook: (config) => (config.metacontroller === 'decorator' ? loadDecoratorWebhook(config) : loadWebhookController(config)),
};
