import { assign, setup } from 'xstate';
import { errorMessage, namedActor } from '../named-actor';
import type { ApplyProgress } from './apply';
import { applyOps, nextOp, recordOutcome, resolvedAttrs } from './apply';
import { hasChanges, plan, planSummary, refreshState } from './plan';
import type { ApplyOp, ApplyOutcome, Drift, LockInfo, Plan, RunMode, Scalar, StateResource, TerraformConfig, TfState } from './types';

/** What one run ended with: the console's last lines and the exit code. */
export interface RunResult {
  run: number;
  mode: RunMode;
  ok: boolean;
  /** apply: 0 ok, 1 error; plan -detailed-exitcode: 0 no changes, 1 error, 2 changes present. */
  exitCode: number;
  planned: { add: number; change: number; destroy: number } | null;
  applied: { added: number; changed: number; destroyed: number };
  notApplied: number;
  drift: number;
  serial: number | null;
  errors: string[];
}

export interface TerraformContext {
  /** The configuration as edited now; the scheduler reads its period from it. */
  config: TerraformConfig;
  /** What this run read when it started: terraform loads the .tf files once, edits count from the next run. */
  runConfig: TerraformConfig;
  runs: number;
  lockId: string | null;
  loaded: TfState | null;
  refreshed: Record<string, StateResource> | null;
  drift: Drift[];
  plan: Plan | null;
  progress: ApplyProgress | null;
  current: ApplyOp | null;
  /** The operation whose outcome was recorded last. */
  lastApplied: ApplyOp | null;
  /** The state this run writes (null: nothing changed, no write). */
  toWrite: TfState | null;
  written: number | null;
  result: RunResult | null;
  lastError: string | null;
}

export type TerraformEvent =
  | { type: 'CONFIG.UPDATE'; config: Partial<TerraformConfig> }
  /** Someone runs terraform by hand (or the pipeline is triggered). */
  | { type: 'TERRAFORM.RUN' };

export interface LockInput {
  operation: LockInfo['operation'];
  who: string;
}
export interface LockOutput {
  lockId: string;
  state: TfState;
}
export interface RefreshInput {
  resources: StateResource[];
}
export interface ApplyInput {
  op: ApplyOp;
  type: string;
  attrs: Record<string, Scalar>;
}
export interface PersistInput {
  state: TfState;
  lockId: string;
}

const OPERATION: Record<RunMode, LockInfo['operation']> = {
  apply: 'OperationTypeApply',
  plan: 'OperationTypePlan',
  'refresh-only': 'OperationTypeApply',
};

const sameState = (a: Record<string, StateResource>, b: Record<string, StateResource>) => JSON.stringify(a) === JSON.stringify(b);

/** The run's outcome from its plan and apply (what `terraform apply` prints at the end). */
function runResult(ctx: Pick<TerraformContext, 'runs' | 'runConfig' | 'plan' | 'progress' | 'drift' | 'written' | 'lastError'>): RunResult {
  const p = ctx.progress;
  const doneOf = (kind: ApplyOp['kind']) => (p ? p.ops.filter((o) => o.kind === kind && p.done.includes(o.key)).length : 0);
  const errors = [...(ctx.plan?.errors ?? []), ...(p?.errors ?? []), ...(ctx.lastError ? [ctx.lastError] : [])];
  const ok = errors.length === 0;
  const changes = ctx.plan ? hasChanges(ctx.plan) : false;
  const mode = ctx.runConfig.mode;
  return {
    run: ctx.runs,
    mode,
    ok,
    exitCode: !ok ? 1 : mode === 'plan' && changes ? 2 : 0,
    planned: ctx.plan ? planSummary(ctx.plan) : null,
    applied: { added: doneOf('create'), changed: doneOf('update'), destroyed: doneOf('delete') },
    notApplied: p ? p.ops.length - p.done.length - p.failed.length : 0,
    drift: ctx.drift.length,
    serial: ctx.written,
    errors,
  };
}

/**
 * Terraform run by a scheduler: lock the state and read it → observe: refresh every object →
 * compare: plan → act: apply in dependency order, write the state, unlock → wait. Without a
 * schedule (everyMs null) it runs once: a tool, not a loop.
 */
export const terraformMachine = setup({
  types: {
    context: {} as TerraformContext, // cast: setup()'s types are declarations only, XState never reads these values
    events: {} as TerraformEvent, // cast: setup()'s types are declarations only, XState never reads these values
    input: {} as { config: TerraformConfig }, // cast: setup()'s types are declarations only, XState never reads these values
  },
  actors: {
    acquireLock: namedActor<LockOutput, LockInput>('acquireLock'),
    refresh: namedActor<Record<string, Record<string, Scalar> | null>, RefreshInput>('refresh'),
    applyChange: namedActor<ApplyOutcome, ApplyInput>('applyChange'),
    persistState: namedActor<number, PersistInput>('persistState'),
    releaseLock: namedActor<void, { lockId: string }>('releaseLock'),
  },
  delays: {
    every: ({ context }) => context.config.everyMs ?? 0,
    compareTime: 0,
  },
  guards: {
    scheduled: ({ context }) => context.config.everyMs !== null,
    planFailed: ({ context }) => (context.plan?.errors.length ?? 0) > 0,
    modeIs: ({ context }, params: { mode: RunMode }) => context.runConfig.mode === params.mode,
    hasOp: ({ context }) => context.current !== null,
    mustWrite: ({ context }) => context.toWrite !== null,
    workingStateChanged: ({ context }) => !sameState(context.progress!.state, context.loaded!.resources),
  },
  actions: {
    beginRun: assign(({ context }) => ({
      runs: context.runs + 1,
      runConfig: context.config,
      lockId: null,
      loaded: null,
      refreshed: null,
      drift: [],
      plan: null,
      progress: null,
      current: null,
      lastApplied: null,
      toWrite: null,
      written: null,
      result: null,
      lastError: null,
    })),
    locked: assign((_, params: { out: LockOutput }) => ({ lockId: params.out.lockId, loaded: params.out.state })),
    lockFailed: assign(({ context }, params: { error: unknown }) => {
      const lastError = `Error: Error acquiring the state lock — ${errorMessage(params.error)}`;
      return { lastError, result: runResult({ ...context, lastError }) };
    }),
    refreshed: assign(({ context }, params: { read: Record<string, Record<string, Scalar> | null> }) =>
      refreshState(context.loaded!.resources, params.read),
    ),
    /** plan; apply mode also lays out the apply graph. */
    planned: assign(({ context }) => {
      const p = plan(context.runConfig.resources, context.refreshed!);
      const ops =
        context.runConfig.mode === 'apply' && p.errors.length === 0 ? applyOps(p, context.runConfig.resources, context.refreshed!) : [];
      return { plan: p, progress: { ops, done: [], failed: [], state: context.refreshed!, errors: [] } };
    }),
    pickOp: assign({ current: ({ context }) => nextOp(context.progress!) }),
    recordOutcome: assign(({ context }, params: { outcome: ApplyOutcome }) => ({
      lastApplied: context.current,
      progress: recordOutcome(
        context.progress!,
        context.current!,
        params.outcome,
        context.runConfig.resources.find((r) => r.address === context.current!.address),
      ),
    })),
    /** The state to persist: the working state of the apply, or the refreshed one for -refresh-only. */
    prepareWrite: assign(({ context }) => {
      const next = context.runConfig.mode === 'refresh-only' ? context.refreshed! : context.progress!.state;
      const loaded = context.loaded!;
      return { toWrite: sameState(next, loaded.resources) ? null : { ...loaded, serial: loaded.serial + 1, resources: next } };
    }),
    /** The backend now holds this state: later writes compare against it. */
    wrote: assign(({ context }, params: { serial: number }) => ({
      written: params.serial,
      loaded: context.toWrite ?? context.loaded,
      toWrite: null,
    })),
    writeFailed: assign({ lastError: (_, params: { error: unknown }) => `Error: Failed to save state: ${errorMessage(params.error)}` }),
    unlockFailed: assign({ lastError: (_, params: { error: unknown }) => `Error releasing the state lock: ${errorMessage(params.error)}` }),
    finishRun: assign(({ context }) => ({ result: runResult(context), lockId: null })),
    updateConfig: assign({
      config: ({ context, event }) => (event.type === 'CONFIG.UPDATE' ? { ...context.config, ...event.config } : context.config),
    }),
  },
}).createMachine({
  id: 'terraform',
  context: ({ input }) => ({
    config: input.config,
    runConfig: input.config,
    runs: 0,
    lockId: null,
    loaded: null,
    refreshed: null,
    drift: [],
    plan: null,
    progress: null,
    current: null,
    lastApplied: null,
    toWrite: null,
    written: null,
    result: null,
    lastError: null,
  }),
  // Edited .tf files: read by the next run (beginRun: a run plans and applies the configuration it started with).
  on: { 'CONFIG.UPDATE': { actions: 'updateConfig' } },
  initial: 'starting',
  states: {
    starting: { tags: ['wait'], always: { target: 'locking', actions: 'beginRun' } },
    // The backend: take the lock (LockInfo), then read the state file.
    locking: {
      tags: ['observe'],
      invoke: {
        id: 'acquireLock',
        src: 'acquireLock',
        input: ({ context }) => ({ operation: OPERATION[context.runConfig.mode], who: context.runConfig.who }),
        onDone: { target: 'refreshing', actions: { type: 'locked', params: ({ event }) => ({ out: event.output }) } },
        onError: { target: 'failed', actions: { type: 'lockFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // "aws_instance.web: Refreshing state... [id=i-0a1b2c3d]"
    refreshing: {
      tags: ['observe'],
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ resources: Object.values(context.loaded!.resources) }),
        onDone: { target: 'planning', actions: { type: 'refreshed', params: ({ event }) => ({ read: event.output }) } },
        onError: { target: 'unlocking', actions: { type: 'writeFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    planning: {
      tags: ['compare'],
      entry: 'planned',
      after: {
        compareTime: [
          { guard: 'planFailed', target: 'unlocking' },
          { guard: { type: 'modeIs', params: { mode: 'plan' } }, target: 'unlocking' },
          { guard: { type: 'modeIs', params: { mode: 'refresh-only' } }, target: 'deciding', actions: 'prepareWrite' },
          { target: 'scheduling' },
        ],
      },
    },
    // The graph walk: the next operation whose dependencies are done; failures block their dependents.
    scheduling: {
      tags: ['compare'],
      entry: 'pickOp',
      after: {
        compareTime: [
          { guard: 'hasOp', target: 'applying' },
          { target: 'deciding', actions: 'prepareWrite' },
        ],
      },
    },
    applying: {
      tags: ['act'],
      invoke: {
        id: 'applyChange',
        src: 'applyChange',
        input: ({ context }) => {
          const op = context.current!;
          const r = context.runConfig.resources.find((x) => x.address === op.address);
          return {
            op,
            type: r?.type ?? context.progress!.state[op.address]?.type ?? '',
            attrs: r && op.kind !== 'delete' ? resolvedAttrs(r, context.progress!.state) : {},
          };
        },
        onDone: { target: 'checkpoint', actions: { type: 'recordOutcome', params: ({ event }) => ({ outcome: event.output }) } },
        onError: {
          target: 'checkpoint',
          actions: { type: 'recordOutcome', params: ({ event }) => ({ outcome: { object: null, error: errorMessage(event.error) } }) },
        },
      },
    },
    // StateHook (internal/backend/local/hook_state.go) persists the state during an apply (since
    // 1.5 at most every PersistInterval, 20 s); here after every operation that changed it, so a
    // crash loses only the operation in flight.
    checkpoint: {
      tags: ['compare'],
      always: [{ guard: 'workingStateChanged', target: 'persisting', actions: 'prepareWrite' }, { target: 'scheduling' }],
    },
    persisting: {
      tags: ['act'],
      invoke: {
        id: 'persistState',
        src: 'persistState',
        input: ({ context }) => ({ state: context.toWrite!, lockId: context.lockId! }),
        onDone: { target: 'scheduling', actions: { type: 'wrote', params: ({ event }) => ({ serial: event.output }) } },
        onError: { target: 'scheduling', actions: { type: 'writeFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    deciding: {
      tags: ['compare'],
      always: [{ guard: 'mustWrite', target: 'writingState' }, { target: 'unlocking' }],
    },
    writingState: {
      tags: ['act'],
      invoke: {
        id: 'persistState',
        src: 'persistState',
        input: ({ context }) => ({ state: context.toWrite!, lockId: context.lockId! }),
        onDone: { target: 'unlocking', actions: { type: 'wrote', params: ({ event }) => ({ serial: event.output }) } },
        onError: { target: 'unlocking', actions: { type: 'writeFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    unlocking: {
      tags: ['act'],
      invoke: {
        id: 'releaseLock',
        src: 'releaseLock',
        input: ({ context }) => ({ lockId: context.lockId! }),
        onDone: { target: 'idle', actions: 'finishRun' },
        onError: { target: 'idle', actions: [{ type: 'unlockFailed', params: ({ event }) => ({ error: event.error }) }, 'finishRun'] },
      },
    },
    idle: {
      tags: ['wait'],
      on: { 'TERRAFORM.RUN': { target: 'locking', actions: 'beginRun' } },
      after: { every: { guard: 'scheduled', target: 'locking', actions: 'beginRun' } },
    },
    failed: {
      tags: ['error'],
      on: { 'TERRAFORM.RUN': { target: 'locking', actions: 'beginRun' } },
      after: { every: { guard: 'scheduled', target: 'locking', actions: 'beginRun' } },
    },
  },
});
