export * from './types';
export * from './graph';
export * from './sync';
export * from './report';
export * from './transaction';
export * from './machine';
