import type { ControllerConfig, ControllerContext, KObject } from '../../../machines/kubernetes';
import { controlledBy } from '../../worlds/kubernetes/store-index';
import type { CheckView } from '../../check/model';
import type { KubeWorld } from '../../worlds/kubernetes';
import { settle } from '../../worlds/kubernetes';

export type KubeView = CheckView<KubeWorld, ControllerConfig, ControllerContext>;

const settled = new WeakMap<KubeWorld, { t: number; world: KubeWorld }>();

/** The world as it is at the view's instant (agenda items already due applied), memoised: every
 * property of a state asks for it. */
export function worldAt(v: { t: number; world: KubeWorld }): KubeWorld {
  const hit = settled.get(v.world);
  if (hit && hit.t === v.t) return hit.world;
  const world = settle(v.world, v.t);
  settled.set(v.world, { t: v.t, world });
  return world;
}

export const contextOf = (v: KubeView) => v.snapshot.context;

export { objectsOf } from '../../worlds/kubernetes';

/** Objects whose controlling owner is `owner` (by uid, as the garbage collector sees ownership). */
export const ownedBy = (world: KubeWorld, owner: KObject, kind: string): readonly KObject[] =>
  controlledBy(world.store.objects, owner, kind);

/**
 * The controller has nothing left to do: every watch event has reached the handlers (no delivery
 * scheduled, none pending), the workqueue is empty (nothing queued, processing or waiting for a
 * requeue) and no write of its own is in flight.
 */
export function controllerQuiescent(world: KubeWorld, ctx: ControllerContext): boolean {
  const q = ctx.queue;
  return (
    ctx.synced &&
    ctx.current === null &&
    q.queue.length === 0 &&
    q.processing.length === 0 &&
    q.waiting.length === 0 &&
    (world.informer?.pending.length ?? 0) === 0 &&
    !world.agenda.some((a) => a.kind === 'deliver') &&
    !world.ops.some((op) => op.kind === 'write')
  );
}
