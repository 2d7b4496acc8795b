import type { ControllerConfig, KObject } from '../../../machines/kubernetes';
import { controllerOf } from '../../../machines/kubernetes';
import type { CheckProperty } from '../../check/model';
import type { DeclaredProperty } from '../../user-controller/declared';
import type { UserController } from '../../user-controller/hook';
import type { LoopBinding } from '../../model';
import type { KubeFault } from '../../worlds/kubernetes';
import type { KubeWorld } from '../../worlds/kubernetes';
import { contextOf, controllerQuiescent, objectsOf, worldAt } from './view';
import { idempotent } from './idempotence';
import { differential } from './differential';
import type { ControllerContext } from '../../../machines/kubernetes';

/**
 * What every user controller module is checked for without writing a property (issue: "the checks
 * a user's controller gets"), plus the counts its scenario declares (sim/user-controller/declared.ts).
 */

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;

const live = (o: KObject) => o.metadata.deletionTimestamp === undefined;

/** A thrown TypeError/ReferenceError…, a hang past the time limit, an invalid write: Go's panic. */
const noCrash: Property = {
  name: 'no-crash',
  kind: 'always',
  claim: 'the controller never crashes (no runtime error, no hang past its time limit, no invalid write)',
  holds: (v) => {
    const o = contextOf(v).outcome;
    return !(o?.kind === 'error' && o.message.startsWith('panic: '));
  },
};

/** Children the controller creates carry a controller ownerReference, so the garbage collector
 * removes them with their parent (objects the scenario starts with are not the controller's). */
function noOrphans(owns: readonly string[], initialUids: ReadonlySet<string>): Property {
  return {
    name: 'no-orphans',
    kind: 'always',
    claim: `every ${owns.join('/') || 'owned object'} the controller creates has a controller ownerReference (none is left behind when its parent goes)`,
    holds: (v) => {
      const w = worldAt(v);
      return owns.every((kind) => objectsOf(w, kind).every((o) => initialUids.has(o.metadata.uid) || controllerOf(o) !== undefined));
    },
  };
}

/** A finalizer is removed only after the cleanup: the GC found nothing left of a deleted parent. */
function cleanupBeforeFinalizer(forKind: string): Property {
  return {
    name: 'cleanup-before-finalizer',
    kind: 'always',
    claim: `when a ${forKind} leaves the store, the controller has already deleted its children (nothing is left for the garbage collector)`,
    holds: (v) => (worldAt(v).collected[forKind] ?? 0) === 0,
  };
}

function moduleConverges(withinMs: number, within: string): Property {
  return {
    name: 'converges',
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: the controller has nothing left to do (queue empty, cache caught up, no write in flight), and it stays so`,
    holds: (v) => controllerQuiescent(worldAt(v), contextOf(v)),
  };
}

function declaredProperty(p: DeclaredProperty, withinMs: number, within: string): Property {
  const count = (w: KubeWorld): number[] => {
    const objects = objectsOf(w, p.kind).filter(live);
    if (p.perOwner === undefined) return [objects.length];
    return objectsOf(w, p.perOwner)
      .filter(live)
      .map((owner) => objects.filter((o) => controllerOf(o)?.uid === owner.metadata.uid).length);
  };
  const scope = p.perOwner ? ` per live ${p.perOwner}` : '';
  if (p.atMost !== undefined) {
    const most = p.atMost;
    return {
      name: p.name,
      kind: 'always',
      claim: `at most ${most} live ${p.kind}${scope}`,
      holds: (v) => count(worldAt(v)).every((n) => n <= most),
    };
  }
  const least = p.atLeast ?? 0;
  return {
    name: p.name,
    kind: 'eventually',
    withinMs,
    within,
    claim: `once the environment stops, within ${within}: at least ${least} live ${p.kind}${scope}`,
    holds: (v) => count(worldAt(v)).every((n) => n >= least),
  };
}

/** A user's controller and the binding whose machine runs it (the differential oracle's reference runs use it). */
export interface UserControllerRun {
  controller: UserController;
  binding: LoopBinding<KubeWorld, KubeFault, ControllerConfig>;
}

export function moduleProperties(
  user: UserControllerRun,
  config: ControllerConfig,
  world: KubeWorld | undefined,
  withinMs: number,
  within: string,
): Property[] {
  const r = user.controller.reconciler;
  const initialUids = new Set(Object.values(world?.store.objects ?? {}).map((o) => o.metadata.uid));
  return [
    noCrash,
    noOrphans(r.watches, initialUids),
    idempotent,
    ...(world ? [differential(user.binding, r, config, world, withinMs)] : []),
    moduleConverges(withinMs, within),
    cleanupBeforeFinalizer(r.forKind),
    ...user.controller.declared.map((p) => declaredProperty(p, withinMs, within)),
  ];
}

/** Promised: the built-in checks except cleanup-before-finalizer (a controller without a finalizer
 * leaves its children to the GC on purpose), and every declared count. */
export const modulePromises = (user: UserControllerRun): string[] => [
  'no-crash',
  'no-orphans',
  'idempotent',
  'differential',
  'converges',
  ...user.controller.declared.map((p) => p.name),
];

/** The user's controller the config names, or why it cannot be checked here. */
export function userControllerOf(config: ControllerConfig, user: UserControllerRun | undefined): UserControllerRun {
  if (user?.controller.name !== config.reconciler)
    throw new Error(`no controller named "${config.reconciler}" is loaded: a user's controller is checked with the scenario that loads it`);
  return user;
}
