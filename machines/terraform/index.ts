export * from './types';
export * from './schema';
export * from './plan';
export * from './apply';
export * from './machine';
