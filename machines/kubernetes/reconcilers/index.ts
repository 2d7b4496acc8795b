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
export const RECONCILER_NAMES = Object.keys(ALL) as ReconcilerName[]; // cast: Object.keys says string[]; these are the object's own keys

/** Finds the focal controller by the name in the machine's config (createControllerMachine). */
export type ReconcilerLookup = (name: string) => Reconciler<unknown>;

const isReconcilerName = (name: string): name is ReconcilerName => name in ALL;

/** A built-in controller by name; a user's controller is not one of them (see withUserReconciler). */
export const builtinReconciler: ReconcilerLookup = (name) => {
  if (!isReconcilerName(name)) throw new Error(`no controller named "${name}" is loaded (built-in: ${RECONCILER_NAMES.join(', ')})`);
  return RECONCILERS[name];
};

/** The built-in controllers plus a user's own under its name (a module or a webhook, loaded with its scenario). */
export const withUserReconciler =
  (name: string, reconciler: Reconciler<unknown>): ReconcilerLookup =>
  (wanted) =>
    wanted === name ? reconciler : builtinReconciler(wanted);
