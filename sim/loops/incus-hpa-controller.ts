import { z } from 'zod';
import type { HpaAction, HpaContext, Observation } from '../../machines/incus-hpa';
import { POLICY_NAMES, peekPolicy } from '../../machines/incus-hpa';
import type { HpaWorld } from '../worlds/incus-hpa';
import { observe, settle } from '../worlds/incus-hpa';

const count = z.number().int().min(0);
const actionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('create') }),
  z.object({ kind: z.literal('delete'), name: z.string() }),
]);

/** frame.controller for incus-hpa: what the HPA sees, compares and decides, as data. */
export const hpaControllerSchema = z.object({
  loop: z.literal('incus-hpa'),
  /** A built-in policy's name, or `module:<file>` for a user's policy module. */
  policy: z.union([z.enum(POLICY_NAMES), z.templateLiteral(['module:', z.string()])]),
  threshold: z.number(),
  minPods: count,
  maxPods: count,
  /** This HPA's own instances (its owner key) by status, at the frame's time. */
  pods: z.object({ running: count, starting: count, stopping: count }),
  /** The policy's own average memory % over the instances as they are at the frame's time. */
  averagePercent: z.number().nullable(),
  /** The last decision: when its observation was taken, the policy's numbers and its actions ([] = none). */
  decision: z.object({
    observedAt: z.number(), averagePercent: z.number().nullable(), running: count, desired: count, actions: z.array(actionSchema),
  }).nullable(),
  /** Actions of this period not yet done. */
  pending: z.array(actionSchema),
  consecutiveErrors: count,
  lastError: z.string().nullable(),
});
export type HpaController = z.infer<typeof hpaControllerSchema>;

const actionOf = (a: HpaAction): HpaController['pending'][number] => (a.kind === 'create' ? { kind: 'create' } : { kind: 'delete', name: a.name });

/** The average the configured policy computes for an observation: the policy itself, run on it
 * (pure); none when a policy module fails on it (the machine reports that failure itself). */
export function policyAverage(ctx: HpaContext, observation: Observation): number | null {
  return peekPolicy(ctx.config.policy, { observation, config: ctx.config, memory: ctx.policyMemory })?.averagePercent ?? null;
}

/**
 * The one HPA controller summary, for the simulator and real mode alike: the machine's context
 * and the instances as the controller would observe them now (sim: the world at t; real: the
 * last Incus listing of this HPA's instances).
 */
export function hpaController(ctx: HpaContext, now: Observation): HpaController {
  const { config } = ctx;
  const own = now.instances.filter((i) => i.owner === config.name);
  const status = (s: string) => own.filter((i) => i.status === s).length;
  const d = ctx.decision;
  return {
    loop: 'incus-hpa', policy: config.policy, threshold: config.memoryThreshold, minPods: config.minPods, maxPods: config.maxPods,
    pods: { running: status('Running'), starting: status('Starting'), stopping: status('Stopping') },
    averagePercent: policyAverage(ctx, now),
    decision: d ? { observedAt: ctx.observation?.at ?? 0, averagePercent: d.averagePercent, running: d.running, desired: d.desired, actions: d.actions.map(actionOf) } : null,
    pending: ctx.pending.map(actionOf),
    consecutiveErrors: ctx.consecutiveErrors,
    lastError: ctx.lastError,
  };
}

/** The binding's side: the simulated world observed at t (what the observe actor would return). */
export function hpaSimController(ctx: HpaContext, world: HpaWorld, t: number): HpaController {
  return hpaController(ctx, observe(settle(world, t), t));
}
