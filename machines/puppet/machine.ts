import { assign, setup } from 'xstate';
import { errorMessage, namedActor } from '../named-actor';
import { evaluationOrder } from './graph';
import { buildReport } from './report';
import type { Step, StepResult, Transaction } from './transaction';
import { applyStep, newTransaction, nextStep } from './transaction';
import type { AgentSettings, Observation, PuppetConfig, Ref, ResourceType, RunReport, Values } from './types';
import { DEFAULT_SETTINGS, refOf } from './types';

export interface PuppetContext {
  config: PuppetConfig;
  /** Bumped on every catalog change (the catalog's configuration_version). */
  catalogVersion: number;
  splayMs: number | null;
  runs: number;
  /** When the current (or last) run started: the scheduler's last_run. */
  lastRunStart: number | null;
  tx: Transaction | null;
  step: Step | null;
  /** The step just recorded (what the last frame did). */
  applied: Step | null;
  /** transactionstore.yaml: system values at the end of the last run (for corrective_change). */
  store: Record<Ref, Values>;
  lastReport: RunReport | null;
  nextDelayMs: number;
  lastError: string | null;
}

export type PuppetEvent =
  | { type: 'CONFIG.UPDATE'; config: Partial<PuppetConfig> }
  /** SIGUSR1 to the agent daemon: run now. */
  | { type: 'PUPPET.RUN' };

export interface RetrieveInput {
  resources: { ref: Ref; type: ResourceType; title: string }[];
}
/** `values`: the properties to change; `should`: the whole resource (creating a file writes its content). */
export interface SyncInput {
  run: number;
  ref: Ref;
  type: ResourceType;
  title: string;
  values: Values;
  should: Values;
}
export interface RefreshInput {
  ref: Ref;
  type: ResourceType;
  title: string;
}

/**
 * Puppet::Scheduler::Job#interval_to_next_from: the next run is due runinterval after the last
 * one started; a run that took longer than runinterval is followed at once.
 */
export function nextRunDelay(lastRunStart: number, now: number, runintervalMs: number): number {
  return Math.max(0, lastRunStart + runintervalMs - now);
}

/** splaylimit defaults to runinterval (defaults.rb). */
export const splaylimitOf = (s: AgentSettings) => s.splaylimitMs ?? s.runintervalMs;

const stepOf = (ctx: PuppetContext): Step => ctx.step ?? { kind: 'done' };
const targetOf = (ctx: PuppetContext) => {
  const s = stepOf(ctx) as Extract<Step, { ref: Ref }>; // cast: called only in states whose step names a resource
  const r = ctx.tx!.catalog.find((x) => refOf(x.type, x.title) === s.ref)!;
  return { ref: s.ref, type: r.type, title: r.title };
};

/**
 * A Puppet agent daemon: wait (splay before the first run only, then runinterval) → observe the
 * host (retrieve every managed resource's current values) → compare each resource with the
 * catalog, in relationship-graph order → act (sync, refresh) → report. One resource at a time,
 * as a transaction does: compare and act alternate inside a run.
 */
export const puppetMachine = setup({
  types: {
    context: {} as PuppetContext, // cast: setup()'s types are declarations only, XState never reads these values
    events: {} as PuppetEvent, // cast: setup()'s types are declarations only, XState never reads these values
    input: {} as { config?: Partial<PuppetConfig> } | undefined, // cast: setup()'s types are declarations only, XState never reads these values
  },
  actors: {
    /** Puppet::Scheduler::SplayJob: rand(splaylimit + 1). */
    drawSplay: namedActor<number, { limitMs: number }>('drawSplay'),
    readClock: namedActor<number, void>('readClock'),
    retrieve: namedActor<Record<Ref, Observation>, RetrieveInput>('retrieve'),
    syncResource: namedActor<Values, SyncInput>('syncResource'),
    refreshResource: namedActor<void, RefreshInput>('refreshResource'),
    sendReport: namedActor<void, RunReport>('sendReport'),
  },
  delays: {
    splay: ({ context }) => context.splayMs ?? 0,
    untilNextRun: ({ context }) => context.nextDelayMs,
    compareTime: 0,
  },
  guards: {
    splayEnabled: ({ context }) => context.config.settings.splay,
    catalogHasCycle: ({ context }) => !evaluationOrder(context.config.catalog).ok,
    stepIs: ({ context }, params: { kind: Step['kind'] }) => stepOf(context).kind === params.kind,
  },
  actions: {
    recordSplay: assign({ splayMs: (_, params: { ms: number }) => params.ms }),
    /** Starts a run with the catalog as it is now; a dependency cycle fails the whole catalog. */
    beginRun: assign(({ context }, params: { now: number }) => {
      const order = evaluationOrder(context.config.catalog);
      const run = context.runs + 1;
      if (!order.ok) {
        const report = buildReport(run, params.now, context.catalogVersion, context.config.settings.noop, [], [], false);
        return {
          runs: run,
          lastRunStart: params.now,
          tx: null,
          step: null,
          lastReport: report,
          lastError: `Found 1 dependency cycle: (${order.cycle.join(' => ')})`,
        };
      }
      const tx = newTransaction(
        run,
        context.catalogVersion,
        context.config.settings.noop,
        context.config.catalog,
        order.order,
        context.store,
      );
      return { runs: run, lastRunStart: params.now, tx, step: null, lastError: null };
    }),
    recordObservation: assign({
      tx: ({ context }, params: { observed: Record<Ref, Observation> }) => ({ ...context.tx!, observed: params.observed }),
    }),
    failRetrieve: assign(({ context }, params: { error: unknown }) => ({
      lastError: `Could not retrieve catalog or facts: ${errorMessage(params.error)}`,
      lastReport: buildReport(
        context.tx!.run,
        context.lastRunStart ?? 0,
        context.catalogVersion,
        context.tx!.noop,
        context.tx!.order,
        [],
        false,
      ),
      tx: null,
    })),
    /** Going to act on the decided step: nothing is recorded yet. */
    announce: assign({ applied: null }),
    decide: assign({ step: ({ context }) => nextStep(context.tx!) }),
    applyStep: assign(({ context }, params: { result: StepResult }) => ({
      tx: applyStep(context.tx!, stepOf(context), params.result),
      applied: stepOf(context),
    })),
    /** Report#finalize_report; the transaction store is saved. */
    finishRun: assign(({ context }) => {
      const tx = context.tx!;
      const statuses = tx.order.map((r) => tx.statuses[r]).filter((s) => s !== undefined);
      return {
        lastReport: buildReport(tx.run, context.lastRunStart ?? 0, tx.catalogVersion, tx.noop, tx.order, statuses),
        store: tx.newStore,
        tx: null,
        step: null,
      };
    }),
    scheduleNext: assign({
      nextDelayMs: ({ context }, params: { now: number }) =>
        nextRunDelay(context.lastRunStart ?? params.now, params.now, context.config.settings.runintervalMs),
    }),
    updateConfig: assign(({ context, event }) => {
      if (event.type !== 'CONFIG.UPDATE') return {};
      const changed = event.config.catalog !== undefined && event.config.catalog !== context.config.catalog;
      return {
        config: { ...context.config, ...event.config, settings: { ...context.config.settings, ...(event.config.settings ?? {}) } },
        catalogVersion: context.catalogVersion + (changed ? 1 : 0),
      };
    }),
  },
}).createMachine({
  id: 'puppet',
  context: ({ input }) => ({
    config: { catalog: [], ...(input?.config ?? {}), settings: { ...DEFAULT_SETTINGS, ...(input?.config?.settings ?? {}) } },
    catalogVersion: 1,
    splayMs: null,
    runs: 0,
    lastRunStart: null,
    tx: null,
    step: null,
    applied: null,
    store: {},
    lastReport: null,
    nextDelayMs: 0,
    lastError: null,
  }),
  // A new catalog (or puppet.conf change) is used from the next run on: a run applies the catalog it started with.
  on: { 'CONFIG.UPDATE': { actions: 'updateConfig' } },
  initial: 'boot',
  states: {
    boot: {
      tags: ['wait'],
      always: [{ guard: 'splayEnabled', target: 'drawingSplay' }, { target: 'startingRun' }],
    },
    drawingSplay: {
      tags: ['wait'],
      invoke: {
        id: 'drawSplay',
        src: 'drawSplay',
        input: ({ context }) => ({ limitMs: splaylimitOf(context.config.settings) }),
        onDone: { target: 'splaying', actions: { type: 'recordSplay', params: ({ event }) => ({ ms: event.output }) } },
      },
    },
    splaying: { tags: ['wait'], after: { splay: 'startingRun' } },
    startingRun: {
      tags: ['observe'],
      invoke: {
        id: 'readClock',
        src: 'readClock',
        onDone: [
          { guard: 'catalogHasCycle', target: 'reporting', actions: { type: 'beginRun', params: ({ event }) => ({ now: event.output }) } },
          { target: 'retrieving', actions: { type: 'beginRun', params: ({ event }) => ({ now: event.output }) } },
        ],
      },
    },
    retrieving: {
      tags: ['observe'],
      invoke: {
        id: 'retrieve',
        src: 'retrieve',
        input: ({ context }) => ({
          resources: (context.tx?.catalog ?? []).map((r) => ({ ref: refOf(r.type, r.title), type: r.type, title: r.title })),
        }),
        onDone: { target: 'evaluating', actions: { type: 'recordObservation', params: ({ event }) => ({ observed: event.output }) } },
        onError: { target: 'reporting', actions: { type: 'failRetrieve', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    evaluating: {
      tags: ['compare'],
      entry: 'decide',
      after: {
        compareTime: [
          { guard: { type: 'stepIs', params: { kind: 'done' } }, target: 'reporting', actions: 'finishRun' },
          { guard: { type: 'stepIs', params: { kind: 'sync' } }, target: 'syncing', actions: 'announce' },
          { guard: { type: 'stepIs', params: { kind: 'refresh' } }, target: 'refreshing', actions: 'announce' },
          { target: 'evaluating', reenter: true, actions: { type: 'applyStep', params: { result: { ok: true } } } },
        ],
      },
    },
    syncing: {
      tags: ['act'],
      invoke: {
        id: 'syncResource',
        src: 'syncResource',
        input: ({ context }) => {
          const target = targetOf(context);
          const should = context.tx!.catalog.find((r) => refOf(r.type, r.title) === target.ref)!.should;
          return { ...target, run: context.tx!.run, values: (stepOf(context) as Extract<Step, { kind: 'sync' }>).values, should }; // cast: this action runs only in the sync step's state
        },
        onDone: {
          target: 'evaluating',
          actions: { type: 'applyStep', params: ({ event }) => ({ result: { ok: true, current: event.output } }) },
        },
        onError: {
          target: 'evaluating',
          actions: { type: 'applyStep', params: ({ event }) => ({ result: { ok: false, error: errorMessage(event.error) } }) },
        },
      },
    },
    refreshing: {
      tags: ['act'],
      invoke: {
        id: 'refreshResource',
        src: 'refreshResource',
        input: ({ context }) => targetOf(context),
        onDone: { target: 'evaluating', actions: { type: 'applyStep', params: { result: { ok: true } } } },
        onError: {
          target: 'evaluating',
          actions: { type: 'applyStep', params: ({ event }) => ({ result: { ok: false, error: errorMessage(event.error) } }) },
        },
      },
    },
    reporting: {
      tags: ['act'],
      invoke: {
        id: 'sendReport',
        src: 'sendReport',
        input: ({ context }) => context.lastReport!,
        onDone: 'finishing',
        onError: 'finishing',
      },
    },
    finishing: {
      tags: ['wait'],
      invoke: {
        id: 'clockAtEnd',
        src: 'readClock',
        onDone: { target: 'sleeping', actions: { type: 'scheduleNext', params: ({ event }) => ({ now: event.output }) } },
      },
    },
    sleeping: {
      tags: ['wait'],
      on: { 'PUPPET.RUN': 'startingRun' },
      after: { untilNextRun: 'startingRun' },
    },
  },
});
