import type { EventObject } from 'xstate';
import type { ControllerContext, Write, WriteOutcome } from '../../machines/kubernetes';
import type { FrameNote } from '../notes';
import type { SentRequest } from '../notes/kubernetes';
import { kubernetesNote } from '../notes/kubernetes';
import type { Frame } from '../trace';
import { controllerOf } from '../trace';
import type { KubeSummary } from './kubernetes-world-schema';

const describeWrite = (w: Write): string => {
  switch (w.verb) {
    case 'create':
      return `POST ${w.object.kind.toLowerCase()} ${w.object.metadata.name ?? `${w.object.metadata.generateName}*`}`;
    case 'update':
      return `PUT ${w.object.kind.toLowerCase()} ${w.object.metadata.name}`;
    case 'updateStatus':
      return `PUT ${w.object.kind.toLowerCase()} ${w.object.metadata.name}/status`;
    case 'delete':
      return `DELETE ${w.kind.toLowerCase()} ${w.name}`;
    case 'patch':
      return `PATCH ${w.kind.toLowerCase()} ${w.name}${w.status ? '/status' : ''}`;
    case 'scale':
      return `PUT ${w.kind.toLowerCase()} ${w.name}/scale replicas=${w.replicas}`;
    case 'event':
      return `event ${w.reason}`;
  }
};

/** A request as sent, with its error's reason (or the tolerated one's): the API's own words. */
const sent = (o: WriteOutcome): SentRequest => ({
  request: describeWrite(o.write),
  failed: o.error ? o.error.split(':')[0]! : null,
  tolerated: !o.error && o.tolerated ? o.tolerated.split(':')[0]! : null,
});

function summarise(items: string[], max = 4): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} … +${items.length - max}`;
}

/** The one-line explanation of a frame in `loopscope sim`'s timeline. */
export function noteFor(ctx: ControllerContext, event: EventObject): FrameNote | undefined {
  if (event.type === 'xstate.done.actor.watchNext') {
    if (!ctx.lastEvents.length) return undefined;
    return kubernetesNote('kubernetes.informer', {
      events: summarise(ctx.lastEvents),
      added: summarise(ctx.lastEnqueued, 3),
      got: ctx.current,
      queued: ctx.queue.queue.length ? summarise(ctx.queue.queue, 3) : null,
    });
  }
  if (event.type === 'xstate.done.actor.readCache') {
    if (!ctx.plan) return undefined;
    const { summary } = ctx.plan;
    // A plan is read for the key handed out (current is set before readCache); 'null' is what the text always printed otherwise.
    return typeof summary === 'string'
      ? `reconcile ${ctx.current}: ${summary}`
      : kubernetesNote('kubernetes.reconcile', { key: ctx.current ?? 'null', summary });
  }
  if (event.type === 'xstate.done.actor.apiWrite') {
    const last = ctx.writes.slice(-(ctx.plan?.batches[ctx.batchIndex - 1]?.length ?? 1));
    const max = 4;
    const requests = { shown: last.slice(0, max).map(sent), more: Math.max(0, last.length - max) };
    return kubernetesNote('kubernetes.writes', { requests, done: ctx.current === null ? ctx.lastResult : null });
  }
  if (event.type.startsWith('xstate.after.') && event.type.includes('deciding') && ctx.current === null && ctx.lastResult)
    return kubernetesNote('kubernetes.result', ctx.lastResult);
  if (event.type.startsWith('xstate.error.actor.'))
    return kubernetesNote('kubernetes.error', { error: ctx.outcome?.kind === 'error' ? ctx.outcome.message : 'unknown' });
  if (event.type === 'CONFIG.UPDATE') return kubernetesNote('kubernetes.config', { reconciler: ctx.config.reconciler });
  return undefined;
}

/** Timeline columns: ready/total pods and the number of keys waiting in the queue. */
export function kubernetesColumns(frame: Frame<KubeSummary>): string {
  const w = frame.world;
  const active = w.pods.filter((p) => p.status !== 'Terminating');
  const ready = active.filter((p) => p.ready).length;
  const queue = controllerOf(frame, 'kubernetes')?.queue.length;
  return `pods ${String(ready).padStart(2)}/${String(active.length).padEnd(2)} queue ${queue === undefined ? ' -' : String(queue).padStart(2)}`;
}
