import type { Reconciler } from '../reconciler';
import { hpaReconciler } from '../hpa/reconciler';
import { compositeReconciler } from '../metacontroller/composite';
import { decoratorReconciler } from '../metacontroller/decorator';
import { applicationReconciler } from './application';
import { databaseReconciler } from './database';
import { deploymentReconciler } from './deployment';
import { queueScalerReconciler } from './queue-scaler';
import { replicaSetReconciler } from './replicaset';

const ALL = {
  replicaset: replicaSetReconciler,
  deployment: deploymentReconciler,
  hpa: hpaReconciler,
  application: applicationReconciler,
  database: databaseReconciler,
  composite: compositeReconciler,
  decorator: decoratorReconciler,
  'queue-scaler': queueScalerReconciler,
};

export type ReconcilerName = keyof typeof ALL;
/** Every controller the machine can run, by name (memory types erased: each keeps its own). */
export const RECONCILERS: Record<ReconcilerName, Reconciler<unknown>> = ALL;
export const RECONCILER_NAMES = Object.keys(ALL) as ReconcilerName[];

/** A user's controller module, registered at scenario load (`module:<path>`; sim/user-controller). */
const userReconcilers = new Map<string, Reconciler<unknown>>();
const isReconcilerName = (name: string): name is ReconcilerName => name in ALL;
export function registerReconciler(name: string, reconciler: Reconciler<unknown>): void {
  userReconcilers.set(name, reconciler);
}

/** The focal controller by the name in the machine's config: a built-in one or a registered module. */
export function reconcilerFor(name: string): Reconciler<unknown> {
  const r = isReconcilerName(name) ? RECONCILERS[name] : userReconcilers.get(name);
  if (!r) throw new Error(`no controller named "${name}" is loaded (built-in: ${RECONCILER_NAMES.join(', ')})`);
  return r;
}
