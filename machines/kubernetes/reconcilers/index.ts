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
