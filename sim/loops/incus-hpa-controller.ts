import type { HpaAction, HpaContext, Observation, PolicyModules } from '../../machines/incus-hpa';
import { NO_POLICY_MODULES, peekPolicy } from '../../machines/incus-hpa';
import type { HpaWorld } from '../worlds/incus-hpa';
import { observe, settle } from '../worlds/incus-hpa';
import type { HpaController } from './incus-hpa-controller-schema';

const actionOf = (a: HpaAction): HpaController['pending'][number] =>
  a.kind === 'create' ? { kind: 'create' } : { kind: 'delete', name: a.name };

/** The average the configured policy computes for an observation: the policy itself, run on it
 * (pure); none when a policy module fails on it (the machine reports that failure itself). */
function policyAverage(ctx: HpaContext, observation: Observation, modules: PolicyModules): number | null {
  return peekPolicy(ctx.config.policy, { observation, config: ctx.config, memory: ctx.policyMemory }, modules)?.averagePercent ?? null;
}

/**
 * The one HPA controller summary, for the simulator and real mode alike: the machine's context
 * and the instances as the controller would observe them now (sim: the world at t; real: the
 * last Incus listing of this HPA's instances). `modules`: the policy modules the run loaded.
 */
export function hpaController(ctx: HpaContext, now: Observation, modules: PolicyModules = NO_POLICY_MODULES): HpaController {
  const { config } = ctx;
  const own = now.instances.filter((i) => i.owner === config.name);
  const status = (s: string) => own.filter((i) => i.status === s).length;
  const d = ctx.decision;
  return {
    loop: 'incus-hpa',
    policy: config.policy,
    threshold: config.memoryThreshold,
    minPods: config.minPods,
    maxPods: config.maxPods,
    pods: { running: status('Running'), starting: status('Starting'), stopping: status('Stopping') },
    averagePercent: policyAverage(ctx, now, modules),
    decision: d
      ? {
          observedAt: ctx.observation?.at ?? 0,
          averagePercent: d.averagePercent,
          running: d.running,
          desired: d.desired,
          actions: d.actions.map(actionOf),
        }
      : null,
    pending: ctx.pending.map(actionOf),
    consecutiveErrors: ctx.consecutiveErrors,
    lastError: ctx.lastError,
  };
}

/** The binding's side: the simulated world observed at t (what the observe actor would return). */
export function hpaSimController(ctx: HpaContext, world: HpaWorld, t: number, modules: PolicyModules = NO_POLICY_MODULES): HpaController {
  return hpaController(ctx, observe(settle(world, t), t), modules);
}
