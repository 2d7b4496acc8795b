export * from './types';
export * from './machine';
export * from './policies';
