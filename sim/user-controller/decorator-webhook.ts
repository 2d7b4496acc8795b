import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Reconciler } from '../../machines/kubernetes';
import type { DecoratorOutcome, DecoratorSyncRequest } from '../../machines/kubernetes/metacontroller/decorator';
import { decoratorController } from '../../machines/kubernetes/metacontroller/decorator';
import type { DecoratorWebhookConfig } from './hook';
import { postJsonSync } from './sync-http';
import { answerJson, apiObject, apiVersionOf, childSchema, desiredChildren } from './webhook';

/**
 * A user's Metacontroller DecoratorController whose hooks are real webhooks. Request and response
 * follow metacontroller.github.io/metacontroller/api/decoratorcontroller.html ("Sync Hook
 * Request/Response", "Finalize Hook"): the request carries `controller`, `object` (the target),
 * `attachments` keyed "<Kind>.<apiVersion>" then by name (an entry for every attachment rule, even
 * when empty), `related` (empty: no customize hook) and `finalizing`; the answer gives `labels`
 * and `annotations` (a null value removes one), `status` (replaces the target's; null leaves it),
 * `attachments`, `resyncAfterSeconds` and, from the finalize hook, `finalized`. Metacontroller's
 * side is machines/kubernetes/metacontroller/decorator.ts; answers are memoised by request hash,
 * as for a CompositeController (webhook.ts).
 */

const stringMap = z.record(z.string(), z.string().nullable());
const responseSchema = z.looseObject({
  labels: stringMap.nullish(),
  annotations: stringMap.nullish(),
  status: z.record(z.string(), z.unknown()).nullish(),
  attachments: z.array(childSchema).nullish(),
  resyncAfterSeconds: z.number().min(0).optional(),
  finalized: z.boolean().optional(),
});

function readAnswer(which: string, url: string, answer: ReturnType<typeof postJsonSync>): DecoratorOutcome {
  const read = answerJson(which, url, answer);
  if ('error' in read) return read;
  const fail = (why: string): DecoratorOutcome => ({ error: `panic: ${which} hook ${url} ${why}` });
  const parsed = responseSchema.safeParse(read.json);
  if (!parsed.success)
    return fail(
      `answered JSON that is not a decorator sync response: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
    );
  const attachments = desiredChildren(parsed.data.attachments ?? []);
  if (typeof attachments === 'string')
    return fail(`answered an attachment the API server would refuse: ${attachments.replace(/^children/, 'attachments')}`);
  const r = parsed.data;
  return {
    labels: r.labels ?? {},
    annotations: r.annotations ?? {},
    attachments,
    ...(r.status ? { status: r.status } : {}),
    ...(r.resyncAfterSeconds ? { resyncAfterMs: r.resyncAfterSeconds * 1000 } : {}),
    ...(r.finalized !== undefined ? { finalized: r.finalized } : {}),
  };
}

function hookCaller(which: 'sync' | 'finalize', url: string, controllerName: string, config: DecoratorWebhookConfig) {
  const memo = new Map<string, DecoratorOutcome>();
  const controller = {
    apiVersion: 'metacontroller.k8s.io/v1alpha1',
    kind: 'DecoratorController',
    metadata: { name: controllerName },
    spec: {
      resources: [
        { apiVersion: apiVersionOf(config.resource), resource: config.resource, labelSelector: { matchLabels: config.labelSelector } },
      ],
      attachments: config.attachments.map((k) => ({ apiVersion: apiVersionOf(k), resource: k })),
    },
  };
  return (request: DecoratorSyncRequest): DecoratorOutcome => {
    const attachments: Record<string, Record<string, unknown>> = {};
    for (const kind of config.attachments) attachments[`${kind}.${apiVersionOf(kind)}`] = {};
    for (const [kind, byName] of Object.entries(request.attachments)) {
      for (const [name, o] of Object.entries(byName)) (attachments[`${kind}.${apiVersionOf(kind)}`] ??= {})[name] = apiObject(o);
    }
    const body = JSON.stringify({
      controller,
      object: apiObject(request.target),
      attachments,
      related: {},
      finalizing: request.finalizing,
    });
    const hash = createHash('sha256').update(body).digest('hex');
    const hit = memo.get(hash);
    if (hit) return hit;
    const outcome = readAnswer(which, url, postJsonSync(url, body, config.timeoutMs));
    memo.set(hash, outcome);
    return outcome;
  };
}

/** The decorator webhook controller, under its name (`webhook:<sync url>`). */
export function loadDecoratorWebhook(config: DecoratorWebhookConfig): { name: string; reconciler: Reconciler<unknown> } {
  const name = `webhook:${config.sync}`;
  const controllerName = `${config.resource.toLowerCase()}-decorator`;
  return {
    name,
    reconciler: decoratorController(name, {
      targetKind: config.resource,
      selector: config.labelSelector,
      attachmentKinds: config.attachments,
      controllerName,
      sync: hookCaller('sync', config.sync, controllerName, config),
      ...(config.finalize ? { finalize: hookCaller('finalize', config.finalize, controllerName, config) } : {}),
    }),
  };
}
