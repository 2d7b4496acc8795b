import { z } from 'zod';
import type { SystemdContext } from '../../machines/systemd-restart';
import { SERVICE_RESULTS, unitStatus } from '../../machines/systemd-restart';

const count = z.number().int().min(0);

/** frame.controller for systemd-restart: the unit as `systemctl show` would report it, and the restart decision. */
export const systemdControllerSchema = z.object({
  loop: z.literal('systemd-restart'),
  unit: z.string(),
  /** ActiveState and SubState (service.c's state translation). */
  active: z.enum(['inactive', 'activating', 'active', 'deactivating', 'failed']),
  sub: z.string(),
  result: z.enum(SERVICE_RESULTS),
  nRestarts: count,
  mainPid: z.number().int().nullable(),
  /** The start rate limit: the window's begin (null = none yet), starts counted in it, StartLimitBurst=, StartLimitIntervalSec=. */
  startLimit: z.object({ begin: z.number().nullable(), count, burst: count, intervalMs: z.number().min(0) }),
  /** service_shall_restart()'s answer for the last exit, and the delay chosen. */
  decision: z.object({ restart: z.boolean(), reason: z.string(), delayMs: z.number().min(0) }).nullable(),
});
export type SystemdController = z.infer<typeof systemdControllerSchema>;

/** The one systemd summary: from the machine's context and its state (ActiveState needs both). */
export function systemdController(ctx: SystemdContext, state: string): SystemdController {
  const u = ctx.unit;
  const { active, sub } = unitStatus(state, ctx);
  return {
    loop: 'systemd-restart',
    unit: u.name,
    active,
    sub,
    result: ctx.result,
    nRestarts: ctx.nRestarts,
    mainPid: ctx.mainPid,
    startLimit: { begin: ctx.startLimit.begin, count: ctx.startLimit.num, burst: u.startLimitBurst, intervalMs: u.startLimitIntervalMs },
    decision: ctx.decision ? { restart: ctx.decision.restart, reason: ctx.decision.reason, delayMs: ctx.nextRestartDelayMs } : null,
  };
}
