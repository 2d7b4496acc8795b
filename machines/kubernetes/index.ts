export * from './types';
export * from './workqueue';
export * from './expectations';
export * from './reconciler';
export * from './machine';
export * from './reconcilers';
export * from './merge-patch';
