export * from './types';
export * from './workqueue';
export * from './expectations';
export * from './reconciler';
export type * from './reconcile-summary';
export * from './machine';
export * from './reconcilers';
export * from './merge-patch';
