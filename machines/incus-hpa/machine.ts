import { assign, setup } from 'xstate';
import { errorMessage, namedActor } from '../named-actor';
import type { PolicyModules } from './policies';
import { NO_POLICY_MODULES, policyFor } from './policies';
import type { Decision, HpaAction, HpaConfig, Observation, PolicyMemory } from './types';
import { DEFAULT_CONFIG, EMPTY_POLICY_MEMORY } from './types';

export interface HpaContext {
  config: HpaConfig;
  observation: Observation | null;
  decision: Decision | null;
  /** Actions of this period not yet done (acted on one at a time, each waited for). */
  pending: HpaAction[];
  policyMemory: PolicyMemory;
  /** The policy failed this period (threw, hung, or answered what is not a Decision): back off. */
  policyFailed: boolean;
  consecutiveErrors: number;
  lastError: string | null;
  periods: number;
}

export type HpaEvent = { type: 'CONFIG.UPDATE'; config: Partial<HpaConfig> };

export interface ObserveInput {
  config: HpaConfig;
}
export interface CreateInput {
  config: HpaConfig;
}
export interface DeleteInput {
  config: HpaConfig;
  name: string;
  waitForStop: boolean;
}
export interface CreateOutput {
  name: string;
}

export function backoffDelay(config: HpaConfig, consecutiveErrors: number): number {
  const exp = config.backoffInitialMs * 2 ** Math.max(0, consecutiveErrors - 1);
  return Math.min(exp, config.backoffMaxMs);
}

/** The compare step: the config's policy decides (a policy module from `modules`, the run's own). */
function decideWith(modules: PolicyModules) {
  return ({ context }: { context: HpaContext }): Partial<HpaContext> => {
    if (!context.observation) return {};
    try {
      const decision = policyFor(
        context.config.policy,
        modules,
      )({
        observation: context.observation,
        config: context.config,
        memory: context.policyMemory,
      });
      return { decision, pending: decision.actions, policyMemory: decision.memory, policyFailed: false };
    } catch (error) {
      // A policy module's failure fails the period like an API error: no action, back off, retry.
      return {
        decision: null,
        pending: [],
        policyFailed: true,
        consecutiveErrors: context.consecutiveErrors + 1,
        lastError: errorMessage(error),
      };
    }
  };
}

/**
 * The Incus HPA loop: observe (list instances) → compare (a pure policy) → act (create+start or
 * stop+delete, each waited for) → wait (period). Errors back off exponentially, capped.
 * The named actors are placeholders: a world (sim/ or real/) is attached with .provide().
 */
export const incusHpaMachine = setup({
  types: {
    context: {} as HpaContext, // cast: setup()'s types are declarations only, XState never reads these values
    events: {} as HpaEvent, // cast: setup()'s types are declarations only, XState never reads these values
    input: {} as { config?: Partial<HpaConfig> } | undefined, // cast: setup()'s types are declarations only, XState never reads these values
  },
  actors: {
    observe: namedActor<Observation, ObserveInput>('observe'),
    createPod: namedActor<CreateOutput, CreateInput>('createPod'),
    deletePod: namedActor<void, DeleteInput>('deletePod'),
  },
  delays: {
    period: ({ context }) => context.config.periodMs,
    backoff: ({ context }) => backoffDelay(context.config, context.consecutiveErrors),
    // Deciding is instant; a zero delay still lets a stepper rest on the compare phase.
    compareTime: 0,
  },
  guards: {
    hasActions: ({ context }) => context.pending.length > 0,
    policyFailed: ({ context }) => context.policyFailed,
    nextIsCreate: ({ context }) => context.pending[0]?.kind === 'create',
    nextIsDelete: ({ context }) => context.pending[0]?.kind === 'delete',
  },
  actions: {
    decide: assign(decideWith(NO_POLICY_MODULES)),
    shiftPending: assign({ pending: ({ context }) => context.pending.slice(1) }),
    periodDone: assign({ periods: ({ context }) => context.periods + 1, consecutiveErrors: 0 }),
    recordError: assign({
      consecutiveErrors: ({ context }) => context.consecutiveErrors + 1,
      lastError: (_, params: { error: unknown }) => errorMessage(params.error),
      pending: [],
    }),
    updateConfig: assign({ config: ({ context, event }) => ({ ...context.config, ...event.config }) }),
  },
}).createMachine({
  id: 'incus-hpa',
  context: ({ input }) => ({
    config: { ...DEFAULT_CONFIG, ...(input?.config ?? {}) },
    observation: null,
    decision: null,
    pending: [],
    policyMemory: EMPTY_POLICY_MEMORY,
    policyFailed: false,
    consecutiveErrors: 0,
    lastError: null,
    periods: 0,
  }),
  // Desired-state edits apply at once to the context; the loop uses them from its next phase on.
  on: { 'CONFIG.UPDATE': { actions: 'updateConfig' } },
  initial: 'observing',
  states: {
    observing: {
      tags: ['observe'],
      invoke: {
        id: 'observe',
        src: 'observe',
        input: ({ context }) => ({ config: context.config }),
        onDone: { target: 'comparing', actions: assign({ observation: ({ event }) => event.output }) },
        onError: { target: 'backoff', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    comparing: {
      tags: ['compare'],
      entry: 'decide',
      after: {
        compareTime: [
          { guard: 'policyFailed', target: 'backoff' },
          { guard: 'hasActions', target: 'acting' },
          { target: 'waiting', actions: 'periodDone' },
        ],
      },
    },
    acting: {
      tags: ['act'],
      initial: 'next',
      states: {
        next: {
          tags: ['act'],
          always: [
            { guard: 'nextIsCreate', target: 'creating' },
            { guard: 'nextIsDelete', target: 'deleting' },
            { target: '#incus-hpa.waiting', actions: 'periodDone' },
          ],
        },
        creating: {
          tags: ['act'],
          invoke: {
            id: 'createPod',
            src: 'createPod',
            input: ({ context }) => ({ config: context.config }),
            onDone: { target: 'next', actions: 'shiftPending' },
            onError: { target: '#incus-hpa.backoff', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        deleting: {
          tags: ['act'],
          invoke: {
            id: 'deletePod',
            src: 'deletePod',
            input: ({ context }) => {
              const next = context.pending[0];
              if (next?.kind !== 'delete') throw new Error('deleting without a delete action');
              return { config: context.config, name: next.name, waitForStop: next.waitForStop };
            },
            onDone: { target: 'next', actions: 'shiftPending' },
            onError: { target: '#incus-hpa.backoff', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    waiting: {
      tags: ['wait'],
      after: { period: 'observing' },
    },
    backoff: {
      tags: ['error'],
      after: { backoff: 'observing' },
    },
  },
});

/** The machine (or a world's provide() of it) deciding with the policy modules its scenario or
 * hpa.yaml loaded: XState's provide() replaces the named `decide` action. */
export const providePolicyModules = (machine: typeof incusHpaMachine, modules: PolicyModules): typeof incusHpaMachine =>
  machine.provide({ actions: { decide: assign(decideWith(modules)) } });
