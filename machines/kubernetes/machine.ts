import { assign, setup } from 'xstate';
import { errorMessage, namedActor } from '../named-actor';
import type { CacheView, Plan, WriteOutcome } from './reconciler';
import type { ReconcilerLookup } from './reconcilers';
import { builtinReconciler } from './reconcilers';
import type { WatchEvent, Write } from './types';
import type { WorkQueue } from './workqueue';
import * as wq from './workqueue';
import type { HandledResult } from './reconcile-handler';
import { handleResult } from './reconcile-handler';

/** The focal controller's settings (controller-runtime's controller.Options and the manager's). */
export interface ControllerConfig {
  /** A built-in controller (ReconcilerName) or a user's module (`module:<path>`). */
  reconciler: string;
  /** Free-form options handed to the reconciler (e.g. the HPA's sync period). */
  options: Record<string, unknown>;
  rateLimiter: wq.RateLimiterConfig;
}

export const DEFAULT_CONTROLLER_CONFIG: ControllerConfig = {
  reconciler: 'replicaset',
  options: {},
  rateLimiter: wq.DEFAULT_RATE_LIMITER,
};

export interface ControllerContext {
  config: ControllerConfig;
  queue: WorkQueue;
  /** The reconciler's own memory (e.g. the ReplicaSet controller's expectations). */
  memory: unknown;
  /** The informer has done its initial list (WaitForCacheSync). */
  synced: boolean;
  /** The request being reconciled (namespace/name): level-triggered, nothing else. */
  current: string | null;
  view: CacheView | null;
  plan: Plan | null;
  batchIndex: number;
  writes: WriteOutcome[];
  /** The outcome the reconcileHandler acts on. */
  outcome: Plan['outcome'] | null;
  /** What the last informer batch was, in words, and the keys it enqueued. */
  lastEvents: string[];
  lastEnqueued: string[];
  /** What reconcileHandler did with the last Reconcile's result, for which key (null before the first). */
  lastResult: { key: string; result: HandledResult } | null;
  reconciles: number;
  errors: number;
  /** The clock as of the last answer from the world (ops report it). */
  now: number;
}

export type ControllerEvent = { type: 'CONFIG.UPDATE'; config: Partial<ControllerConfig> };

export interface WatchNextInput {
  reconciler: string;
  kinds: string[];
  initial: boolean;
  wakeAt: number | null;
}
export interface WatchNextOutput {
  now: number;
  events: WatchEvent[];
  resync: boolean;
}
export interface ReadCacheInput {
  request: string;
}
export interface ReadCacheOutput {
  now: number;
  view: CacheView;
}
export interface ApiWriteInput {
  batch: Write[];
}
export interface ApiWriteOutput {
  now: number;
  results: WriteOutcome[];
}

const describe = (e: WatchEvent) => `${e.type} ${e.object.kind} ${e.object.metadata.name}`;

export { handleResult, resultText } from './reconcile-handler';
export type { HandledResult } from './reconcile-handler';

/**
 * One controller-runtime controller with one worker (MaxConcurrentReconciles = 1), as in
 * controller-runtime v0.23 by default (the priority queue; `controllerRuntime: "0.22"` selects the
 * older client-go workqueue, see workqueue.ts):
 * informer events → workqueue (dedup) → Get → Reconcile (observe the cache, compare, act with
 * API writes) → result (Forget / AddAfter / AddRateLimited) → Done → next key or watch again.
 *
 * The machine is built with the controllers it can run (`reconcilerFor`): the context names the
 * focal one (plain data, as traces and the explorer need) and the machine finds it by that name.
 * A user's controller is handed in here when its scenario loads — the context initialiser and an
 * invoke's input read it too, and XState's provide() replaces neither, so this is a factory.
 */
export const createControllerMachine = (reconcilerFor: ReconcilerLookup) =>
  setup({
    types: {
      context: {} as ControllerContext, // cast: XState's setup() types idiom: a type carrier, never read as a value
      events: {} as ControllerEvent, // cast: XState's setup() types idiom: a type carrier, never read as a value
      input: {} as { config?: Partial<ControllerConfig> } | undefined, // cast: XState's setup() types idiom: a type carrier, never read as a value
    },
    actors: {
      watchNext: namedActor<WatchNextOutput, WatchNextInput>('watchNext'),
      readCache: namedActor<ReadCacheOutput, ReadCacheInput>('readCache'),
      apiWrite: namedActor<ApiWriteOutput, ApiWriteInput>('apiWrite'),
    },
    delays: { instant: 0 },
    guards: {
      hasWork: ({ context }) => context.queue.queue.length > 0,
      hasWrites: ({ context }) => (context.plan?.batches.length ?? 0) > 0,
      batchFailed: ({ context }) => context.writes.some((w) => w.error !== undefined),
      moreBatches: ({ context }) => context.batchIndex < (context.plan?.batches.length ?? 0),
      isError: ({ context }) => context.outcome?.kind === 'error' || context.outcome?.kind === 'terminal',
    },
    actions: {
      handleEvents: assign(({ context }, out: WatchNextOutput) => {
        const reconciler = reconcilerFor(context.config.reconciler);
        let queue = wq.promoteReady(context.queue, out.now);
        let memory = context.memory;
        const enqueued = new Set<string>();
        for (const event of out.events) {
          const mapped = reconciler.mapEvent(event, memory as never, out.now); // cast: a reconciler's memory is erased in the machine's context; it only ever gets back the memory it returned
          memory = mapped.memory;
          // handler/enqueue.go addToQueueCreate/Update: the initial list and unchanged (resync) updates go in at LowPriority.
          const priority =
            !context.synced || (event.type === 'MODIFIED' && event.old?.metadata.resourceVersion === event.object.metadata.resourceVersion)
              ? wq.LOW_PRIORITY
              : 0;
          for (const key of mapped.requests) {
            queue = mapped.addAfterMs
              ? wq.addAfter(queue, key, mapped.addAfterMs, out.now, priority)
              : wq.add(queue, key, priority, out.now);
            enqueued.add(key);
          }
        }
        const lastEvents = out.events.map(describe);
        if (out.resync) lastEvents.unshift('resync');
        return { queue, memory, synced: true, lastEvents, lastEnqueued: [...enqueued], now: out.now };
      }),
      takeNext: assign(({ context }) => {
        const { q, key } = wq.get(context.queue);
        return { queue: q, current: key ?? null, view: null, plan: null, batchIndex: 0, writes: [], outcome: null };
      }),
      decide: assign(({ context }, out: ReadCacheOutput) => {
        const reconciler = reconcilerFor(context.config.reconciler);
        const plan = reconciler.reconcile({
          request: context.current!,
          view: out.view,
          memory: context.memory as never, // cast: a reconciler's memory is erased in the machine's context; it only ever gets back the memory it returned
          now: out.now,
          options: context.config.options,
        }) as Plan; // cast: reconcile returns its own memory type's Plan, erased here like the memory
        return { view: out.view, now: out.now, plan, memory: plan.memory, outcome: plan.outcome, reconciles: context.reconciles + 1 };
      }),
      recordBatch: assign(({ context }, out: ApiWriteOutput) => {
        const failed = out.results.find((r) => r.error !== undefined);
        const writes = [...context.writes, ...out.results];
        if (!failed) return { writes, batchIndex: context.batchIndex + 1, now: out.now };
        const skipped = (context.plan?.batches ?? []).slice(context.batchIndex + 1).flat();
        const reconciler = reconcilerFor(context.config.reconciler);
        const memory = reconciler.afterWrites
          ? reconciler.afterWrites(context.memory as never, context.current!, writes, skipped, out.now) // cast: a reconciler's memory is erased in the machine's context; it only ever gets back the memory it returned
          : context.memory;
        return {
          writes,
          memory,
          now: out.now,
          batchIndex: context.batchIndex + 1,
          outcome: { kind: 'error' as const, message: failed.error! },
        };
      }),
      writesDone: assign(({ context }) => {
        const reconciler = reconcilerFor(context.config.reconciler);
        if (!reconciler.afterWrites || context.writes.some((w) => w.error !== undefined)) return {};
        return { memory: reconciler.afterWrites(context.memory as never, context.current!, context.writes, [], context.now) }; // cast: a reconciler's memory is erased in the machine's context; it only ever gets back the memory it returned
      }),
      applyResult: assign(({ context }) => {
        if (!context.current || !context.outcome) return {};
        const { queue, result } = handleResult(context.queue, context.current, context.outcome, context.now);
        const failed = context.outcome.kind !== 'ok';
        return { queue, lastResult: { key: context.current, result }, errors: context.errors + (failed ? 1 : 0), current: null };
      }),
      readFailed: assign((_, params: { error: unknown }) => ({ outcome: { kind: 'error' as const, message: errorMessage(params.error) } })),
      updateConfig: assign({ config: ({ context, event }) => ({ ...context.config, ...event.config }) }),
    },
  }).createMachine({
    id: 'kubernetes-controller',
    context: ({ input }) => {
      const config = { ...DEFAULT_CONTROLLER_CONFIG, ...(input?.config ?? {}) };
      return {
        config,
        queue: wq.newWorkQueue(config.rateLimiter),
        memory: reconcilerFor(config.reconciler).initialMemory(),
        synced: false,
        current: null,
        view: null,
        plan: null,
        batchIndex: 0,
        writes: [],
        outcome: null,
        lastEvents: [],
        lastEnqueued: [],
        lastResult: null,
        reconciles: 0,
        errors: 0,
        now: 0,
      };
    },
    on: { 'CONFIG.UPDATE': { actions: 'updateConfig' } },
    initial: 'watching',
    states: {
      /** The informers' watch streams: wait for events (or a queued key's delay to end). */
      watching: {
        tags: ['wait'],
        invoke: {
          id: 'watchNext',
          src: 'watchNext',
          input: ({ context }) => {
            const r = reconcilerFor(context.config.reconciler);
            return {
              reconciler: context.config.reconciler,
              kinds: [r.forKind, ...r.watches],
              initial: !context.synced,
              wakeAt: wq.nextReadyAt(context.queue) ?? null,
            };
          },
          onDone: { target: 'dequeue', actions: { type: 'handleEvents', params: ({ event }) => event.output } },
        },
      },
      dequeue: {
        tags: ['wait'],
        always: [{ guard: 'hasWork', target: 'reading', actions: 'takeNext' }, { target: 'watching' }],
      },
      /** Get/List from the informer cache (never the API server directly). */
      reading: {
        tags: ['observe'],
        invoke: {
          id: 'readCache',
          src: 'readCache',
          input: ({ context }) => ({ request: context.current! }),
          onDone: { target: 'deciding', actions: { type: 'decide', params: ({ event }) => event.output } },
          onError: { target: 'result', actions: { type: 'readFailed', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      deciding: {
        tags: ['compare'],
        after: { instant: [{ guard: 'hasWrites', target: 'writing' }, { target: 'result' }] },
      },
      writing: {
        tags: ['act'],
        invoke: {
          id: 'apiWrite',
          src: 'apiWrite',
          input: ({ context }) => ({ batch: context.plan!.batches[context.batchIndex]! }),
          onDone: { target: 'batchDone', actions: { type: 'recordBatch', params: ({ event }) => event.output } },
          onError: { target: 'result', actions: { type: 'readFailed', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      batchDone: {
        tags: ['act'],
        always: [
          { guard: 'batchFailed', target: 'result' },
          { guard: 'moreBatches', target: 'writing' },
          { target: 'result', actions: 'writesDone' },
        ],
      },
      /** The reconcileHandler's verdict on the Result: requeue bookkeeping, then wait (ok) or error. */
      result: {
        tags: ['wait'],
        entry: 'applyResult',
        initial: 'choose',
        states: {
          choose: { tags: ['wait'], always: [{ guard: 'isError', target: '#kubernetes-controller.failed' }, { target: 'ok' }] },
          ok: { tags: ['wait'], after: { instant: { target: '#kubernetes-controller.dequeue' } } },
        },
      },
      failed: { tags: ['error'], after: { instant: { target: 'dequeue' } } },
    },
  });

/** The controller machine with the built-in controllers only (the lab, the contract suite, every shipped scenario). */
export const controllerMachine = createControllerMachine(builtinReconciler);
