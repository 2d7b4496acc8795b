export * from './types';
export * from './policy';
export * from './machine';
export * from './status';
