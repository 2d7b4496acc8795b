import type { HpaContext, PolicyModules } from '../machines/incus-hpa';
import { NO_POLICY_MODULES } from '../machines/incus-hpa';
import type { HpaController } from '../sim/loops/incus-hpa-controller-schema';
import { hpaController } from '../sim/loops/incus-hpa-controller';
import { observationOf } from './hpa-actors';
import type { InstanceFull } from './incus';

/**
 * frame.controller of a real run: the simulator's summary function over the last Incus listing
 * of this HPA's instances (what its policy is given), so real and sim print the same numbers.
 */
export function realHpaController(
  ctx: HpaContext,
  lastList: InstanceFull[],
  t: number,
  epoch: number,
  modules: PolicyModules = NO_POLICY_MODULES,
): HpaController {
  return hpaController(ctx, observationOf(lastList, ctx.config.name, t, epoch), modules);
}
