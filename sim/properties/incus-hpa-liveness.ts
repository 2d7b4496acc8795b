import type { HpaConfig, HpaContext } from '../../machines/incus-hpa';
import type { CheckProperty, CheckView } from '../check/model';
import type { HpaWorld } from '../worlds/incus-hpa';
import { settle } from '../worlds/incus-hpa';
import { countSettled } from './incus-hpa';

type View = CheckView<HpaWorld, HpaConfig, HpaContext>;

/** Owned instances starting or stopping now: the pod count is moving. */
const moving = (v: View) => {
  const name = v.snapshot.context.config.name;
  return settle(v.world, v.t).instances.some((i) => i.owner === name && (i.status === 'Starting' || i.status === 'Stopping'));
};

/**
 * The HPA's liveness claims, judged while the environment keeps acting for ever (timeline entries
 * with `repeat: true`, e.g. a load that rises and falls again and again) on weakly fair runs
 * (sim/check/liveness.ts): `settles` is the flapping question — does the pod count come to rest
 * however the load keeps swinging? No policy promises it: the table says which one flaps.
 */
export function hpaLiveness(): { properties: CheckProperty<HpaWorld, HpaConfig, HpaContext>[]; promises: readonly string[] } {
  return {
    properties: [
      {
        name: 'settles',
        kind: 'eventually-always',
        claim:
          'however the load keeps changing, from some point on the owned Running count stays in [min, max] with nothing starting or stopping (no flapping for ever)',
        holds: countSettled,
      },
      {
        name: 'scaling-finishes',
        kind: 'leads-to',
        claim:
          'whenever an owned pod is starting or stopping, a moment comes when none is (a scale step ends, even while the load keeps changing)',
        when: moving,
        holds: (v) => !moving(v),
      },
    ],
    promises: [],
  };
}
